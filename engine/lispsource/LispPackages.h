#pragma once

#include "LispReader.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

// Packages as a project's text declares them, so that a name means what it means to Lisp:
// `split-sequence:split-sequence` is the symbol a file reads as plain `split-sequence` when its
// package uses SPLIT-SEQUENCE, `cl:print-object` the one every package that uses CL reads as
// `print-object`. Built from the files' defpackage (and uiop:define-package) forms, COMMON-LISP's
// 978 external symbols (the standard fixes them), and what the running session says of the
// packages the files do not define. No Lisp image is consulted here.

// One package: its names and how it gets its symbols. Names are as the reader interns them.
struct PackageDefinition
{
    QString name;                    // canonical: "COMMON-LISP", not "CL"
    QStringList nicknames;
    QStringList uses;                // :use (and define-package's :mix, :reexport)
    QStringList reexports;           // define-package's :reexport: their exports are ours too
    QHash<QString, QString> imports; // symbol name -> the package it comes from (:import-from,
                                     // :shadowing-import-from; for a session package, the home
                                     // of each external symbol that is not its own)
    QSet<QString> shadows;           // :shadow: interned here, hiding the used packages' symbols
    QSet<QString> exports;           // external symbol names
    bool isValid() const { return !name.isEmpty(); }

    // A symbol a defpackage form names in one of its options, and in which package it names it:
    // (:export #:foo) names FOO in the package being defined, (:import-from :q #:bar) BAR in Q.
    struct NamedSymbol
    {
        SyntaxNode node;  // the Symbol or String node
        QString option;   // "export", "shadow", "intern", "import-from", "shadowing-import-from"
        QString name;     // as the reader interns it
        QString package;  // where the option names it (canonical only as far as the text tells)
    };
    // (defpackage ...), (uiop:define-package ...), with or without #+/#- in front; invalid for
    // anything else. With `features` (the running Lisp's *features*, upper case, no colon),
    // options and names behind a #+/#- that does not hold are left out; without, every branch
    // counts.
    static PackageDefinition read(const SyntaxNode &form, const QSet<QString> *features = nullptr);
    static QList<NamedSymbol> namedSymbols(const SyntaxNode &form, const QSet<QString> *features = nullptr);
    // Whether a feature expression (#+ ecl, #-(or sbcl (not unix))) holds for these features.
    static bool featureHolds(const SyntaxNode &feature, const QSet<QString> &features);
};

// Where a symbol lives, as far as the text can tell.
struct SymbolHome
{
    QString package;           // its home package; empty for an uninterned symbol (#:x)
    QStringList alternatives;  // packages it may come from instead: used packages nobody declared
    // True when `home` is its package or may be (one of the alternatives).
    bool mayBe(const QString &home) const { return !home.isEmpty() && (package == home || alternatives.contains(home)); }
};

class LispPackages
{
public:
    // Knows COMMON-LISP, COMMON-LISP-USER (which uses it) and KEYWORD.
    LispPackages();

    // Adds (or replaces) a package; its nicknames name it from now on.
    void add(const PackageDefinition &definition);
    // Adds the defpackage forms of a text (top-level, and inside top-level progn/eval-when).
    void addFrom(const SyntaxTree &tree);
    // The features the texts are read with (see PackageDefinition::read); none by default.
    void setFeatures(const QSet<QString> &features) { m_features = features; m_knowsFeatures = true; }
    bool knows(const QString &package) const { return m_packages.contains(canonical(package)); }
    // The package's name as the reader interns it, nicknames resolved: "CL" -> "COMMON-LISP".
    QString canonical(const QString &name) const;
    // The home of the symbol named `name` when it is read in `package` (or written as
    // package::name): follows :shadow, imports and the exports of used packages.
    SymbolHome home(const QString &package, const QString &name) const;
    // The home of a symbol as written (keyword, uninterned, package prefix or none) where
    // `packageInForce` is current.
    SymbolHome home(const SymbolName &symbol, const QString &packageInForce) const;
    // Packages the known ones use or import from that nobody declared: what to ask the session.
    QStringList unknownPackages() const;

    static const QSet<QString> &commonLispSymbols();

private:
    bool exports(const QString &package, const QString &name) const;

    QHash<QString, PackageDefinition> m_packages; // by canonical name
    QHash<QString, QString> m_nicknames;          // nickname -> canonical name
    QSet<QString> m_features;
    bool m_knowsFeatures = false;
};
