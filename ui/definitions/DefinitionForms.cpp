#include "DefinitionForms.h"

#include "LispSource.h"

#include <QHash>

namespace {
bool isDelimiter(QChar c)
{
    return c.isSpace() || c == u'(' || c == u')' || c == u'\'' || c == u'"' || c == u';';
}

void skipSpace(const QString &text, int &pos)
{
    while (pos < text.size()) {
        if (text.at(pos).isSpace()) {
            ++pos;
        } else if (text.at(pos) == u';') {
            while (pos < text.size() && text.at(pos) != u'\n')
                ++pos;
        } else {
            break;
        }
    }
}

// A symbol token or a whole list (for "(setf foo)" names and "(name options)" of defstruct).
QString readDatum(const QString &text, int &pos)
{
    skipSpace(text, pos);
    if (pos >= text.size())
        return {};
    if (text.at(pos) == u'(') {
        const int end = LispSource::matchingParen(text, pos);
        if (end < 0)
            return {};
        const QString datum = text.mid(pos, end - pos + 1);
        pos = end + 1;
        return datum;
    }
    const int start = pos;
    if (text.at(pos) == u'"') {
        ++pos;
        while (pos < text.size() && text.at(pos) != u'"')
            pos += text.at(pos) == u'\\' ? 2 : 1;
        pos = qMin(pos + 1, int(text.size()));
        return text.mid(start, pos - start);
    }
    while (pos < text.size() && !isDelimiter(text.at(pos))) {
        if (text.at(pos) == u'|') { // |escaped symbol|
            ++pos;
            while (pos < text.size() && text.at(pos) != u'|')
                ++pos;
        }
        ++pos;
    }
    return text.mid(start, pos - start);
}

QString stripDesignator(QString name)
{
    if (name.startsWith(QStringLiteral("#:")))
        name.remove(0, 2);
    else if (name.startsWith(u':'))
        name.remove(0, 1);
    if (name.size() >= 2 && name.startsWith(u'"') && name.endsWith(u'"'))
        return name.mid(1, name.size() - 2); // strings name packages exactly
    if (name.size() >= 2 && name.startsWith(u'|') && name.endsWith(u'|'))
        return name.mid(1, name.size() - 2);
    return name.toUpper();
}

const QHash<QString, QString> &kinds()
{
    static const QHash<QString, QString> table{
        {QStringLiteral("DEFUN"), QStringLiteral("function")},
        {QStringLiteral("DEFMACRO"), QStringLiteral("macro")},
        {QStringLiteral("DEFGENERIC"), QStringLiteral("generic-function")},
        {QStringLiteral("DEFMETHOD"), QStringLiteral("method")},
        {QStringLiteral("DEFVAR"), QStringLiteral("variable")},
        {QStringLiteral("DEFPARAMETER"), QStringLiteral("variable")},
        {QStringLiteral("DEFCONSTANT"), QStringLiteral("constant")},
        {QStringLiteral("DEFCLASS"), QStringLiteral("class")},
        {QStringLiteral("DEFSTRUCT"), QStringLiteral("structure")},
        {QStringLiteral("IN-PACKAGE"), QStringLiteral("package")},
    };
    return table;
}
} // namespace

QString DefinitionForms::canonicalPackage(const QString &designator)
{
    const QString name = stripDesignator(designator);
    if (name == QStringLiteral("CL-USER"))
        return QStringLiteral("COMMON-LISP-USER");
    if (name == QStringLiteral("CL"))
        return QStringLiteral("COMMON-LISP");
    return name;
}

DefinedName DefinitionForms::read(const QString &form)
{
    DefinedName result;
    int pos = 0;
    skipSpace(form, pos);
    if (pos >= form.size() || form.at(pos) != u'(')
        return result;
    ++pos;
    QString op = readDatum(form, pos).toUpper();
    const int colon = op.lastIndexOf(u':');
    if (colon >= 0)
        op = op.mid(colon + 1); // cl:defun
    const QString kind = kinds().value(op);
    if (kind.isEmpty())
        return result;
    QString name = readDatum(form, pos);
    if (name.isEmpty())
        return result;
    if (kind == QStringLiteral("package")) {
        result.kind = kind;
        result.name = canonicalPackage(name);
        return result;
    }
    if (kind == QStringLiteral("structure") && name.startsWith(u'(')) {
        int inner = 1;
        name = readDatum(name, inner); // (defstruct (point (:type list)) ...)
    }
    if (name.startsWith(u'(')) {
        result.name = name.simplified().toUpper(); // (setf foo)
    } else {
        const int sep = name.indexOf(u':');
        if (sep > 0) {
            result.package = canonicalPackage(name.left(sep));
            result.name = stripDesignator(name.mid(name.lastIndexOf(u':') + 1));
        } else {
            result.name = stripDesignator(name);
        }
    }
    result.kind = kind;
    if (kind == QStringLiteral("function") || kind == QStringLiteral("macro") || kind == QStringLiteral("generic-function")
        || kind == QStringLiteral("method")) {
        // defmethod may put qualifiers (:around) before its lambda list.
        for (int guard = 0; guard < 4; ++guard) {
            skipSpace(form, pos);
            if (pos < form.size() && form.at(pos) == u'(') {
                result.lambdaList = readDatum(form, pos).simplified();
                break;
            }
            if (readDatum(form, pos).isEmpty())
                break;
        }
    } else if (kind == QStringLiteral("variable") || kind == QStringLiteral("constant")) {
        skipSpace(form, pos);
        if (pos < form.size() && form.at(pos) != u')')
            result.initForm = readDatum(form, pos).simplified();
    }
    return result;
}
