#include "LibraryProgress.h"

#include "console/RunningJobBar.h"
#include "native/LibraryCompilation.h"

#include <QCoreApplication>

namespace LibraryProgress {

void follow(LibraryCompilation *libraries, RunningJobBar *bar)
{
    const auto tell = [libraries, bar] {
        const QList<LibraryCompilation::Library> busy = libraries->busy();
        if (busy.isEmpty()) {
            bar->setBackgroundWork({}, {}, {});
            return;
        }
        QDateTime since = busy.first().since;
        bool onlyWarmUp = true;
        for (const LibraryCompilation::Library &library : busy) {
            since = qMin(since, library.since);
            onlyWarmUp = onlyWarmUp && library.warmUp && library.bytecodeFiles == 0;
        }
        const QString title = onlyWarmUp
            ? QCoreApplication::translate("LibraryProgress", "Compiling the project's libraries natively ahead, at idle priority")
            : QCoreApplication::translate("LibraryProgress", "Libraries compile natively in the background \u2014 they work as bytecode meanwhile");
        bar->setBackgroundWork(title, libraries->busyLine(), since);
    };
    QObject::connect(libraries, &LibraryCompilation::changed, bar, tell);
    tell();
}

} // namespace LibraryProgress
