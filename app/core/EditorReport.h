#pragma once

#include <QObject>
#include <QSet>
#include <QString>

class EditorBridge;
class InitFile;

// What the person's own setup (issue 31) says on stderr, in every mode: where Swank listens
// and what to type in Emacs, why it does not (no secret: how to make one), editors that came,
// went or were refused, and an init file that did not load. Each fact once, when it changes.
class EditorReport : public QObject
{
    Q_OBJECT
public:
    EditorReport(EditorBridge *editors, InitFile *initFile, QObject *parent = nullptr);

    // The line printed when Swank listens on `port`: "Swank (SLIME, slimv) at 127.0.0.1:4005; in
    // Emacs: M-x slime-connect RET 127.0.0.1 RET 4005 (not Sly, vlime or Conjure: ...)".
    static QString listeningLine(int port);

private:
    void onStateChanged();
    void onEditorsChanged();
    void onInitFileChanged();
    static void say(const QString &line);

    EditorBridge *m_bridge;
    InitFile *m_initFile;
    QString m_lastState;     // the state line printed last
    QString m_lastInitProblem;
    QSet<qint64> m_editors;  // the editors told of as connected
};
