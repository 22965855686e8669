#pragma once

#include "history/DefinitionLedger.h"
#include "history/DefinitionVersion.h"
#include "native/NativeCompilation.h"

#include <QAbstractItemModel>
#include <QDateTime>
#include <QHash>
#include <QPointer>
#include <QTimer>

class Session;

// The session's definitions grouped by package: functions with lambda lists, macros, generic
// functions and their methods, variables with a short printed value, classes and structures,
// each with who defined it, when, and the form that did. Widget-free.
//
// Two sources meet here. The engine knows what exists (the "definitions" operation, read
// through EngineProtocol::DefinitionsReply), in every package the session or the project
// made. The ledger (DefinitionLedger) knows who defined each name and how, its versions, and
// the methods of a generic function one by one. Without an engine answer the panel lists the
// ledger's live definitions. How each runs (Runs) is NativeCompilation's answer alone
// (NativeCompilation::runs, given what the engine's list said); its news changes the rows'
// Runs in place, without asking the engine again.
class DefinitionsModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    // Runs: how a function, macro, method or generic function runs now (issue 30): native,
    // interpreted, or compiling (to native code, in the background).
    enum Column { NameColumn, KindColumn, ByColumn, WhenColumn, RunsColumn, ColumnCount };

    struct Definition
    {
        QString package;
        QString name;       // the symbol's name; a method's is its generic function's
        QString kind;       // function, macro, generic-function, method, variable, constant, class,
                            // structure, condition, type
        QString lambdaList;
        QString value;      // variables: the value printed briefly (engine)
        QString documentation;
        QString definedBy;  // who made the newest version: "You", a client's name; empty when unknown
                            // or when it was loaded from a file (then file and line say where)
        bool byAgent = false;
        QDateTime definedAt;
        QString form;       // the newest version's text
        QString file;       // where it was loaded from, when a file
        int line = 0;       // 1-based; 0 when unknown
        DefinitionKey key;  // its history in the ledger; invalid when the ledger has none
        int versions = 0;   // how many versions the ledger keeps
        // How it runs now: "native", "interpreted", "compiling", or empty (not a function, or
        // not known); the sentence says since when or why ("Runs interpreted: REASON").
        QString execution;
        QString executionSentence;
        bool nativeFailed = false; // interpreted because its native version failed
        NativeCompilation::Listed listed; // what the engine's list said of how it runs
    };

    explicit DefinitionsModel(QObject *parent = nullptr);

    // Asks the engine again after every burst of finished jobs, and clears on a reset or restart.
    void attach(Session *session);
    // How functions, macros and methods run (issue 30): the Runs column; its news updates the
    // rows in place. Without it Runs is empty.
    void setNativeCompilation(NativeCompilation *native);
    // Who defined what, and the histories; without it the rows have no provenance.
    void setLedger(DefinitionLedger *ledger);
    DefinitionLedger *ledger() const { return m_ledger; }
    // Replaces what the engine reported (the reply of the "definitions" operation).
    void setEngineReply(const QJsonObject &reply);
    void clear();
    bool engineHasDefinitions() const { return m_engineKnown; }

    const Definition *definition(const QModelIndex &index) const;
    // The row of a name (the first one: a generic function before its methods).
    QModelIndex find(const QString &package, const QString &name) const;
    // The row of one definition the ledger knows.
    QModelIndex find(const DefinitionKey &key) const;
    int definitionCount() const;
    QStringList packages() const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "greet (name)", "*unit* = \"cm\"", "area (square)" for a method.
    static QString displayText(const Definition &definition);
    // "src/shapes.lisp:12": the definition's file (relative to the project root when inside
    // it) and line; empty when it did not come from a file.
    QString location(const Definition &definition) const;
    void setProjectRoot(const QString &root);
    QString projectRoot() const { return m_projectRoot; }

private:
    struct Package
    {
        QString name;
        QList<Definition> definitions;
    };
    void rebuild();
    void requestRefresh();
    void provenance(Definition &definition) const;
    // Runs, as NativeCompilation::runs says; true when that changed it.
    bool execution(Definition &definition) const;
    // Native news: every row's Runs again, and dataChanged for those that changed.
    void updateExecutions();

    Session *m_session = nullptr;
    QPointer<NativeCompilation> m_native;
    QPointer<DefinitionLedger> m_ledger;
    QList<Definition> m_engine;
    bool m_engineKnown = false;
    QList<Package> m_packages; // sorted by name; what the view shows
    QTimer m_refresh;
    QString m_projectRoot;
};
