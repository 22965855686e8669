#include "LibraryNotices.h"

#include "native/LibraryCompilation.h"
#include "server/McpServer.h"

namespace LibraryNotices {

void follow(const LibraryCompilation *libraries, McpServer *server)
{
    QObject::connect(libraries, &LibraryCompilation::settled, server, [server](const LibraryCompilation::Library &library) {
        server->log(library.state == LibraryCompilation::State::Bytecode ? QStringLiteral("warning") : QStringLiteral("info"),
                    QStringLiteral("libraries"), library.sentence());
    });
}

} // namespace LibraryNotices
