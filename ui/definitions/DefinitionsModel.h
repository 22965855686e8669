#pragma once

#include "Job.h"

#include <QAbstractItemModel>
#include <QDateTime>
#include <QHash>
#include <QTimer>

class Session;

// The session's definitions grouped by package: functions with lambda lists, macros, generic
// functions, variables with a short printed value, classes and structures, each with who
// defined it, when, and the form that did. Widget-free.
//
// Two sources meet here. The engine knows what exists (the "definitions" operation, when the
// engine has it). Only the host knows who and when: after every successful evaluation the
// model reads the code's top-level forms and remembers each defined name's origin, time and
// form. Without the engine operation the panel lists what the host saw defined.
class DefinitionsModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, KindColumn, ByColumn, WhenColumn, ColumnCount };

    struct Definition
    {
        QString package;
        QString name;
        QString kind;       // function, macro, generic-function, method, variable, constant, class, structure
        QString lambdaList;
        QString value;      // printed value (engine) or the init form as written (host)
        QString documentation;
        QString definedBy;  // "You", a client's name, or empty when unknown
        bool byAgent = false;
        QDateTime definedAt;
        QString form;
        QString file; // where the engine says it was defined, when it came from a file
        int line = 0; // 1-based; 0 when unknown
    };

    explicit DefinitionsModel(QObject *parent = nullptr);

    // Follows the session: records provenance and refreshes after every evaluation.
    void attach(Session *session);

    // Host-side provenance of one finished evaluation, read in startPackage.
    void record(const Job &job, const QString &startPackage);
    // Replaces what the engine reported (the reply of the "definitions" operation).
    void setEngineReply(const QJsonObject &reply);
    void clear();
    bool engineHasDefinitions() const { return m_engineKnown; }

    const Definition *definition(const QModelIndex &index) const;
    QModelIndex find(const QString &package, const QString &name) const;
    int definitionCount() const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString displayText(const Definition &definition);
    // "src/shapes.lisp:12": the definition's file (relative to the project root when inside
    // it) and line; empty when it did not come from a file.
    QString location(const Definition &definition) const;
    void setProjectRoot(const QString &root);

Q_SIGNALS:
    void refreshed();

private:
    struct Package
    {
        QString name;
        QList<Definition> definitions;
    };
    static QString provenanceKey(const QString &package, const QString &name, const QString &kind);
    void rebuild();
    void requestRefresh();

    Session *m_session = nullptr;
    QHash<QString, Definition> m_provenance; // by provenanceKey
    QList<Definition> m_engine;
    bool m_engineKnown = false;
    QList<Package> m_packages; // sorted by name; what the view shows
    QHash<quint64, QString> m_startPackage; // evaluation id -> package when it started
    QTimer m_refresh;
    QString m_projectRoot;
};
