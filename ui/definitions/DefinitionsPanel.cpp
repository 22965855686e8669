#include "DefinitionsPanel.h"

#include "DefinitionsModel.h"
#include "highlight/LispHighlighter.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

DefinitionsPanel::DefinitionsPanel(DefinitionsModel *model, QWidget *parent)
    : QWidget(parent), m_model(model), m_proxy(new QSortFilterProxyModel(this)), m_filter(new QLineEdit(this)),
      m_tree(new QTreeView(this)), m_info(new QLabel(this)), m_form(new QPlainTextEdit(this))
{
    m_proxy->setSourceModel(model);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(DefinitionsModel::NameColumn);
    m_filter->setObjectName(QStringLiteral("definitionsFilter"));
    m_filter->setPlaceholderText(tr("Filter definitions"));
    m_filter->setClearButtonEnabled(true);
    m_tree->setObjectName(QStringLiteral("definitionsTree"));
    m_tree->setModel(m_proxy);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(DefinitionsModel::NameColumn, QHeaderView::Stretch);
    for (int c = DefinitionsModel::KindColumn; c < DefinitionsModel::ColumnCount; ++c)
        m_tree->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_info->setWordWrap(true);
    m_info->setTextFormat(Qt::RichText);
    m_info->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_info->setContentsMargins(4, 4, 4, 4);
    m_info->setText(tr("<i>Select a definition to see its documentation and the form that defined it.</i>"));
    m_form->setReadOnly(true);
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    m_form->setFont(mono);
    SyntaxHighlighting::attach(m_form->document());

    auto *detail = new QWidget(this);
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->setSpacing(4);
    detailLayout->addWidget(m_info);
    detailLayout->addWidget(m_form, 1);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_tree);
    splitter->addWidget(detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->setSpacing(4);
    layout->addWidget(m_filter);
    layout->addWidget(splitter, 1);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, [this](const QString &text) {
        m_proxy->setFilterFixedString(text);
        m_tree->expandAll();
    });
    // Every evaluation refreshes the model: keep the person's selection (and its details) across.
    connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        const DefinitionsModel::Definition *d = m_model->definition(m_proxy->mapToSource(m_tree->currentIndex().siblingAtColumn(0)));
        m_selectedPackage = d ? d->package : QString();
        m_selectedName = d ? d->name : QString();
    });
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        m_tree->expandAll();
        if (m_selectedName.isEmpty())
            return;
        const QModelIndex index = m_proxy->mapFromSource(m_model->find(m_selectedPackage, m_selectedName));
        if (index.isValid()) {
            m_tree->setCurrentIndex(index);
            showDetails();
        }
    });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &DefinitionsPanel::showDetails);
}

QString DefinitionsPanel::detailText() const
{
    return m_info->text() + QLatin1Char('\n') + m_form->toPlainText();
}

void DefinitionsPanel::showDetails()
{
    const DefinitionsModel::Definition *d = m_model->definition(m_proxy->mapToSource(m_tree->currentIndex().siblingAtColumn(0)));
    if (!d) {
        m_form->clear();
        return;
    }
    QString html = QStringLiteral("<b>%1</b> <span style='color:#5f6670'>%2 in %3</span><br>")
                       .arg(DefinitionsModel::displayText(*d).toHtmlEscaped(), d->kind.toHtmlEscaped(), d->package.toHtmlEscaped());
    if (!d->definedBy.isEmpty())
        html += tr("Defined by <b>%1</b> at %2").arg(d->definedBy.toHtmlEscaped(), d->definedAt.toString(QStringLiteral("HH:mm:ss")));
    else
        html += tr("<i>Not defined in this window's session (loaded, or defined before it started).</i>");
    html += QStringLiteral("<br>");
    if (!d->file.isEmpty())
        html += tr("Defined in <b>%1</b>").arg(m_model->location(*d).toHtmlEscaped()) + QStringLiteral("<br>");
    html += d->documentation.isEmpty() ? tr("<i>No documentation.</i>") : d->documentation.toHtmlEscaped().replace(u'\n', QStringLiteral("<br>"));
    m_info->setText(html);
    m_form->setPlainText(d->form);
}
