#pragma once

#include <QHash>
#include <QObject>
#include <QTimer>

class Session;

// SLIME's arglist hint, without a widget: given the input and the cursor, finds the operator of
// the call around it (LispSource::enclosingOperator), asks the engine for its lambda list after
// a short pause in typing, caches the answer until the next evaluation (which may redefine it),
// and reports a line like "(mapcar FUNCTION LIST &REST MORE-LISTS)".
class ArglistHint : public QObject
{
    Q_OBJECT
public:
    explicit ArglistHint(Session *session, QObject *parent = nullptr);

    void setDelayMs(int ms) { m_timer.setInterval(ms); }
    void update(const QString &text, int cursor);
    void clearCache() { m_cache.clear(); }
    QString current() const { return m_current; }
    int queriesSent() const { return m_queries; }

    // "(name lambda-list)" from an arglist reply, or empty when the name has no function.
    static QString format(const QJsonObject &reply);

Q_SIGNALS:
    void hintChanged(const QString &hint);

private:
    void lookUp();
    void show(const QString &hint);

    Session *m_session;
    QTimer m_timer;
    QString m_text;
    int m_cursor = 0;
    QString m_pending;                 // the operator being asked about
    QHash<QString, QString> m_cache;   // operator as written -> hint ("" for none)
    QString m_current;
    int m_queries = 0;
};
