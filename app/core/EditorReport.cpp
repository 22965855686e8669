#include "EditorReport.h"

#include "editor/EditorBridge.h"
#include "initfile/InitFile.h"
#include "editor/SlimeSecret.h"

#include <cstdio>

EditorReport::EditorReport(EditorBridge *editors, InitFile *initFile, QObject *parent)
    : QObject(parent), m_bridge(editors), m_initFile(initFile)
{
    connect(editors, &EditorBridge::stateChanged, this, &EditorReport::onStateChanged);
    connect(editors, &EditorBridge::editorsChanged, this, &EditorReport::onEditorsChanged);
    connect(editors, &EditorBridge::refused, this, [](const QString &peer, const QString &reason) {
        say(QStringLiteral("an editor at %1 was refused: %2").arg(peer, reason));
    });
    connect(initFile, &InitFile::changed, this, &EditorReport::onInitFileChanged);
    onStateChanged(); // a secret found missing before the report existed
}

QString EditorReport::listeningLine(int port)
{
    return QStringLiteral("Swank (%1) at 127.0.0.1:%2; in Emacs: %3 (not Sly, vlime or Conjure: README, \"Your editor\")")
        .arg(EditorBridge::clientNames())
        .arg(port)
        .arg(EditorBridge::connectLine(port));
}

void EditorReport::say(const QString &line)
{
    std::fprintf(stderr, "lisp-duet: %s\n", qPrintable(line));
    std::fflush(stderr);
}

void EditorReport::onStateChanged()
{
    const EditorBridge *editors = m_bridge;
    QString line;
    switch (editors->state()) {
    case EditorBridge::State::Listening:
        line = listeningLine(editors->port());
        break;
    case EditorBridge::State::NoSecret:
        line = QStringLiteral("Swank for your editor is off: %1 Make a secret that only you can read: %2 (SLIME sends it by "
                              "itself), then start Lisp Duet again.")
                   .arg(editors->message(), SlimeSecret::shellCommand(editors->secretFile()));
        break;
    case EditorBridge::State::Failed:
        line = QStringLiteral("Swank for your editor could not start: %1").arg(editors->message());
        break;
    case EditorBridge::State::Off:
    case EditorBridge::State::Starting:
        return; // nothing to act on; a restart that listens again on the same port says nothing new
    }
    if (line == m_lastState)
        return;
    m_lastState = line;
    say(line);
}

void EditorReport::onEditorsChanged()
{
    QSet<qint64> now;
    for (const EditorBridge::Editor &editor : m_bridge->editors()) {
        now.insert(editor.number);
        if (!m_editors.contains(editor.number))
            say(QStringLiteral("%1 connected from %2 (Swank)").arg(editor.program().isEmpty() ? QStringLiteral("An editor") : editor.program(), editor.peer));
    }
    for (const qint64 number : std::as_const(m_editors)) {
        if (!now.contains(number))
            say(QStringLiteral("editor %1 disconnected").arg(number));
    }
    m_editors = now;
}

void EditorReport::onInitFileChanged()
{
    const QString problem = m_initFile->problem();
    if (problem == m_lastInitProblem)
        return;
    m_lastInitProblem = problem;
    if (!problem.isEmpty())
        say(problem);
}
