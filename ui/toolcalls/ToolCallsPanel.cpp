#include "ToolCallsPanel.h"

#include "ToolCallLog.h"

#include <QHeaderView>
#include <QJsonDocument>
#include <QPlainTextEdit>
#include <QSaveFile>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

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
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    QHeaderView *header = m_table->horizontalHeader();
    header->setHighlightSections(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(ToolCallLog::ArgumentsColumn, QHeaderView::Stretch);
    m_details->setObjectName(QStringLiteral("toolCallDetails"));
    m_details->setReadOnly(true);
    m_details->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_details->setPlaceholderText(tr("Select a call to see its request and response."));
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    mono.setPointSizeF(font().pointSizeF() * 0.95);
    m_details->setFont(mono);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_details);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ToolCallsPanel::showDetails);
    connect(log, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &from) {
        if (m_table->currentIndex().row() == from.row())
            showDetails();
    });
    connect(log, &QAbstractItemModel::rowsInserted, this, [this] {
        // Follow new calls unless the person is looking at an older one.
        if (!m_table->currentIndex().isValid() || m_table->currentIndex().row() >= m_log->rowCount() - 2)
            m_table->scrollToBottom();
    });
}

QString ToolCallsPanel::detailText() const
{
    return m_details->toPlainText();
}

void ToolCallsPanel::showDetails()
{
    const int row = m_table->currentIndex().row();
    if (row < 0 || row >= m_log->rowCount()) {
        m_details->clear();
        return;
    }
    const RequestTrace &e = m_log->entry(row);
    QString text = tr("// Request (%1, %2)\n").arg(e.client(), e.receivedAt().toString(QStringLiteral("HH:mm:ss.zzz")));
    text += QString::fromUtf8(QJsonDocument(e.request()).toJson(QJsonDocument::Indented));
    if (e.hasChange())
        text += tr("\n// File change: %1, %2\n").arg(e.change().path, e.change().summary);
    if (!e.refusal().isEmpty())
        text += tr("\n// Refused: %1\n").arg(e.refusal());
    if (!e.response().isEmpty()) {
        text += tr("\n// Response (%1)\n").arg(ToolCallLog::durationText(e));
        text += QString::fromUtf8(QJsonDocument(e.response()).toJson(QJsonDocument::Indented));
    } else {
        text += tr("\n// No response yet (%1)\n").arg(ToolCallLog::stateName(e.state()));
    }
    m_details->setPlainText(text);
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
