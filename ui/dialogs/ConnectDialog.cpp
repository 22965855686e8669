#include "ConnectDialog.h"

#include "editor/EditorBridge.h"
#include "server/ClientPresence.h"
#include "server/McpPeer.h"
#include "server/McpServer.h"

#include <QClipboard>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

ConnectDialog::ConnectDialog(McpServer *server, const QList<Client> &clients, QWidget *parent)
    : QDialog(parent), m_server(server), m_connected(new QLabel(this)), m_tabs(new QTabWidget(this))
{
    setWindowTitle(tr("Connect an agent"));
    setObjectName(QStringLiteral("connectDialog"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Agents reach this session over MCP. Pick your client, copy its configuration and paste it "
                                "where it says. The same text is printed by <tt>lisp-duet --client-config NAME</tt>."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_connected->setObjectName(QStringLiteral("connectedLabel"));
    m_connected->setWordWrap(true);
    layout->addWidget(m_connected);

    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (const Client &client : clients) {
        auto *page = new QWidget(m_tabs);
        page->setObjectName(client.id);
        auto *pageLayout = new QVBoxLayout(page);
        auto *where = new QLabel(client.where, page);
        where->setWordWrap(true);
        pageLayout->addWidget(where);
        auto *box = new QPlainTextEdit(client.text, page);
        box->setObjectName(QStringLiteral("text"));
        box->setReadOnly(true);
        box->setFont(fixed);
        // Long commands (the bridge's path) wrap rather than hide behind a scroll bar; the
        // copied text has no line breaks of its own.
        box->setLineWrapMode(QPlainTextEdit::WidgetWidth);
        box->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        pageLayout->addWidget(box);
        auto *copy = new QPushButton(tr("&Copy"), page);
        copy->setObjectName(QStringLiteral("copy"));
        const QString text = client.text;
        connect(copy, &QPushButton::clicked, this, [copy, text] {
            QGuiApplication::clipboard()->setText(text);
            copy->setText(tr("Copied"));
            QTimer::singleShot(1500, copy, [copy] { copy->setText(tr("&Copy")); });
        });
        pageLayout->addWidget(copy, 0, Qt::AlignRight);
        m_tabs->addTab(page, client.title);
    }
    layout->addWidget(m_tabs, 1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    if (m_server) {
        connect(m_server->presence(), &ClientPresence::changed, this, &ConnectDialog::updateConnected);
    }
    updateConnected();
    resize(720, 420);
}

void ConnectDialog::showEditors(EditorBridge *editors)
{
    m_editors = editors;
    connect(editors, &EditorBridge::editorsChanged, this, &ConnectDialog::updateConnected);
    updateConnected();
}

QString ConnectDialog::connectedText() const
{
    return m_connected->text();
}

QPlainTextEdit *ConnectDialog::textBox(const QString &id) const
{
    QWidget *page = m_tabs->findChild<QWidget *>(id);
    return page ? page->findChild<QPlainTextEdit *>(QStringLiteral("text")) : nullptr;
}

QPushButton *ConnectDialog::copyButton(const QString &id) const
{
    QWidget *page = m_tabs->findChild<QWidget *>(id);
    return page ? page->findChild<QPushButton *>(QStringLiteral("copy")) : nullptr;
}

void ConnectDialog::updateConnected()
{
    QStringList names;
    QStringList left;
    if (m_server) {
        for (McpPeer *peer : m_server->presence()->here())
            names << tr("%1 (%2)").arg(peer->clientName(), peer->transport());
        for (const ClientPresence::Departed &gone : m_server->presence()->departed(3))
            left << tr("%1 (%2) at %3").arg(gone.name, gone.transport, gone.leftAt.toString(QStringLiteral("HH:mm:ss")));
    }
    if (m_editors) {
        for (const EditorBridge::Editor &editor : m_editors->editors())
            names << tr("%1 (your editor, %2)").arg(editor.program().isEmpty() ? tr("an editor") : editor.program(), editor.peer);
    }
    QString text = names.isEmpty() ? tr("No agent is connected now.") : tr("Connected now: %1.").arg(names.join(QStringLiteral(", ")));
    if (!left.isEmpty())
        text += QLatin1Char(' ') + tr("Left: %1.").arg(left.join(QStringLiteral(", ")));
    m_connected->setText(text);
}
