#include "TestRunBlock.h"

#include "TranscriptView.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonValue>

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("TestRunBlock", text);
}

// Expected and actual values come printed (strings) or as JSON; null: the framework did not say.
QString shown(const QJsonValue &value)
{
    if (value.isNull() || value.isUndefined())
        return {};
    if (value.isString())
        return value.toString();
    if (value.isArray() || value.isObject())
        return QString::fromUtf8(value.isArray() ? QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)
                                                 : QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    return value.toVariant().toString();
}
// Long values are broken at spaces and continue under the value's first character, so that a
// reason reads as one column in the transcript's fixed-width font instead of wrapping to the
// lane's edge.
QString hanging(const QString &value, const QString &indent, int width = 48)
{
    QStringList lines;
    for (const QString &paragraph : value.split(u'\n')) {
        QString line;
        for (const QString &word : paragraph.split(u' ')) {
            if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
                lines << line;
                line.clear();
            }
            line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
        }
        lines << line;
    }
    return lines.join(QLatin1Char('\n') + indent);
}
} // namespace

namespace TestRunBlock {

QString headline(const EngineProtocol::TestRunReply &reply)
{
    const QString what = reply.test().isEmpty() ? tr("Tests of %1").arg(reply.system())
                                                : tr("Test %1 of %2").arg(reply.test(), reply.system());
    // FiveAM, RT and ptester give counts; ASDF's test-op alone gives none (-1 on the wire).
    if (reply.framework() == QStringLiteral("asdf") || reply.passed() < 0 || reply.failed() < 0) {
        return reply.outcome() == QStringLiteral("failed")
            ? tr("%1 (ASDF test-op): the output tells of a failure or an unexpected error").arg(what)
            : tr("%1 (ASDF test-op): finished; the output says how it went").arg(what);
    }
    QString counts = tr("%1 passed, %2 failed").arg(reply.passed()).arg(reply.failed());
    if (reply.skipped() > 0)
        counts += tr(", %1 skipped").arg(reply.skipped());
    if (reply.outcome() == QStringLiteral("failed") && reply.failed() == 0)
        counts += tr("; the output tells of an unexpected error");
    return what + QStringLiteral(": ") + counts;
}

QStringList failureLines(const EngineProtocol::TestRunReply &reply)
{
    QStringList lines;
    for (const EngineProtocol::TestRunReply::Failure &failure : reply.failures()) {
        lines << QStringLiteral("  \u2717 ") + (failure.test().isEmpty() ? tr("(unnamed test)") : failure.test());
        auto field = [&lines](const QString &label, const QString &value) {
            if (!value.isEmpty())
                lines << QStringLiteral("      %1 %2").arg(label, -9).arg(hanging(value, QString(16, u' ')));
        };
        field(tr("form:"), failure.form());
        field(tr("expected:"), shown(failure.expected()));
        field(tr("actual:"), shown(failure.actual()));
        field(tr("reason:"), failure.reason());
    }
    return lines;
}

void append(TranscriptView *t, const EngineProtocol::TestRunReply &reply, int lane)
{
    using Style = TranscriptView::Style;
    const bool failed = reply.failed() > 0 || reply.outcome() == QStringLiteral("failed");
    t->appendText(headline(reply) + QLatin1Char('\n'), failed ? Style::Error : Style::Value, lane);
    for (const QString &line : failureLines(reply))
        t->appendText(line + QLatin1Char('\n'), line.startsWith(QStringLiteral("  \u2717")) ? Style::Warning : Style::Plain, lane);
    const QString output = reply.output().trimmed();
    if (!output.isEmpty()) {
        const QStringList lines = output.split(u'\n');
        t->appendCollapsed(lines.size() == 1 ? tr("Output (1 line)") : tr("Output (%1 lines)").arg(lines.size()), lines, lane);
    }
}

} // namespace TestRunBlock
