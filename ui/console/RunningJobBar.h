#pragma once

#include "session/Job.h"
#include "session/TextLines.h"

#include <QDateTime>
#include <QFrame>
#include <QTimer>

class QLabel;
class QPushButton;
class Session;

// Above the REPL input while an evaluation has run for a moment: whose it is and what (the
// tool, its description, the code's first line), the time it has run (ticking), the newest
// line of its output (or a load's "compiling file 3 of 12: NAME" while it is fresh), and
// Interrupt. An agent's call may have answered "running" long ago
// (wait_seconds): the work goes on here, in the shared session, where the person sees it. A job
// parked in the debugger leaves the bar (the Debugger panel shows it) and comes back when it
// resumes. Work that goes on in the background (libraries compiled natively, issue 39) is a
// line of its own under a job's, and the whole bar while no job shows (without Interrupt: it
// keeps nobody waiting).
class RunningJobBar : public QFrame
{
    Q_OBJECT
public:
    // How long a job runs before the bar shows it: quick evaluations do not flash it.
    static constexpr int ShowAfterMs = 1000;

    explicit RunningJobBar(Session *session, QWidget *parent = nullptr);

    // The colour of the job's lane in the transcript, for the bar's edge.
    void setAccent(const QColor &colour);

    QString headline() const;
    QString elapsedText() const;
    QString outputLine() const;
    // The background work's line as shown now (under a job's, or alone); empty when none.
    QString backgroundLine() const;
    // Background work, told while it goes on: `title` what it is, `line` how far (an empty
    // title: none now); `since` is the clock's start while no job shows.
    void setBackgroundWork(const QString &title, const QString &line, const QDateTime &since);
    // No job shows, the background work does.
    bool showsBackgroundOnly() const { return isVisible() && !m_jobShown && !m_backgroundTitle.isEmpty(); }
    QPushButton *interruptButton() const { return m_interrupt; }
    quint64 jobId() const { return m_job ? m_job->id : 0; }

    // "0:07", "2:30", "1:02:03".
    static QString clock(qint64 ms);

    // Colours for the application's theme now (its console calls it when the theme changes:
    // a style sheet keeps the bar's own palette from hearing of it).
    void followTheme();

Q_SIGNALS:
    void interruptRequested();

private:
    bool isDark() const;
    void onStarted(const JobPtr &job);
    void onOutput(quint64 id, const QString &stream, const QString &text);
    void onProgress(quint64 id, const QString &message);
    void showActivity();
    void onFinished(const JobPtr &job);
    void tick();
    QString whatRuns() const;
    // Shows the job (once it has run ShowAfterMs), else the background work, else nothing.
    void render();
    bool jobOwnsLabels() const;

    Session *m_session;
    JobPtr m_job;
    TextLines::ActivityLine m_newest;
    QLabel *m_title;
    QLabel *m_elapsed;
    QLabel *m_output;
    QLabel *m_background;
    QPushButton *m_interrupt;
    bool m_jobShown = false; // the job has run long enough to show
    QString m_backgroundTitle;
    QString m_backgroundLine;
    QDateTime m_backgroundSince;
    QTimer m_ticker;
    QColor m_accent;
    int m_colouredDark = -1; // the theme the colours were made for (-1: none yet)
};
