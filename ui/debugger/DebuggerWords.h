#pragma once

#include "session/Debugger.h"

#include <QCoreApplication>

// How the window says the debugger's facts to the person: "your" and "you" where the Session's
// sentences (written for agents too) say "the person".
namespace DebuggerWords {

inline QString whose(const Origin &origin) // "Your", "claude-code's", "Your (in Emacs)"
{
    if (origin.isEditor())
        return QCoreApplication::translate("DebuggerWords", "Your (%1)").arg(origin.name.section(QStringLiteral(", "), 1));
    return origin.isPerson() ? QCoreApplication::translate("DebuggerWords", "Your")
                             : QCoreApplication::translate("DebuggerWords", "%1's").arg(origin.name);
}

// Debugger::outcomeSentence(), with "you" for the person's choice.
inline QString outcome(const Debugger &debugger)
{
    QString sentence = debugger.outcomeSentence();
    const QString person = QStringLiteral("the person chose");
    const int at = sentence.indexOf(person);
    if (at >= 0 && debugger.choice.by.isPerson())
        sentence.replace(at, person.size(), QCoreApplication::translate("DebuggerWords", "you chose"));
    return sentence;
}

} // namespace DebuggerWords
