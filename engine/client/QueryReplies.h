#pragma once

#include "JobReplies.h"
#include "lispsource/LispPackages.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

// The engine's replies to the questions that run no user code (engine/README.md, "Protocol":
// the service thread's complete, arglist, definitions, packages, resolve-names, describe,
// apropos, inspect, documentation, and the supervisor's limits): a view per kind.
namespace EngineProtocol {

class CompletionReply : public Reply
{
public:
    using Reply::Reply;
    QJsonArray completions() const;
    int total() const;
};

class ArglistReply : public Reply
{
public:
    using Reply::Reply;
    QString name() const;
    QString kind() const;
    QString lambdaList() const;
};

// definitions, describe, apropos and inspect say whether they found what they were asked for.
class LookupReply : public Reply
{
public:
    using Reply::Reply;
    bool found() const;
    QString message() const; // why not
};

class DefinitionsReply : public LookupReply
{
public:
    using LookupReply::LookupReply;
    bool hasDefinitions() const;
    QJsonValue package() const;
    QJsonArray definitions() const;

    struct Entry
    {
        explicit Entry(const QJsonValue &v) : json(v.toObject()) {}
        QString name() const;    // printed relative to the session package ("SHAPES:AREA")
        QString package() const; // the symbol's home package
        QString symbol() const;  // the bare symbol name ("AREA")
        QString kind() const; // function, macro, generic-function, variable, constant, class, structure
        QJsonValue documentation() const; // or null
        QJsonValue lambdaList() const;
        QJsonValue value() const;
        // Where it was defined when it came from a file (loaded or compiled); null otherwise.
        QJsonValue file() const;
        int line() const; // 1-based; 0 when unknown
        // Functions, macros and generic functions: "native", "interpreted" or "compiling"
        // (empty for other kinds); since when native (Unix ms, 0 when not), why interpreted.
        QString execution() const;
        qint64 nativeSinceMs() const;
        QString nativeReason() const;
        QJsonObject json;
    };
};

class PackagesReply : public Reply
{
public:
    using Reply::Reply;
    QSet<QString> features() const;            // "ECL", "UNIX", ... (symbols only, no colon)
    QList<PackageDefinition> packages() const; // those of the names asked for that exist
    QStringList unknownCharacterNames() const; // those of the character names asked for ECL refuses
};

class ResolveNamesReply : public Reply
{
public:
    using Reply::Reply;
    struct Name
    {
        QString package; // the symbol's home package; the package asked in when not found
        QString name;
        bool found = false;
    };
    QList<Name> names() const;       // in the order asked
    QList<bool> conditions() const;  // in the order asked
};

class DescribeReply : public LookupReply
{
public:
    using LookupReply::LookupReply;
    QString name() const;
    QJsonValue package() const;
    QJsonArray kinds() const;
    QJsonValue lambdaList() const;
    QJsonValue functionDocumentation() const;
    QJsonValue variableDocumentation() const;
    QJsonValue typeDocumentation() const;
    QJsonValue value() const;
    QJsonValue valueResultId() const;
    QJsonArray locations() const;

    struct Location
    {
        explicit Location(const QJsonValue &v) : json(v.toObject()) {}
        QString kind() const;
        QString where() const; // session, file or unknown
        QString form() const;
        QString file() const;
        QJsonObject json;
    };
};

class AproposReply : public LookupReply
{
public:
    using LookupReply::LookupReply;
    int total() const;
    QJsonArray matches() const;

    struct Match
    {
        explicit Match(const QJsonValue &v) : json(v.toObject()) {}
        QString name() const;
        QJsonValue package() const;
        QStringList kinds() const;
        QJsonObject json;
    };
};

class InspectReply : public LookupReply
{
public:
    using LookupReply::LookupReply;
    QJsonValue resultId() const;
    QJsonValue kind() const;
    QJsonValue type() const;
    QJsonValue summary() const;
    int offset() const;
    int total() const;
    QJsonArray elements() const;
    // The fields of this kind of object (length, class, lambda_list...), beyond those above.
    QJsonObject attributes() const;

    struct Element
    {
        explicit Element(const QJsonValue &v) : json(v.toObject()) {}
        QString key() const;
        QString value() const;
        QString resultId() const; // empty for primitive values
        bool isCycle() const;
        QJsonObject json;
    };
};

// documentation: found, message?, name, package (null for a package's name), standard (a CL
// symbol), kinds[], lambda_list, documentation {function?, variable?, type?, structure?, setf?,
// compiler-macro?, method-combination?, package?}: only the types that have a docstring.
class DocumentationReply : public LookupReply
{
public:
    using LookupReply::LookupReply;
    QString name() const;
    QJsonValue package() const;
    bool isStandard() const;
    QStringList kinds() const;
    QJsonValue lambdaList() const;
    QJsonObject documentation() const;
};

class LimitsReply : public Reply
{
public:
    using Reply::Reply;
    int printLength() const;
    int printLevel() const;
    int maxOutputChars() const;
    double heapLimitBytes() const;
};

} // namespace EngineProtocol
