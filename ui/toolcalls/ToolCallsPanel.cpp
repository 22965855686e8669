#include "ToolCallsPanel.h"

#include "ToolCallLog.h"

#include <QEvent>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPlainTextEdit>
#include <QSaveFile>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace {
// The most a short column takes before its text is elided (the tooltip has it whole), and the
// least the arguments keep: a long state ("parked → resumed: the person chose ...") or a
// waited duration must never squeeze the arguments to nothing.
constexpr int MaxShortColumn[] = {90, 140, 150, 0, 230, 150}; // by ToolCallLog::Column; 0: the arguments
constexpr int MinArgumentsColumn = 160;

QString compact(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}
} // namespace

ToolCallsPanel::ToolCallsPanel(ToolCallLog *log, QWidget *parent)
    : QWidget(parent), m_log(log), m_table(new QTableView(this)), m_details(new QPlainTextEdit(this))
{
    m_table->setObjectName(QStringLiteral("toolCallsTable"));
    m_table->setModel(log);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    QHeaderView *header = m_table->horizontalHeader();
    header->setHighlightSections(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(false);
    // Shown after the state and duration (the model's order stays): in a narrow dock the
    // arguments, elided anyway, run past the edge, never how the call stands.
    header->moveSection(header->visualIndex(ToolCallLog::ArgumentsColumn), ToolCallLog::ColumnCount - 1);
    m_table->viewport()->installEventFilter(this);
    m_details->setObjectName(QStringLiteral("toolCallDetails"));
    m_details->setReadOnly(true);
    m_details->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_details->setPlaceholderText(tr("Select a call to see who asked for what and why, how it went, and its answer."));
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    mono.setPointSizeF(font().pointSizeF() * 0.95);
    m_details->setFont(mono);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_details);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    // Two thirds for the table from the start: its six columns, the state and duration
    // included, fit beside the arguments without a horizontal scroll bar in a 1280 px window.
    splitter->setSizes({2000, 1000});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ToolCallsPanel::showDetails);
    connect(log, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &from) {
        if (m_table->currentIndex().row() == from.row())
            showDetails();
        layoutColumns();
    });
    connect(log, &QAbstractItemModel::rowsInserted, this, &ToolCallsPanel::followNewRows);
    // The newest row stays in view when the view's height for rows changes after the scroll
    // (the horizontal scroll bar appearing once the columns are laid out hid it).
    connect(m_table->verticalScrollBar(), &QScrollBar::rangeChanged, this, [this](int, int maximum) {
        if (followsNewest())
            m_table->verticalScrollBar()->setValue(maximum);
    });
    layoutColumns();
}

bool ToolCallsPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        layoutColumns();
    return QWidget::eventFilter(watched, event);
}

bool ToolCallsPanel::followsNewest() const
{
    const QModelIndex current = m_table->currentIndex();
    return !current.isValid() || current.row() >= m_log->rowCount() - 2;
}

void ToolCallsPanel::followNewRows()
{
    // Follow new calls unless the person is looking at an older one. After the view has laid
    // out the new rows: scrolling now would stop one row short of the newest.
    layoutColumns();
    if (!followsNewest())
        return;
    QTimer::singleShot(0, m_table, [this] {
        if (m_log->rowCount() > 0)
            m_table->scrollTo(m_log->index(m_log->rowCount() - 1, 0), QAbstractItemView::PositionAtBottom);
    });
}

void ToolCallsPanel::layoutColumns()
{
    if (m_layoutQueued)
        return;
    m_layoutQueued = true;
    // Once per burst of changes: sizing the columns reads every row's width.
    QTimer::singleShot(0, this, [this] {
        m_layoutQueued = false;
        QHeaderView *header = m_table->horizontalHeader();
        int used = 0;
        for (int column = 0; column < ToolCallLog::ColumnCount; ++column) {
            if (column == ToolCallLog::ArgumentsColumn)
                continue;
            const int wanted = qMax(header->sectionSizeHint(column), static_cast<const QAbstractItemView *>(m_table)->sizeHintForColumn(column));
            const int width = qMin(wanted, MaxShortColumn[column]);
            header->resizeSection(column, width);
            used += width;
        }
        header->resizeSection(ToolCallLog::ArgumentsColumn, qMax(MinArgumentsColumn, m_table->viewport()->width() - used));
    });
}

QString ToolCallsPanel::detailText() const
{
    return m_details->toPlainText();
}

QString ToolCallsPanel::describe(const RequestTrace &e)
{
    QStringList lines;
    const QString what = e.tool().isEmpty() ? e.method() : e.tool();
    lines << tr("%1 \u00b7 %2 \u00b7 %3").arg(e.client(), what, e.receivedAt().toString(QStringLiteral("HH:mm:ss")));
    const QJsonObject arguments = e.arguments();
    const QString why = arguments.value(QStringLiteral("description")).toString();
    lines << (why.isEmpty() ? tr("Why: (the agent gave no description)") : tr("Why: %1").arg(why));
    if (e.isFromChat())
        lines << ToolCallLog::chatText(e);
    QString state = tr("State: %1").arg(ToolCallLog::stateText(e));
    if (e.jobId() != 0)
        state += tr(" (job %1)").arg(e.jobId());
    if (e.isOver())
        state += tr(", answered after %1").arg(ToolCallLog::durationText(e));
    lines << state;
    if (!e.refusal().isEmpty())
        lines << tr("Refused: %1").arg(e.refusal());
    if (e.hasChange())
        lines << tr("File change: %1, %2").arg(e.change().path, e.change().summary);
    QStringList shown;
    for (auto it = arguments.begin(); it != arguments.end(); ++it) {
        if (it.key() != QLatin1String("description"))
            shown << QStringLiteral("  %1: %2").arg(it.key(), compact(it.value()));
    }
    if (!shown.isEmpty())
        lines << tr("Arguments:") << shown;
    const QJsonObject response = e.response();
    if (response.contains(QStringLiteral("error"))) {
        lines << QString() << tr("Error: %1").arg(response.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString());
    } else if (!response.isEmpty()) {
        const QJsonObject result = response.value(QStringLiteral("result")).toObject();
        QStringList texts;
        for (const QJsonValue &block : result.value(QStringLiteral("content")).toArray()) {
            if (block.toObject().value(QStringLiteral("type")).toString() == QLatin1String("text"))
                texts << block.toObject().value(QStringLiteral("text")).toString();
        }
        if (!texts.isEmpty())
            lines << QString() << (result.value(QStringLiteral("isError")).toBool() ? tr("Answer (an error):") : tr("Answer:")) << texts.join(QStringLiteral("\n\n"));
    }
    return lines.join(QLatin1Char('\n'));
}

void ToolCallsPanel::showDetails()
{
    const int row = m_table->currentIndex().row();
    if (row < 0 || row >= m_log->rowCount()) {
        m_details->clear();
        return;
    }
    const RequestTrace &e = m_log->entry(row);
    QString text = describe(e);
    text += tr("\n\n// Request (%1, %2)\n").arg(e.client(), e.receivedAt().toString(QStringLiteral("HH:mm:ss.zzz")));
    text += QString::fromUtf8(QJsonDocument(e.request()).toJson(QJsonDocument::Indented));
    if (!e.response().isEmpty()) {
        text += tr("\n// Response (%1)\n").arg(ToolCallLog::durationText(e));
        text += QString::fromUtf8(QJsonDocument(e.response()).toJson(QJsonDocument::Indented));
    } else {
        text += tr("\n// No response yet (%1)\n").arg(ToolCallLog::stateName(e.state()));
    }
    const int scrolled = m_details->verticalScrollBar()->value();
    m_details->setPlainText(text);
    m_details->verticalScrollBar()->setValue(scrolled); // a row that changes keeps the reader's place
}

bool ToolCallsPanel::exportTo(const QString &path, QString *error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    file.write(m_log->toJsonLines());
    if (!file.commit()) {
        *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}
