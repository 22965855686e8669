#include "EditorStatus.h"

#include "console/LispConsole.h"
#include "editor/EditorBridge.h"
#include "editor/SlimeSecret.h"

#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>

EditorStatus::EditorStatus(EditorBridge *editors, LispConsole *console, QStatusBar *statusBar, QWidget *window)
    : QObject(window), m_bridge(editors), m_console(console), m_window(window), m_label(new QLabel(window))
{
    m_label->setObjectName(QStringLiteral("editorLabel"));
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setContentsMargins(6, 0, 6, 0);
    statusBar->addPermanentWidget(m_label);
    connect(editors, &EditorBridge::stateChanged, this, &EditorStatus::onStateChanged);
    connect(editors, &EditorBridge::editorsChanged, this, &EditorStatus::onEditorsChanged);
    connect(editors, &EditorBridge::refused, this, [this](const QString &peer, const QString &reason) {
        m_console->showNote(tr("An editor at %1 was refused: %2").arg(peer, reason), true);
    });
    onStateChanged(); // the services may have found the secret missing before the window existed
}

QMessageBox *EditorStatus::secretOffer() const
{
    return m_offer;
}

void EditorStatus::onStateChanged()
{
    const EditorBridge *editors = m_bridge;
    QString text;
    QString tip;
    switch (editors->state()) {
    case EditorBridge::State::Off:
        break;
    case EditorBridge::State::Starting:
        text = tr("Editor: Swank starting");
        break;
    case EditorBridge::State::Listening:
        text = tr("Editor: Swank %1:%2").arg(editors->address()).arg(editors->port());
        tip = tr("Your editor joins this session through Swank (%1). In Emacs: %2").arg(EditorBridge::clientNames(), EditorBridge::connectLine(editors->port()));
        break;
    case EditorBridge::State::NoSecret:
        text = tr("Editor: no secret");
        tip = editors->message();
        // Deferred: the window shows first, and the question comes over it.
        if (!m_offered)
            QTimer::singleShot(0, this, &EditorStatus::offerSecret);
        break;
    case EditorBridge::State::Failed:
        text = tr("Editor: Swank failed");
        tip = editors->message();
        m_console->showNote(tr("Swank for your editor could not start: %1").arg(editors->message()), true);
        break;
    }
    m_label->setText(text);
    m_label->setToolTip(tip);
    m_label->setVisible(!text.isEmpty());
}

void EditorStatus::onEditorsChanged()
{
    QHash<qint64, QPair<QString, QString>> now;
    for (const EditorBridge::Editor &editor : m_bridge->editors()) {
        const QString program = editor.program().isEmpty() ? tr("Your editor") : editor.program();
        now.insert(editor.number, {program, editor.peer});
        if (!m_editors.contains(editor.number))
            m_console->showNote(tr("%1 connected (%2): what it evaluates runs in this session, shown here as \u201c%3\u201d.")
                                    .arg(program, editor.peer, editor.origin.name));
    }
    for (auto it = m_editors.cbegin(); it != m_editors.cend(); ++it) {
        if (!now.contains(it.key()))
            m_console->showNote(tr("%1 disconnected (%2).").arg(it->first, it->second));
    }
    m_editors = now;
}

void EditorStatus::offerSecret()
{
    const EditorBridge *editors = m_bridge;
    if (m_offered || editors->state() != EditorBridge::State::NoSecret)
        return;
    m_offered = true;
    const QString path = editors->secretFile();
    m_offer = new QMessageBox(QMessageBox::Question, tr("Let your editor join"),
                              tr("Swank, through which your editor joins this session, needs a secret that only you can read: "
                                 "%1. SLIME sends it by itself; a program that does not know it is refused.\n\n%2\n\n"
                                 "Make one now (32 random bytes, readable only by you)?")
                                  .arg(path, editors->message()),
                              QMessageBox::Yes | QMessageBox::No, m_window);
    m_offer->setObjectName(QStringLiteral("secretOffer"));
    m_offer->button(QMessageBox::Yes)->setText(tr("Make the secret"));
    m_offer->button(QMessageBox::No)->setText(tr("Not now"));
    m_offer->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_offer, &QMessageBox::finished, this, [this, path](int result) {
        if (result == QMessageBox::Yes) {
            makeSecret();
            return;
        }
        m_console->showNote(tr("Swank for your editor stays off: there is no secret. To make one yourself: %1").arg(SlimeSecret::shellCommand(path)));
    });
    m_offer->open();
}

bool EditorStatus::makeSecret()
{
    EditorBridge *editors = m_bridge;
    QString error;
    if (!SlimeSecret::create(editors->secretFile(), &error)) {
        m_console->showNote(error, true);
        return false;
    }
    m_console->showNote(tr("Made %1 (readable only by you); SLIME sends it by itself.").arg(editors->secretFile()));
    editors->listenNow();
    return true;
}
