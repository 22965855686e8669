#pragma once

// Agent access to the shared session, as the person sets it (toolbar, tray, settings,
// `--access MODE`): a plain value that headless code and the window use alike. What a mode does
// with one tool call is decide(); AccessGate applies it in every mode of the app, through
// McpServer's call gate and ProjectFiles' change gate.

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

enum class AccessMode {
    Allow,    // every call runs; the person sees each as it runs
    Ask,      // calls of tools that change the session wait for the person's approval; so does
              // each change to a project file (with its diff), not the call that proposes it
    ReadOnly, // only read-only tools run; the others are refused, file changes too
    Paused,   // every call is refused at once; a file change already proposed waits
};

struct AccessDecision
{
    enum class Verdict { Run, AskThePerson, Refuse };
    Verdict verdict = Verdict::Run;
    QString refusal; // Refuse: the sentence the agent reads
};

namespace AccessModes {

inline QString translate(const char *text)
{
    return QCoreApplication::translate("AccessMode", text);
}

// In the order menus list them.
inline QList<AccessMode> all()
{
    return {AccessMode::Allow, AccessMode::Ask, AccessMode::ReadOnly, AccessMode::Paused};
}

inline QString name(AccessMode mode) // "Allow", "Ask", "Read-only", "Paused"
{
    switch (mode) {
    case AccessMode::Allow: return translate("Allow");
    case AccessMode::Ask: return translate("Ask");
    case AccessMode::ReadOnly: return translate("Read-only");
    case AccessMode::Paused: return translate("Paused");
    }
    return {};
}

inline QString description(AccessMode mode) // a sentence for tooltips and the status bar
{
    switch (mode) {
    case AccessMode::Allow: return translate("Agents may evaluate code; you see every call as it runs.");
    case AccessMode::Ask: return translate("Each agent evaluation and file change waits for you to approve or deny it.");
    case AccessMode::ReadOnly: return translate("Agents may only look; evaluations and file changes are refused.");
    case AccessMode::Paused: return translate("Every agent call is refused at once until you resume.");
    }
    return {};
}

// How the mode is stored in the settings ("agents/accessMode").
inline QString settingsKey(AccessMode mode) // "allow", "ask", "read-only", "paused"
{
    switch (mode) {
    case AccessMode::Ask: return QStringLiteral("ask");
    case AccessMode::ReadOnly: return QStringLiteral("read-only");
    case AccessMode::Paused: return QStringLiteral("paused");
    case AccessMode::Allow: break;
    }
    return QStringLiteral("allow");
}

inline std::optional<AccessMode> parseSettingsKey(const QString &key) // unknown: nullopt
{
    for (AccessMode mode : all()) {
        if (settingsKey(mode) == key)
            return mode;
    }
    return std::nullopt;
}

inline AccessMode fromSettingsKey(const QString &key) // unknown: Allow
{
    return parseSettingsKey(key).value_or(AccessMode::Allow);
}

inline QString settingsKeys() // "allow, ask, read-only or paused", for messages
{
    QStringList keys;
    for (AccessMode mode : all())
        keys << settingsKey(mode);
    const QString last = keys.takeLast();
    return keys.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

// The sentences agents read when a call is refused. The person refused `what` ("denied this
// evaluate-lisp call, so it did not run"); the agent may ask why, or explain why the `need` is
// needed.
inline QString deniedBy(const QString &what, const QString &need)
{
    return translate("The person sharing this Lisp session %1. Ask them what they would like instead, or explain why the %2 is needed.")
        .arg(what, need);
}

// Read-only allows introspection but not `what` ("evaluate-lisp, so nothing was evaluated").
inline QString readOnlyRefusal(const QString &what)
{
    return translate("Agent access to this Lisp session is read-only: the person allows introspection tools, but not %1. "
                     "Ask the person to switch agent access to Allow or Ask.").arg(what);
}

// The person's own words, when they gave a reason with their denial: " They said: “…”."
inline QString theirReason(const QString &reason)
{
    return reason.trimmed().isEmpty() ? QString() : translate(" They said: \u201c%1\u201d.").arg(reason.trimmed());
}

inline QString deniedMessage(const QString &tool, const QString &reason = {})
{
    return deniedBy(translate("denied this %1 call, so it did not run").arg(tool), translate("call")) + theirReason(reason);
}

inline QString readOnlyMessage(const QString &tool)
{
    return readOnlyRefusal(translate("%1, so nothing was evaluated").arg(tool));
}

// A tool that changes the project's files (Tool::changesFiles), refused in Read-only.
inline QString readOnlyWriteMessage(const QString &tool)
{
    return readOnlyRefusal(translate("%1, which changes the project's files, so nothing was written").arg(tool));
}

// One proposed file change (FileChange::path), as the change gate refuses it.
inline QString changeDeniedMessage(const QString &path, const QString &reason = {})
{
    return deniedBy(translate("looked at your change to %1 and denied it, so nothing was written").arg(path), translate("change"))
        + theirReason(reason);
}

inline QString changeReadOnlyMessage(const QString &path)
{
    return translate("Agent access to this Lisp session is read-only, so your change to %1 was not written. "
                     "Ask the person to switch agent access to Allow or Ask.").arg(path);
}

// Ask without a window: the person is asked through the agent's client (MCP elicitation), and
// this client cannot ask them. `what`: "nothing was evaluated", "your change to PATH was not
// written".
inline QString askUnavailableMessage(const QString &what)
{
    return translate("Agent access to this Lisp session is Ask: each evaluation and file change waits for the person's "
              "approval, but no Lisp Duet window is open and this client cannot ask them (it does not declare MCP "
              "elicitation in form mode), so %1. To allow it, the person can start Lisp Duet with --access allow "
              "(or choose Allow under Agent access in the window), or connect a client that supports elicitation, "
              "such as Claude Code.").arg(what);
}

// Ask without a window, and the person's answer never came (`problem`: why).
inline QString unansweredMessage(const QString &what, const QString &problem)
{
    return translate("The person sharing this Lisp session was asked through your client but gave no answer (%1), so %2. "
              "Try again when they are there.").arg(problem, what);
}

inline QString pausedMessage()
{
    return translate("The person has paused agent access to this Lisp session: no tool call runs until they resume it. "
              "Nothing was queued; try again later or ask the person.");
}

// What mode does with a call of the tool named toolName (readOnlyTool: Tool::isReadOnly(),
// changesFiles: Tool::changesFiles(), personDecides: Tool::personDecides()). A tool that
// changes files passes the call gate in Ask mode: the person decides each change it proposes,
// with its diff (the change gate), rather than a call whose effect they cannot see yet; so
// does a tool whose work the person runs, edits or rejects (stage-form).
inline AccessDecision decide(AccessMode mode, bool readOnlyTool, const QString &toolName, bool changesFiles = false,
                             bool personDecides = false)
{
    using Verdict = AccessDecision::Verdict;
    switch (mode) {
    case AccessMode::Allow:
        return {Verdict::Run, {}};
    case AccessMode::Paused:
        return {Verdict::Refuse, pausedMessage()};
    case AccessMode::ReadOnly:
        if (readOnlyTool)
            return {Verdict::Run, {}};
        return {Verdict::Refuse, changesFiles ? readOnlyWriteMessage(toolName) : readOnlyMessage(toolName)};
    case AccessMode::Ask:
        break;
    }
    return readOnlyTool || changesFiles || personDecides ? AccessDecision{Verdict::Run, {}}
                                                         : AccessDecision{Verdict::AskThePerson, {}};
}

} // namespace AccessModes
