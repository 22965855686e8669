#include "DefiningOperators.h"

#include "LispScanner.h"

#include <QHash>

namespace {
using Op = DefiningOperator;

QList<DefiningOperator> makeTable()
{
    // name, kind, how the name is written, what follows it, where a docstring stands,
    // arguments indented like a defun's (Emacs' common-lisp-indent-function).
    return {
        {QStringLiteral("defun"), QStringLiteral("function"), Op::Name::FunctionName, Op::Then::LambdaList, Op::Doc::Body, 2},
        {QStringLiteral("defmacro"), QStringLiteral("macro"), Op::Name::Symbol, Op::Then::LambdaList, Op::Doc::Body, 2},
        {QStringLiteral("defgeneric"), QStringLiteral("generic-function"), Op::Name::FunctionName, Op::Then::LambdaList, Op::Doc::Option, 2},
        {QStringLiteral("defmethod"), QStringLiteral("method"), Op::Name::FunctionName, Op::Then::QualifiersThenLambdaList, Op::Doc::Body, 2},
        {QStringLiteral("defvar"), QStringLiteral("variable"), Op::Name::Symbol, Op::Then::InitForm, Op::Doc::AfterValue, 1},
        {QStringLiteral("defparameter"), QStringLiteral("variable"), Op::Name::Symbol, Op::Then::InitForm, Op::Doc::AfterValue, 1},
        {QStringLiteral("defconstant"), QStringLiteral("constant"), Op::Name::Symbol, Op::Then::InitForm, Op::Doc::AfterValue, 1},
        {QStringLiteral("defclass"), QStringLiteral("class"), Op::Name::Symbol, Op::Then::Nothing, Op::Doc::Option, 2},
        {QStringLiteral("defstruct"), QStringLiteral("structure"), Op::Name::SymbolOrList, Op::Then::Nothing, Op::Doc::AfterName, 1},
        {QStringLiteral("define-condition"), QStringLiteral("condition"), Op::Name::Symbol, Op::Then::Nothing, Op::Doc::Option, 2},
        {QStringLiteral("deftype"), QStringLiteral("type"), Op::Name::Symbol, Op::Then::LambdaList, Op::Doc::Body, 2},
        {QStringLiteral("defpackage"), QStringLiteral("package-definition"), Op::Name::Package, Op::Then::Nothing, Op::Doc::Option, 1},
        {QStringLiteral("define-compiler-macro"), QStringLiteral("compiler-macro"), Op::Name::FunctionName, Op::Then::LambdaList, Op::Doc::Body, 2},
        {QStringLiteral("define-symbol-macro"), QStringLiteral("symbol-macro"), Op::Name::Symbol, Op::Then::InitForm, Op::Doc::None, 1},
        {QStringLiteral("define-method-combination"), QStringLiteral("method-combination"), Op::Name::Symbol, Op::Then::Nothing, Op::Doc::None, 1},
        {QStringLiteral("define-modify-macro"), QStringLiteral("modify-macro"), Op::Name::Symbol, Op::Then::LambdaList, Op::Doc::None, 1},
        {QStringLiteral("define-setf-expander"), QStringLiteral("setf-expander"), Op::Name::Symbol, Op::Then::LambdaList, Op::Doc::Body, 1},
        {QStringLiteral("defsetf"), QStringLiteral("setf-expander"), Op::Name::Symbol, Op::Then::Nothing, Op::Doc::None, 1},
        {QStringLiteral("in-package"), QStringLiteral("package"), Op::Name::Package, Op::Then::Nothing, Op::Doc::None, -1},
    };
}

const QHash<QString, DefiningOperator> &byName()
{
    static const QHash<QString, DefiningOperator> table = [] {
        QHash<QString, DefiningOperator> hash;
        for (const DefiningOperator &op : DefiningOperators::all())
            hash.insert(op.name, op);
        return hash;
    }();
    return table;
}
} // namespace

const QList<DefiningOperator> &DefiningOperators::all()
{
    static const QList<DefiningOperator> table = makeTable();
    return table;
}

DefiningOperator DefiningOperators::find(QStringView operatorName)
{
    const QString key = LispSyntax::operatorKey(operatorName);
    const auto found = byName().constFind(key);
    if (found != byName().constEnd())
        return found.value();
    if (key.startsWith(QLatin1String("define-")))
        return {key, QStringLiteral("definition"), Op::Name::FirstArgument, Op::Then::Nothing, Op::Doc::None, 1};
    return {};
}

bool DefiningOperators::isDefining(QStringView operatorName)
{
    return find(operatorName).definesName();
}
