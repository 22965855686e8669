#pragma once

#include "Origin.h"

#include <QDateTime>
#include <QList>
#include <QString>

// Something that is no job of the session, told in a client's next answer (the activity
// digest): done to that client's work (Session::tell: the person undid its change to a file),
// or to the whole session (Session::announce: a reset, the engine's restart after a crash),
// told to every client but the one who did it. A job others ran, or a debugger choice,
// reaches the digest as the job itself.
struct SessionNotice
{
    Origin by;         // who did it
    QString operation; // a word, the digest's "operation": "undo", "reset", "engine-restarted"
    QString subject;   // what it concerns: "NOTES.md"
    QString text;      // the sentence after who and when: "undid your change to NOTES.md (write-file); ..."
    QDateTime at;
    // The jobs it ended (a reset or a crash ends what runs and what is parked): their own
    // answers say so already, so an answer about one of them leaves the notice out.
    QList<quint64> endedJobs;
    quint64 sequence = 0; // an announcement's place among the transcript's jobs
};
