#pragma once

#include "Origin.h"

#include <QDateTime>
#include <QString>

// Something done to a client's work that is no job of the session, told to that client in its
// next answer (Session::tell, the activity digest): the person undid its change to a file. A
// job others ran, or a debugger choice, reaches the digest as the job itself.
struct SessionNotice
{
    Origin by;         // who did it
    QString operation; // a word, the digest's "operation": "undo"
    QString subject;   // what it concerns: "NOTES.md"
    QString text;      // the sentence after who and when: "undid your change to NOTES.md (write-file); ..."
    QDateTime at;
};
