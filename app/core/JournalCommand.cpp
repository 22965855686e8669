#include "JournalCommand.h"

#include "CommandLine.h"
#include "history/Journal.h"
#include "history/TranscriptExport.h"

#include <cstdio>

int exportJournalCommand(const CommandLine &options)
{
    TranscriptExport::Format format = TranscriptExport::Format::Markdown;
    TranscriptExport::parseFormat(options.exportFormat, &format);
    const JournalContents contents = Journal::read(options.exportJournal);
    if (!contents.ok()) {
        std::fprintf(stderr, "lisp-duet: %s\n", qPrintable(contents.error));
        return 1;
    }
    if (contents.entries.isEmpty() && contents.badLines > 0) {
        std::fprintf(stderr, "lisp-duet: %s is not a Lisp Duet journal (no line of it is a journal record).\n",
                     qPrintable(options.exportJournal));
        return 1;
    }
    if (contents.badLines > 0 || contents.tornTail)
        std::fprintf(stderr, "lisp-duet: %s: %d unreadable line(s)%s left out.\n", qPrintable(options.exportJournal),
                     contents.badLines + (contents.tornTail ? 1 : 0),
                     contents.tornTail ? " (the last one was cut short when the app stopped)" : "");
    if (options.exportOutput.isEmpty() || options.exportOutput == QStringLiteral("-")) {
        const QByteArray document = TranscriptExport::render(format, contents.entries).toUtf8();
        std::fwrite(document.constData(), 1, size_t(document.size()), stdout);
        return std::fflush(stdout) == 0 ? 0 : 1;
    }
    QString error;
    if (!TranscriptExport::write(options.exportOutput, format, contents.entries, QString(), &error)) {
        std::fprintf(stderr, "lisp-duet: %s\n", qPrintable(error));
        return 1;
    }
    return 0;
}
