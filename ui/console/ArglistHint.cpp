#include "ArglistHint.h"

#include "client/EngineProtocol.h"
#include "session/Session.h"
#include "lispsource/LispSource.h"

#include <QJsonObject>
#include <QPointer>

ArglistHint::ArglistHint(Session *session, QObject *parent) : QObject(parent), m_session(session)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(150);
    connect(&m_timer, &QTimer::timeout, this, &ArglistHint::lookUp);
    connect(session, &Session::finished, this, [this] { m_cache.clear(); });
}

QString ArglistHint::format(const QJsonObject &reply)
{
    const EngineProtocol::ArglistReply arglist(reply);
    const QString lambdaList = arglist.lambdaList();
    const QString name = arglist.name();
    if (!arglist.ok() || name.isEmpty() || lambdaList.isEmpty()) // no lambda list: null on the wire
        return {};
    const QString inner = lambdaList.size() >= 2 ? lambdaList.mid(1, lambdaList.size() - 2) : QString();
    const QString kind = arglist.kind();
    QString text = QStringLiteral("(%1%2%3)").arg(name.toLower(), inner.isEmpty() ? QString() : QStringLiteral(" "), inner);
    if (kind == QStringLiteral("macro") || kind == QStringLiteral("special-operator") || kind == QStringLiteral("generic-function"))
        text += QStringLiteral("  \u2014 ") + kind;
    return text;
}

void ArglistHint::update(const QString &text, int cursor)
{
    m_text = text;
    m_cursor = cursor;
    m_timer.start();
}

void ArglistHint::show(const QString &hint)
{
    if (hint == m_current)
        return;
    m_current = hint;
    Q_EMIT hintChanged(hint);
}

void ArglistHint::lookUp()
{
    const OperatorContext context = LispSource::enclosingOperator(m_text, m_cursor);
    if (!context.isValid()) {
        show(QString());
        return;
    }
    const QString name = context.operatorName;
    const auto cached = m_cache.constFind(name.toLower());
    if (cached != m_cache.constEnd()) {
        show(*cached);
        return;
    }
    if (m_pending == name)
        return;
    m_pending = name;
    ++m_queries;
    QPointer<ArglistHint> guard(this);
    m_session->query(EngineProtocol::arglist(name), [guard, name](const QJsonObject &reply) {
        if (!guard)
            return;
        guard->m_pending.clear();
        const QString hint = format(reply);
        guard->m_cache.insert(name.toLower(), hint);
        // Show it only if the cursor is still in a call of that operator.
        const OperatorContext now = LispSource::enclosingOperator(guard->m_text, guard->m_cursor);
        if (now.operatorName.compare(name, Qt::CaseInsensitive) == 0)
            guard->show(hint);
    });
}
