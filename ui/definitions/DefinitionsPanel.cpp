#include "DefinitionsPanel.h"

#include "DefinitionsModel.h"
#include "highlight/DiffFormats.h"
#include "highlight/LispHighlighter.h"

#include "history/DefinitionLedger.h"
#include "session/Session.h"

#include <QButtonGroup>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {
constexpr int VersionRole = Qt::UserRole + 1;

QString timeOf(const QDateTime &time)
{
    return time.isValid() ? time.toString(QStringLiteral("HH:mm:ss")) : QString();
}
} // namespace

DefinitionsPanel::DefinitionsPanel(DefinitionsModel *model, QWidget *parent)
    : QWidget(parent), m_model(model), m_proxy(new QSortFilterProxyModel(this)), m_filter(new QLineEdit(this)),
      m_tree(new QTreeView(this)), m_info(new QLabel(this)), m_history(new QTreeWidget(this)), m_showText(new QToolButton(this)),
      m_showChanges(new QToolButton(this)), m_revert(new QPushButton(this)), m_status(new QLabel(this)),
      m_form(new QPlainTextEdit(this)), m_diff(new QPlainTextEdit(this))
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
    // "src/shapes.lisp:53" in By would squeeze the names in a narrow dock: By keeps a width
    // the person can change (its tooltip has the whole text).
    m_tree->header()->setSectionResizeMode(DefinitionsModel::ByColumn, QHeaderView::Interactive);
    m_tree->header()->resizeSection(DefinitionsModel::ByColumn, m_tree->fontMetrics().horizontalAdvance(QStringLiteral("claude-code \u00b7 v2  ")));
    m_info->setWordWrap(true);
    m_info->setTextFormat(Qt::RichText);
    m_info->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_info->setContentsMargins(4, 4, 4, 4);
    m_info->setText(tr("<i>Select a definition to see its documentation, who defined it and its versions.</i>"));

    m_history->setObjectName(QStringLiteral("definitionHistory"));
    m_history->setColumnCount(3);
    m_history->setHeaderLabels({tr("Version"), tr("By"), tr("When")});
    m_history->setRootIsDecorated(false);
    m_history->setUniformRowHeights(true);
    m_history->header()->setStretchLastSection(false);
    m_history->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_history->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_history->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_history->setMaximumHeight(m_history->fontMetrics().height() * 7);
    m_showText->setText(tr("Text"));
    m_showChanges->setText(tr("Changes"));
    m_showChanges->setObjectName(QStringLiteral("definitionChanges"));
    m_showText->setToolTip(tr("The selected version's text"));
    m_showChanges->setToolTip(tr("What the selected version changed in the one before it"));
    auto *views = new QButtonGroup(this);
    for (QToolButton *button : {m_showText, m_showChanges}) {
        button->setCheckable(true);
        button->setAutoRaise(true);
        views->addButton(button);
    }
    m_showText->setChecked(true);
    m_revert->setObjectName(QStringLiteral("definitionRevert"));
    m_revert->setToolTip(tr("Evaluate this version again, as you: agents see it in their activity digest"));
    m_status->setWordWrap(true);
    m_status->setForegroundRole(QPalette::PlaceholderText);

    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    m_form->setReadOnly(true);
    m_form->setFont(mono);
    SyntaxHighlighting::attach(m_form->document(), palette().color(QPalette::Base).lightness() < 128 ? SyntaxHighlighting::Theme::Dark
                                                                                                    : SyntaxHighlighting::Theme::Light);
    m_diff->setObjectName(QStringLiteral("definitionDiff"));
    m_diff->setReadOnly(true);
    m_diff->setFont(mono);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->hide();

    auto *versionBar = new QHBoxLayout;
    versionBar->setContentsMargins(0, 0, 0, 0);
    versionBar->addWidget(m_showText);
    versionBar->addWidget(m_showChanges);
    versionBar->addStretch(1);
    versionBar->addWidget(m_revert);
    auto *detail = new QWidget(this);
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->setSpacing(4);
    detailLayout->addWidget(m_info);
    detailLayout->addWidget(m_history);
    detailLayout->addLayout(versionBar);
    detailLayout->addWidget(m_status);
    detailLayout->addWidget(m_form, 1);
    detailLayout->addWidget(m_diff, 1);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_tree);
    splitter->addWidget(detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 3);
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
        m_selectedKey = d ? d->key : DefinitionKey();
    });
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        m_tree->expandAll();
        if (m_selectedName.isEmpty())
            return;
        QModelIndex source = m_selectedKey.isValid() ? m_model->find(m_selectedKey) : QModelIndex();
        if (!source.isValid())
            source = m_model->find(m_selectedPackage, m_selectedName);
        const QModelIndex index = m_proxy->mapFromSource(source);
        if (index.isValid()) {
            m_tree->setCurrentIndex(index);
            showDetails();
        }
    });
    // Native news changes a row's Runs in place: the selected one's details say it too.
    connect(model, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &from, const QModelIndex &to) {
        const QModelIndex current = m_proxy->mapToSource(m_tree->currentIndex());
        if (current.isValid() && current.parent() == from.parent() && current.row() >= from.row() && current.row() <= to.row())
            showDetails();
    });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &DefinitionsPanel::showDetails);
    connect(m_history, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        m_selectedVersion = item ? item->data(0, VersionRole).toInt() : 0;
        // Watching the newest version follows the next one when it comes.
        m_followNewest = item && m_history->indexOfTopLevelItem(item) == 0;
        showVersion();
    });
    connect(m_showText, &QToolButton::toggled, this, &DefinitionsPanel::showVersion);
    connect(m_revert, &QPushButton::clicked, this, &DefinitionsPanel::revertSelected);
    showHistory();
}

QString DefinitionsPanel::detailText() const
{
    return m_info->text() + QLatin1Char('\n') + m_form->toPlainText();
}

QString DefinitionsPanel::shownText() const
{
    return m_diff->isHidden() ? m_form->toPlainText() : m_diff->toPlainText();
}

QString DefinitionsPanel::statusText() const
{
    return m_status->text();
}

void DefinitionsPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange)
        return;
    // Attaching again only switches the highlighter's theme; the version shown is drawn again.
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    SyntaxHighlighting::attach(m_form->document(), dark ? SyntaxHighlighting::Theme::Dark : SyntaxHighlighting::Theme::Light);
    if (!m_diff->isHidden())
        showVersion();
}

void DefinitionsPanel::showDetails()
{
    const DefinitionsModel::Definition *d = m_model->definition(m_proxy->mapToSource(m_tree->currentIndex().siblingAtColumn(0)));
    if (!d) {
        m_form->clear();
        m_historyKey = {};
        showHistory();
        return;
    }
    QString html = QStringLiteral("<b>%1</b> <span style='color:%4'>%2 in %3</span><br>")
                       .arg(DefinitionsModel::displayText(*d).toHtmlEscaped(), d->kind.toHtmlEscaped(), d->package.toHtmlEscaped(),
                            palette().color(QPalette::PlaceholderText).name());
    if (!d->definedBy.isEmpty())
        html += tr("Defined by <b>%1</b> at %2").arg(d->definedBy.toHtmlEscaped(), timeOf(d->definedAt));
    else if (!d->file.isEmpty() && d->definedAt.isValid())
        html += tr("Loaded from <b>%1</b> at %2").arg(m_model->location(*d).toHtmlEscaped(), timeOf(d->definedAt));
    else if (!d->file.isEmpty())
        html += tr("Defined in <b>%1</b>").arg(m_model->location(*d).toHtmlEscaped());
    else
        html += tr("<i>Not defined in this window's session (loaded, or defined before it started).</i>");
    html += QStringLiteral("<br>");
    if (!d->executionSentence.isEmpty()) // issue 30: native code since when, or why not
        html += QStringLiteral("<span style='color:%1'>%2</span><br>")
                    .arg(d->nativeFailed ? QStringLiteral("#b35c00") : QStringLiteral("#5f6670"), d->executionSentence.toHtmlEscaped());
    html += d->documentation.isEmpty() ? tr("<i>No documentation.</i>") : d->documentation.toHtmlEscaped().replace(u'\n', QStringLiteral("<br>"));
    m_info->setText(html);
    const DefinitionKey key = d->key;
    m_form->setPlainText(d->form);
    if (!(key == m_historyKey) || !key.isValid()) {
        m_historyKey = key;
        m_selectedVersion = 0;
        m_followNewest = true;
        m_status->clear();
    }
    showHistory();
}

void DefinitionsPanel::showHistory()
{
    DefinitionLedger *ledger = m_model->ledger();
    const DefinitionLedger::History *history = ledger && m_historyKey.isValid() ? ledger->history(m_historyKey) : nullptr;
    const bool any = history && !history->versions.isEmpty();
    m_history->setVisible(any);
    m_showText->setVisible(any);
    m_showChanges->setVisible(any);
    m_revert->setVisible(any);
    m_status->setVisible(any && !m_status->text().isEmpty());
    if (!any) {
        m_diff->hide();
        m_form->show();
        return;
    }
    const QSignalBlocker block(m_history);
    if (m_followNewest)
        m_selectedVersion = 0;
    m_history->clear();
    const QString root = m_model->projectRoot();
    QTreeWidgetItem *current = nullptr;
    for (auto it = history->versions.crbegin(); it != history->versions.crend(); ++it) {
        auto *item = new QTreeWidgetItem(m_history);
        item->setText(0, it->number == history->latest().number && history->live ? tr("v%1 (now)").arg(it->number) : tr("v%1").arg(it->number));
        item->setText(1, it->byText(root));
        item->setText(2, timeOf(it->at));
        item->setToolTip(1, it->detail.isEmpty() ? it->byText(root) : it->byText(root) + QStringLiteral("\n") + it->detail);
        item->setData(0, VersionRole, it->number);
        if (it->number == m_selectedVersion || (!current && m_selectedVersion == 0))
            current = item;
    }
    m_history->setCurrentItem(current);
    m_selectedVersion = current ? current->data(0, VersionRole).toInt() : 0;
    m_followNewest = current && m_history->indexOfTopLevelItem(current) == 0;
    showVersion();
}

void DefinitionsPanel::showVersion()
{
    DefinitionLedger *ledger = m_model->ledger();
    const DefinitionLedger::History *history = ledger && m_historyKey.isValid() ? ledger->history(m_historyKey) : nullptr;
    const DefinitionVersion *version = history ? history->version(m_selectedVersion) : nullptr;
    if (!version)
        return;
    const DefinitionVersion *before = nullptr;
    for (const DefinitionVersion &v : history->versions) {
        if (v.number < version->number)
            before = &v;
    }
    m_showChanges->setEnabled(before != nullptr);
    if (!before && m_showChanges->isChecked())
        m_showText->setChecked(true);
    const bool changes = m_showChanges->isChecked() && before;
    m_form->setPlainText(version->source);
    m_form->setVisible(!changes);
    m_diff->setVisible(changes);
    if (changes) {
        m_diff->clear();
        const FileDiff diff = DefinitionLedger::changes(*before, *version);
        QTextCursor cursor(m_diff->document());
        if (diff.isEmpty())
            cursor.insertText(tr("Version %1 has the same text as version %2.").arg(version->number).arg(before->number));
        else
            DiffFormats::insert(cursor, diff.lines, palette().color(QPalette::Base).lightness() < 128);
        m_diff->moveCursor(QTextCursor::Start);
    }
    const bool isNow = version->number == history->latest().number && history->live;
    m_revert->setEnabled(!isNow);
    m_revert->setText(isNow ? tr("In the session now") : tr("Revert to v%1").arg(version->number));
    m_revert->setToolTip(isNow ? tr("This is the version the session has")
                         : version->via == DefinitionVersion::Via::File
                             ? tr("Evaluate this form as %1 has it now, as you: agents see it in their activity digest")
                                   .arg(DefinitionVersion::place(version->file, 0, m_model->projectRoot()))
                             : tr("Evaluate this version's text again, as you: agents see it in their activity digest"));
}

bool DefinitionsPanel::select(const DefinitionKey &key, int number)
{
    const QModelIndex index = m_proxy->mapFromSource(m_model->find(key));
    if (!index.isValid())
        return false;
    m_tree->setCurrentIndex(index);
    m_selectedVersion = number;
    m_followNewest = number == 0;
    showHistory();
    return m_selectedVersion == number || number == 0;
}

bool DefinitionsPanel::revertSelected()
{
    DefinitionLedger *ledger = m_model->ledger();
    if (!ledger || !m_session || !m_historyKey.isValid() || m_selectedVersion <= 0)
        return false;
    const DefinitionLedger::RevertPlan plan = ledger->planRevert(m_historyKey, m_selectedVersion, Origin::person());
    if (!plan.ok()) {
        m_status->setText(plan.error);
        m_status->show();
        return false;
    }
    JobRequest request = plan.request; // a revert of that version (its purpose says so)
    request.tool = QStringLiteral("revert-definition"); // shown as the agents' revert is
    const quint64 job = m_session->submit(request);
    m_followNewest = true; // the revert's own version, the newest, is shown once it is recorded
    m_status->setText(plan.summary);
    m_status->show();
    Q_EMIT reverted(job, plan.summary);
    return true;
}
