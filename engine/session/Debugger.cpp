#include "Debugger.h"

namespace {
QString who(const Origin &origin)
{
    return origin.isPerson() ? QStringLiteral("the person") : origin.name;
}

QString clock(const QDateTime &at)
{
    return at.toString(QStringLiteral("HH:mm:ss"));
}
} // namespace

QString DebuggerChoice::sentence() const
{
    QString text = restart.isEmpty() ? QStringLiteral("code evaluated by %1 left it at %2").arg(who(by), clock(at))
                                     : QStringLiteral("%1 chose %2%3 at %4")
                                           .arg(who(by), restart,
                                                arguments.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(arguments.join(QStringLiteral(", "))),
                                                clock(at));
    if (!why.isEmpty())
        text += QStringLiteral(" (%1)").arg(why);
    return text;
}

QString Debugger::outcomeSentence() const
{
    switch (state) {
    case State::Open:
        return QStringLiteral("it is parked since %1").arg(clock(parkedAt));
    case State::Continued:
        return choice.sentence();
    case State::Unwound:
        return QStringLiteral("it was cut short: %1 in %2").arg(choice.sentence(), endNote);
    case State::Ended:
        return QStringLiteral("it ended at %1: %2").arg(clock(endedAt), endNote);
    }
    return {};
}

QString Debugger::restartList() const
{
    QStringList items;
    for (const DebuggerRestart &r : restarts)
        items << QStringLiteral("%1 %2").arg(r.index).arg(r.name);
    return items.join(QStringLiteral(", "));
}
