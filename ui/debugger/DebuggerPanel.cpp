#include "DebuggerPanel.h"

#include "DebuggerWords.h"

#include "client/EngineProtocol.h"
#include "session/Session.h"
#include "session/TextLines.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPointer>
#include <QPushButton>
#include <QShortcut>
#include <QTextDocumentFragment>
#include <QTreeWidget>

namespace {
constexpr int FrameRole = Qt::UserRole;      // the frame's index
constexpr int LoadedRole = Qt::UserRole + 1; // its variables were asked for

QFont monospace()
{
    QFont font(QStringLiteral("DejaVu Sans Mono"));
    font.setStyleHint(QFont::Monospace);
    return font;
}

// The arguments line holds Lisp values separated by ";" (a value of its own may hold no ";").
QStringList splitArguments(const QString &text)
{
    QStringList values;
    for (const QString &part : text.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        if (!part.trimmed().isEmpty())
            values << part.trimmed();
    }
    return values;
}

// Red that reads on the panel's background, light or dark.
QString errorColour(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128 ? QStringLiteral("#ff8a80") : QStringLiteral("#b3261e");
}

// A restart's button: its full text when it fits, else elided (the tooltip has it whole), so a
// long restart report never widens the panel and squeezes the transcript.
class RestartButton : public QPushButton
{
public:
    RestartButton(const QString &text, QWidget *parent) : QPushButton(parent), m_full(text)
    {
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        setMinimumWidth(60);
        setText(text);
    }
    QString fullText() const { return m_full; }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QPushButton::resizeEvent(event);
        setText(fontMetrics().elidedText(m_full, Qt::ElideRight, qMax(0, width() - 20)));
    }

private:
    QString m_full;
};

// "0   USE-VALUE — Use a value instead"; a restart without a report of its own (ECL then
// reports its name) is only its number and name.
QString restartLabel(const DebuggerRestart &restart)
{
    const QString report = restart.description.trimmed();
    if (report.isEmpty() || report.compare(restart.name, Qt::CaseInsensitive) == 0)
        return QStringLiteral("%1   %2").arg(restart.index).arg(restart.name);
    return QStringLiteral("%1   %2 \u2014 %3").arg(restart.index).arg(restart.name, report);
}

QString variableLine(const QJsonValue &value)
{
    const EngineProtocol::FrameReply::Variable variable(value);
    return QStringLiteral("%1 = %2").arg(variable.name(), TextLines::oneLine(variable.value(), 300));
}
} // namespace

DebuggerPanel::DebuggerPanel(Session *session, QWidget *parent)
    : QWidget(parent), m_session(session), m_levels(new QComboBox(this)), m_header(new QLabel(this)),
      m_condition(new QLabel(this)), m_restartBox(new QWidget(this)), m_arguments(new QLineEdit(this)),
      m_frames(new QTreeWidget(this)), m_frameLabel(new QLabel(this)), m_evalInput(new QLineEdit(this)),
      m_notice(new QLabel(this)), m_body(new QWidget(this)), m_empty(new QLabel(this))
{
    setObjectName(QStringLiteral("debuggerPanel"));
    setContextMenuPolicy(Qt::CustomContextMenu);
    connect(this, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        QMenu *menu = contextMenu();
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(mapToGlobal(at));
    });
    m_levels->setObjectName(QStringLiteral("debuggerLevels"));
    m_header->setObjectName(QStringLiteral("debuggerHeader"));
    m_condition->setObjectName(QStringLiteral("debuggerCondition"));
    m_arguments->setObjectName(QStringLiteral("debuggerArguments"));
    m_frames->setObjectName(QStringLiteral("debuggerFrames"));
    m_evalInput->setObjectName(QStringLiteral("debuggerEval"));
    m_notice->setObjectName(QStringLiteral("debuggerNotice"));
    m_empty->setObjectName(QStringLiteral("debuggerEmpty"));

    // Nothing in the panel asks for more width than a narrow dock has: long texts wrap or elide.
    m_levels->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_levels->setMinimumContentsLength(16);
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText);
    m_condition->setWordWrap(true);
    m_condition->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_condition->setFont(monospace());
    m_restartLayout = new QVBoxLayout(m_restartBox);
    m_restartLayout->setContentsMargins(0, 0, 0, 0);
    m_restartLayout->setSpacing(2);
    // Short enough for a narrow dock (the longer one was cut off); the tooltip gives examples.
    m_arguments->setPlaceholderText(tr("USE-VALUE's value, as Lisp: 42"));
    m_arguments->setToolTip(tr("The values a restart such as USE-VALUE or STORE-VALUE takes, as Lisp text: 42, \"text\" or (1 2); "
                               "several separated by ;"));
    m_arguments->setFont(monospace());
    m_frames->setHeaderHidden(true);
    m_frames->setFont(monospace());
    m_frames->setRootIsDecorated(true);
    m_frames->setUniformRowHeights(true);
    m_evalInput->setPlaceholderText(tr("Evaluate in the selected frame (Enter)"));
    m_evalInput->setFont(monospace());
    m_notice->setWordWrap(true);
    m_condition->setMinimumWidth(0);
    m_frames->setMinimumWidth(0);
    m_notice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    m_empty->setText(tr("Nothing is parked. When an evaluation with debugging on hits an error, it waits here "
                        "with its restarts and frames, yours and the agents' alike."));

    auto *restartsTitle = new QLabel(tr("<b>Restarts</b> (press the number)"), this);
    auto *framesTitle = new QLabel(tr("<b>Frames</b> (expand one for its variables)"), this);
    auto *evalRow = new QHBoxLayout;
    evalRow->setSpacing(6);
    evalRow->addWidget(m_frameLabel);
    evalRow->addWidget(m_evalInput, 1);

    auto *body = new QVBoxLayout(m_body);
    body->setContentsMargins(0, 0, 0, 0);
    body->setSpacing(6);
    body->addWidget(m_levels);
    body->addWidget(m_header);
    body->addWidget(m_condition);
    body->addWidget(restartsTitle);
    body->addWidget(m_restartBox);
    body->addWidget(m_arguments);
    body->addWidget(framesTitle);
    body->addWidget(m_frames, 1);
    body->addLayout(evalRow);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->setSpacing(6);
    layout->addWidget(m_empty);
    layout->addWidget(m_body, 1);
    layout->addWidget(m_notice);

    connect(session->debugger(), &SessionDebugger::parked, this, [this](const JobPtr &job) {
        m_picked = false; // the newest level is the one that waits for an answer
        m_shown = job->debugger;
        say(QString()); // what was said of an earlier debugger is not about this one
        refresh();
        Q_EMIT debuggerOpened(job->debugger);
    });
    connect(session->debugger(), &SessionDebugger::debuggerClosed, this, [this](const DebuggerPtr &debugger) { onClosed(debugger); });
    connect(session->debugger(), &SessionDebugger::restartDidNotLeave, this, [this](const DebuggerPtr &debugger, const QString &message) {
        say(tr("Debugger %1: %2 It still waits.").arg(debugger->id).arg(message), true);
    });
    connect(m_levels, &QComboBox::activated, this, [this](int row) {
        m_picked = true;
        showDebugger(m_levels->itemData(row).toInt());
    });
    connect(m_frames, &QTreeWidget::itemExpanded, this, [this](QTreeWidgetItem *item) {
        if (!item->parent())
            m_frames->setCurrentItem(item); // the frame looked into is the one evaluated in
        fillFrame(item);
    });
    connect(m_frames, &QTreeWidget::currentItemChanged, this, [this] {
        const int frame = selectedFrame();
        m_frameLabel->setText(frame < 0 ? tr("In the parked thread:") : tr("In frame %1:").arg(frame));
    });
    // Digits choose restarts, as in SLDB, wherever the focus is in the panel; a line being
    // typed in keeps its digits (a line edit overrides shortcuts of printable keys).
    for (int digit = 0; digit <= 9; ++digit) {
        auto *key = new QShortcut(QKeySequence(Qt::Key_0 + digit), this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
        connect(key, &QShortcut::activated, this, [this, digit] { chooseRestart(digit); });
    }
    connect(m_evalInput, &QLineEdit::returnPressed, this, [this] {
        if (evaluateInFrame(m_evalInput->text()))
            m_evalInput->clear();
    });
    refresh();
}

void DebuggerPanel::showDebugger(int debuggerId)
{
    const DebuggerPtr debugger = m_session->debugger()->debugger(debuggerId);
    if (!debugger || !debugger->isOpen())
        return;
    m_shown = debugger;
    refresh();
}

void DebuggerPanel::refresh()
{
    const QList<DebuggerPtr> open = m_session->debugger()->openDebuggers();
    if (m_shown && !m_shown->isOpen())
        m_shown.reset();
    if (!m_shown && !open.isEmpty())
        m_shown = open.last();
    m_empty->setVisible(!m_shown);
    m_body->setVisible(bool(m_shown));

    m_levels->clear();
    for (const DebuggerPtr &d : open)
        m_levels->addItem(tr("Level %1 \u00b7 debugger %2 \u00b7 %3 evaluation").arg(d->level).arg(d->id).arg(DebuggerWords::whose(d->owner)), d->id);
    m_levels->setVisible(open.size() > 1);
    if (!m_shown)
        return;
    m_levels->setCurrentIndex(m_levels->findData(m_shown->id));

    const Debugger &d = *m_shown;
    m_header->setText(tr("<b>%1 evaluation</b> %2 in debugger %3 (level %4) since %5<br><code>%6</code>")
                          .arg(DebuggerWords::whose(d.owner).toHtmlEscaped(),
                               d.isBreak ? tr("was interrupted and waits") : tr("is parked"))
                          .arg(d.id)
                          .arg(d.level)
                          .arg(d.parkedAt.toString(QStringLiteral("HH:mm:ss")),
                               TextLines::oneLine(d.code, 160).toHtmlEscaped()));
    m_condition->setText(QStringLiteral("%1: %2").arg(d.conditionType, d.message));
    m_condition->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;").arg(errorColour(palette())));
    rebuildRestarts();
    rebuildFrames();
}

void DebuggerPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // The restarts' buttons and the condition have style sheets, which keep the palette they
    // were made with: after the children heard of the new theme, they are made again.
    if (event->type() == QEvent::PaletteChange)
        QMetaObject::invokeMethod(this, &DebuggerPanel::followTheme, Qt::QueuedConnection);
}

void DebuggerPanel::followTheme()
{
    if (!m_shown)
        return;
    m_condition->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;").arg(errorColour(palette())));
    rebuildRestarts();
}

void DebuggerPanel::rebuildRestarts()
{
    while (QLayoutItem *item = m_restartLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (const DebuggerRestart &restart : m_shown->restarts) {
        auto *button = new RestartButton(restartLabel(restart), m_restartBox);
        button->setObjectName(QStringLiteral("restart%1").arg(restart.index));
        button->setStyleSheet(QStringLiteral("text-align: left; padding: 3px 8px;"));
        button->setToolTip(tr("%1\nChoose %2 (key %3)").arg(restartLabel(restart), restart.name).arg(restart.index));
        const int index = restart.index;
        connect(button, &QPushButton::clicked, this, [this, index] { chooseRestart(index); });
        m_restartLayout->addWidget(button);
    }
    // The values line is for restarts that take values: not shown for ABORT, RETRY and the like
    // alone, and it names the one there is.
    static const QStringList NoValues{QStringLiteral("ABORT"), QStringLiteral("RETRY"), QStringLiteral("CONTINUE"),
                                      QStringLiteral("MUFFLE-WARNING"), QStringLiteral("RESTART-TOPLEVEL")};
    QStringList takingValues;
    for (const DebuggerRestart &restart : m_shown->restarts) {
        if (!NoValues.contains(restart.name.section(QLatin1Char(':'), -1)))
            takingValues << restart.name;
    }
    m_arguments->setVisible(!takingValues.isEmpty());
    const QString named = takingValues.contains(QStringLiteral("USE-VALUE")) ? QStringLiteral("USE-VALUE")
                          : takingValues.contains(QStringLiteral("STORE-VALUE")) ? QStringLiteral("STORE-VALUE")
                          : takingValues.value(0);
    m_arguments->setPlaceholderText(tr("%1's value, as Lisp: 42").arg(named));
}

void DebuggerPanel::rebuildFrames()
{
    m_frames->clear();
    for (const DebuggerFrame &frame : m_shown->frames) {
        auto *item = new QTreeWidgetItem(m_frames, {QStringLiteral("%1  %2").arg(frame.index).arg(frame.text)});
        item->setData(0, FrameRole, frame.index);
        // Every frame can be expanded: the engine says what it knows (or why nothing).
        item->setChildIndicatorPolicy(QTreeWidgetItem::ShowIndicator);
    }
    if (m_shown->frames.isEmpty()) {
        auto *item = new QTreeWidgetItem(m_frames, {tr("(no frames: ECL keeps them only for interpreted code)")});
        item->setData(0, FrameRole, -1);
        item->setFlags(Qt::ItemIsEnabled);
    }
    m_frames->setCurrentItem(m_frames->topLevelItem(0));
    const int frame = selectedFrame();
    m_frameLabel->setText(frame < 0 ? tr("In the parked thread:") : tr("In frame %1:").arg(frame));
}

void DebuggerPanel::fillFrame(QTreeWidgetItem *item)
{
    if (!m_shown || item->parent() || item->data(0, LoadedRole).toBool())
        return;
    const int frame = item->data(0, FrameRole).toInt();
    if (frame < 0)
        return;
    item->setData(0, LoadedRole, true);
    auto *waiting = new QTreeWidgetItem(item, {tr("looking\u2026")});
    QPointer<DebuggerPanel> guard(this);
    const int debuggerId = m_shown->id;
    // The person looking is not news for the transcript; an agent's look is (record: true).
    m_session->debugger()->inspectFrame(debuggerId, frame, Origin::person(), false, [guard, item, waiting, debuggerId](const QJsonObject &json) {
        if (!guard || !guard->m_shown || guard->m_shown->id != debuggerId)
            return; // the panel moved on; the items are gone
        delete waiting;
        const EngineProtocol::FrameReply reply(json);
        if (!reply.ok()) {
            new QTreeWidgetItem(item, {reply.errorMessage()});
            return;
        }
        if (reply.function().isString()) {
            const QJsonObject source = reply.source().toObject();
            QString where = tr("source unknown");
            if (source.value(QStringLiteral("where")).toString() == QStringLiteral("session"))
                where = tr("defined in the session");
            else if (source.value(QStringLiteral("where")).toString() == QStringLiteral("file"))
                where = QStringLiteral("%1:%2").arg(source.value(QStringLiteral("file")).toString()).arg(source.value(QStringLiteral("line")).toInt());
            new QTreeWidgetItem(item, {tr("function %1, %2").arg(reply.function().toString(), where)});
        }
        if (!reply.localsAvailable()) {
            new QTreeWidgetItem(item, {reply.note().toString()});
            return;
        }
        for (const QJsonValue &v : reply.arguments())
            new QTreeWidgetItem(item, {variableLine(v)});
        for (const QJsonValue &v : reply.locals())
            new QTreeWidgetItem(item, {variableLine(v)});
        if (reply.arguments().isEmpty() && reply.locals().isEmpty())
            new QTreeWidgetItem(item, {tr("(no variables)")});
        else if (reply.note().isString()) { // the project's code compiled for debugging: copies
            auto *note = new QTreeWidgetItem(item, {tr("(copies: a SETQ here does not reach the code)")});
            note->setToolTip(0, reply.note().toString());
        }
    });
}

void DebuggerPanel::expandFrame(int index)
{
    if (QTreeWidgetItem *item = m_frames->topLevelItem(index))
        item->setExpanded(true);
}

QStringList DebuggerPanel::frameLines(int index) const
{
    QStringList lines;
    if (QTreeWidgetItem *item = m_frames->topLevelItem(index)) {
        for (int i = 0; i < item->childCount(); ++i)
            lines << item->child(i)->text(0);
    }
    return lines;
}

void DebuggerPanel::selectFrame(int index)
{
    m_frames->setCurrentItem(index >= 0 ? m_frames->topLevelItem(index) : nullptr);
}

int DebuggerPanel::selectedFrame() const
{
    QTreeWidgetItem *item = m_frames->currentItem();
    while (item && item->parent())
        item = item->parent();
    return item ? item->data(0, FrameRole).toInt() : -1;
}

void DebuggerPanel::setArguments(const QString &text)
{
    m_arguments->setText(text);
}

bool DebuggerPanel::chooseRestart(int index)
{
    if (!m_shown || index < 0 || index >= m_shown->restarts.size())
        return false;
    const DebuggerRestart &restart = m_shown->restarts.at(index);
    const QStringList values = splitArguments(m_arguments->text());
    if ((restart.name == QStringLiteral("USE-VALUE") || restart.name == QStringLiteral("STORE-VALUE")) && values.size() != 1) {
        say(tr("%1 needs one value: type it in the line below the restarts (as Lisp: 42, \"text\", (1 2)), then choose it again.")
                .arg(restart.name),
            true);
        m_arguments->setFocus();
        return false;
    }
    QString refusal;
    const quint64 invocation = m_session->debugger()->invokeRestart(m_shown->id, index, values, Origin::person(), &refusal);
    if (!invocation) {
        say(refusal, true);
        return false;
    }
    m_arguments->clear();
    QPointer<DebuggerPanel> guard(this);
    m_session->whenFinished(invocation, [guard](JobPtr done) {
        // A refusal the engine gave (the debugger stays open) or a choice that came too late.
        if (guard && !done->result.ok())
            guard->say(done->result.error.message, true);
    });
    return true;
}

bool DebuggerPanel::evaluateInFrame(const QString &code)
{
    if (!m_shown || code.trimmed().isEmpty())
        return false;
    QString refusal;
    const int frame = selectedFrame();
    const quint64 id = m_session->debugger()->evaluateInFrame(m_shown->id, frame, code, Origin::person(), {}, &refusal);
    if (!id) {
        say(refusal, true);
        return false;
    }
    QPointer<DebuggerPanel> guard(this);
    m_session->whenFinished(id, [guard, frame](JobPtr done) {
        if (!guard)
            return;
        const JobResult &r = done->result;
        const QString where = frame < 0 ? tr("In the parked thread") : tr("In frame %1").arg(frame);
        if (r.ok())
            guard->say(QStringLiteral("%1: => %2").arg(where, r.values.isEmpty() ? tr("no values") : TextLines::oneLine(r.values.join(QStringLiteral(", ")), 300)));
        else
            guard->say(QStringLiteral("%1: [%2] %3").arg(where, r.error.type, TextLines::oneLine(r.error.message, 300)), true);
    });
    return true;
}

void DebuggerPanel::onClosed(const DebuggerPtr &debugger)
{
    // The first choice wins: whoever made it, the panel says it plainly.
    say(tr("Debugger %1 (%2 %3): %4.")
            .arg(debugger->id)
            .arg(DebuggerWords::whose(debugger->owner).toLower(), TextLines::oneLine(debugger->code, 60), DebuggerWords::outcome(*debugger)));
    if (m_shown == debugger)
        m_shown.reset();
    refresh();
    if (m_session->debugger()->openDebuggers().isEmpty())
        Q_EMIT allClosed();
}

void DebuggerPanel::say(const QString &text, bool problem)
{
    m_notice->setStyleSheet(problem ? QStringLiteral("color: %1;").arg(errorColour(palette())) : QString());
    m_notice->setText(text);
    m_notice->setVisible(!text.isEmpty());
}

QString DebuggerPanel::notice() const
{
    return m_notice->text();
}

QString DebuggerPanel::headerText() const
{
    return m_shown ? QTextDocumentFragment::fromHtml(m_header->text()).toPlainText() : m_empty->text();
}

QString DebuggerPanel::conditionText() const
{
    return m_shown ? m_condition->text() : QString();
}

QStringList DebuggerPanel::restartTexts() const
{
    QStringList texts;
    for (int i = 0; i < m_restartLayout->count(); ++i) {
        if (auto *button = dynamic_cast<RestartButton *>(m_restartLayout->itemAt(i)->widget()))
            texts << button->fullText();
    }
    return texts;
}

QMenu *DebuggerPanel::contextMenu()
{
    auto *menu = new QMenu(this);
    QAction *send = menu->addAction(tr("Send this debugger to the agent"));
    send->setObjectName(QStringLiteral("sendDebuggerToAgent"));
    send->setToolTip(tr("Its condition, restarts and frames go with your next prompt in the Agent panel"));
    send->setEnabled(!m_shown.isNull());
    connect(send, &QAction::triggered, this, [this] {
        if (m_shown)
            Q_EMIT sendToAgentRequested(m_shown);
    });
    return menu;
}
