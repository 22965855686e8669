#include "JobOutcome.h"

#include "TextLines.h"

using TextLines::oneLine;

namespace JobOutcome {

QString values(const QStringList &values)
{
    if (values.isEmpty())
        return NoValues.toString();
    return QStringLiteral("=> ") + values.join(QStringLiteral("\n=> "));
}

QString firstValueInOneLine(const QStringList &values, int maxChars)
{
    return values.isEmpty() ? NoValues.toString() : QStringLiteral("=> ") + oneLine(values.first(), maxChars);
}

QString failure(const JobResult &result, int maxMessageChars)
{
    const QString message = maxMessageChars >= 0 ? oneLine(result.error.message, maxMessageChars) : result.error.message;
    if (result.status == JobResult::Status::Error)
        return QStringLiteral("[ERROR] %1: %2").arg(result.error.type, message);
    return QStringLiteral("[%1] %2").arg(JobResult::statusName(result.status).toUpper(), message);
}

QString text(const JobResult &result)
{
    return result.ok() ? values(result.values) : failure(result);
}

} // namespace JobOutcome
