#pragma once

#include "session/Origin.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

// Which definition: one name in one of Lisp's namespaces, or one method of a generic function.
// A defmacro replaces a defun of the same name, so both are the "function" space; a method is
// its own definition, told apart by its qualifiers and specializers. Names are as the image
// has them: the symbol's home package and name ("SHAPES", "AREA"; "(SETF FOO)" for setf
// functions), qualifiers ":AROUND", specializers "SQUARE", "(EQL :RED)", trailing Ts dropped.
struct DefinitionKey
{
    QString space; // "function", "method", "variable", "type"
    QString package;
    QString name;
    QStringList qualifiers;
    QStringList specializers;

    bool isValid() const { return !space.isEmpty() && !name.isEmpty(); }
    // One string per key, for hashing and comparing.
    QString id() const;
    // As people and agents read it: "SHAPES::AREA :AROUND (SQUARE)".
    QString text() const;
    bool operator==(const DefinitionKey &other) const { return id() == other.id(); }

    // The space a kind of definition lives in ("macro" -> "function", "constant" -> "variable").
    static QString spaceOf(const QString &kind);
    // Specializers and qualifiers as keys compare them: upper case, single spaces, no trailing T.
    static QStringList normalizedSpecializers(const QStringList &specializers);
    static QStringList normalizedQualifiers(const QStringList &qualifiers);
};

// One version of a definition, as the ledger (DefinitionLedger) records it: what defined it,
// who and how, when, and its text.
struct DefinitionVersion
{
    // How the definition came to be: from the purpose of the job that made it (JobPurpose),
    // or a file it loaded.
    enum class Via {
        Evaluation, // the REPL, evaluate-lisp, the editor...
        File,       // a file was loaded
        EditForm,   // the evaluation of a form written into a file
        StageForm,  // the person ran an agent's staged form
        Revert,     // a revert put an earlier version back
        Replay      // replay-session after a restart
    };
    static constexpr Via Vias[] = {Via::Evaluation, Via::File, Via::EditForm, Via::StageForm, Via::Revert, Via::Replay};
    // The word the journal and definition-history write for it: "evaluation", "file", and the
    // name of the way it came ("edit-form", "stage-form", "revert", "replay"); viaNamed reads
    // it back (an unknown word: an evaluation).
    static QString viaName(Via via);
    static Via viaNamed(const QString &name);

    DefinitionKey key;
    int number = 0;         // 1-based in its key's history
    QString kind;           // function, macro, generic-function, method, variable, constant, class,
                            // structure, condition, type
    QString operatorName;   // "defmethod"
    QString source;         // the defining form's text (capped at SourceCap characters)
    QString readPackage;    // the package in force where it was read: a revert evaluates it there
    Origin by;              // who: the person, an agent, Lisp Duet (replay); empty name when the
                            // ledger only knows the file it came from
    Via via = Via::Evaluation;
    QString detail;         // the job's description ("staged by claude-code: ...")
    QString file;           // Via::File: the file and the form's first line
    int line = 0;
    QDateTime at;           // invalid when it was loaded before the ledger saw it
    quint64 job = 0;        // the session's job that made it; 0 when none is known
    int restores = 0;       // a revert: the number of the version it put back

    static constexpr int SourceCap = 64 * 1024;

    // "You", "claude-code (edit-form)", "loaded from src/shapes.lisp:36 by claude-code".
    QString byText(const QString &projectRoot = QString()) const;
    // A file relative to the project root when inside it, with ":line".
    static QString place(const QString &file, int line, const QString &projectRoot);
};
