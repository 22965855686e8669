#pragma once

#include <QObject>
#include <QPointer>
#include <QHash>

class EditorBridge;
class LispConsole;
class QLabel;
class QMessageBox;
class QStatusBar;
class QWidget;

// The person's own editor in the window (issue 31): where Swank listens, in the status bar
// (the line to type in Emacs as its tooltip); editors that connect, leave or are refused, as
// notes in the transcript; and, when Swank is wanted but there is no ~/.slime-secret, the
// offer to make one (32 random bytes, readable only by the person), after which Swank
// listens at once. Nothing is written without the person's yes.
class EditorStatus : public QObject
{
    Q_OBJECT
public:
    EditorStatus(EditorBridge *editors, LispConsole *console, QStatusBar *statusBar, QWidget *window);

    QLabel *label() const { return m_label; }
    // The open offer to make the secret, or null.
    QMessageBox *secretOffer() const;
    // What the offer's Yes does: makes the secret and has Swank listen; false (and a note in
    // the transcript saying why) when the file cannot be written.
    bool makeSecret();

private:
    void onStateChanged();
    void onEditorsChanged();
    void offerSecret();

    EditorBridge *m_bridge;
    LispConsole *m_console;
    QWidget *m_window;
    QLabel *m_label;
    QPointer<QMessageBox> m_offer;
    bool m_offered = false;    // once per run: a declined offer is not repeated at each restart
    // The editors the transcript told of as connected: number -> ("Emacs", "127.0.0.1:53000").
    QHash<qint64, QPair<QString, QString>> m_editors;
};
