#pragma once

#include "history/Journal.h"
#include "session/Job.h"
#include "tools/FormStager.h"
#include "TranscriptEntries.h"

#include <QWidget>

class AccessGate;
class ApprovalBar;
class ArglistHint;
class ConsoleWidget;
class QLabel;
class FormStager;
class JobEntries;
class ProjectActivity;
class RunningJobBar;
class Session;
class StagedForms;
class StagingBar;
class TranscriptView;

class ProjectFiles;

// The REPL: the transcript, the input and the bars around it (approval, staged form, running
// job, hint), bound to the Session. Every job, the person's or an agent's, is shown in the
// transcript as it starts, streams and finishes (JobEntries), so the transcript reads in the
// order things ran; agents' entries carry their client's name, their description and a
// coloured bar, and a "Copy to input" link.
class LispConsole : public QWidget
{
    Q_OBJECT
public:
    explicit LispConsole(Session *session, QWidget *parent = nullptr);

    // Shows the Ask-mode approval bar above the input.
    void setAccessGate(AccessGate *access);

    TranscriptView *transcript() const { return m_transcript; }
    ConsoleWidget *input() const { return m_input; }
    ApprovalBar *approvalBar() const { return m_approvalBar; }
    // Agents' staged forms (stage-form) in the input, and the bar above it that says whose.
    StagedForms *stagedForms() const { return m_staged; }
    StagingBar *stagingBar() const { return m_stagingBar; }
    // The evaluation running now (after a moment): who, what, how long, its newest output, Interrupt.
    RunningJobBar *runningJobBar() const { return m_runningBar; }
    QString promptText() const;
    QString hintText() const;

    // Font size as a factor of the base size (zoom, presentation mode).
    void setZoom(double factor);
    double zoom() const { return m_zoom; }
    void setBasePointSize(double points);
    // The code font (Settings); empty: DejaVu Sans Mono.
    void setFontFamily(const QString &family);
    QString fontFamily() const { return m_fontFamily; }

    // The previous session's journal (AppServices::pastEntries()), greyed under a
    // "— previous session, <date> —" separator, before anything of this session.
    void showPast(const QList<JournalEntry> &entries);

    // The transcript's lanes and entries (TranscriptEntries), as the console's parts write them.
    TranscriptEntries *entries() { return &m_entries; }
    int laneFor(const Origin &origin);
    void startEntry();
    void showNote(const QString &text, bool problem = false, int lane = 0);
    // Shows the project's file changes in the transcript, with Undo (ProjectActivity).
    void setProjectFiles(ProjectFiles *files);

public Q_SLOTS:
    void interrupt();
    void evaluate(const QString &code);
    void copyToInput(const QString &code);

Q_SIGNALS:
    void statusMessage(const QString &text);

private:
    void onStarted(const JobPtr &job);
    void onFinished();
    void showRejected(const StagedForm &form, const QString &reason);
    void onLink(const QString &href);
    void setHint(const QString &text);
    void applyFonts();
    void fitInput();

    Session *m_session;
    TranscriptView *m_transcript;
    ConsoleWidget *m_input;
    TranscriptEntries m_entries;
    QLabel *m_prompt;
    QLabel *m_hint;
    ApprovalBar *m_approvalBar = nullptr;
    StagedForms *m_staged;
    StagingBar *m_stagingBar;
    RunningJobBar *m_runningBar;
    JobEntries *m_jobs = nullptr;
    ProjectActivity *m_projectActivity = nullptr;
    ArglistHint *m_arglist;
    double m_zoom = 1.0;
    double m_basePointSize = 11.0;
    QString m_fontFamily;
    bool m_interrupting = false; // the hint says "Interrupting…" until the job stops or parks
};
