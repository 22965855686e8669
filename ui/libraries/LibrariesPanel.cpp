#include "LibrariesPanel.h"

#include "native/LibraryCompilation.h"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSet>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {
enum Column { Library, Runs, Compile, Why, ColumnCount };
// A row's whole story for the detail under the tree: its column Why is cut to the dock's width.
constexpr int DetailRole = Qt::UserRole + 1;
constexpr qsizetype DetailFiles = 6; // the files a library's detail names; the list has them all

// A failed or refused compile reads in orange, as a failed native definition does in the
// Definitions panel; work in progress in the palette's link colour; the rest as the tree's text.
QBrush colourOf(const LibraryCompilation::Library &library, const QPalette &palette)
{
    if (library.state == LibraryCompilation::State::Bytecode && !library.reason.isEmpty())
        return QColor(0xc0, 0x6a, 0x00);
    if (library.isBusy())
        return palette.color(QPalette::Link);
    return {};
}
} // namespace

LibrariesPanel::LibrariesPanel(LibraryCompilation *libraries, QWidget *parent)
    : QWidget(parent), m_libraries(libraries), m_summary(new QLabel(this)), m_tree(new QTreeWidget(this)), m_detail(new QLabel(this)),
      m_warmUp(new QPushButton(tr("Compile the project's libraries natively"), this))
{
    setObjectName(QStringLiteral("librariesPanel"));
    m_summary->setObjectName(QStringLiteral("librariesSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tree->setObjectName(QStringLiteral("librariesTree"));
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Library"), tr("Runs"), tr("Background compile"), tr("Why")});
    m_tree->setRootIsDecorated(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setSectionResizeMode(Library, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(Runs, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(Compile, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);
    m_detail->setObjectName(QStringLiteral("librariesDetail"));
    m_detail->setWordWrap(true);
    m_detail->setTextFormat(Qt::PlainText);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warmUp->setObjectName(QStringLiteral("librariesWarmUp"));
    m_warmUp->setToolTip(tr("Compiles the libraries the project's .asd files depend on natively, in the background at idle "
                            "priority, without loading them: their first load is native (Session menu too)."));
    m_warmUp->setAutoDefault(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_summary);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_detail);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_warmUp);
    layout->addLayout(buttons);

    connect(m_warmUp, &QPushButton::clicked, this, &LibrariesPanel::warmUpRequested);
    connect(libraries, &LibraryCompilation::changed, this, &LibrariesPanel::refresh);
    connect(libraries, &LibraryCompilation::availabilityChanged, this, &LibrariesPanel::refresh);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &LibrariesPanel::showDetail);
    refresh();
}

QString LibrariesPanel::detailText() const
{
    return m_detail->text();
}

void LibrariesPanel::showDetail()
{
    // The chosen row's story; with none chosen, the first library's (the one a glance looks for).
    const QTreeWidgetItem *item = m_tree->currentItem() ? m_tree->currentItem() : m_tree->topLevelItem(0);
    m_detail->setText(item ? item->data(Library, DetailRole).toString() : QString());
    m_detail->setVisible(item != nullptr);
}

QString LibrariesPanel::summaryText() const
{
    return m_summary->text();
}

QString LibrariesPanel::rowsText() const
{
    QStringList lines;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = m_tree->topLevelItem(i);
        QStringList cells;
        for (int column = 0; column < ColumnCount; ++column)
            cells << item->text(column);
        lines << cells.join(QStringLiteral(" | "));
        for (int j = 0; j < item->childCount(); ++j)
            lines << QStringLiteral("  ") + item->child(j)->text(Library) + QStringLiteral(" | ") + item->child(j)->text(Why);
    }
    return lines.join(QLatin1Char('\n'));
}

void LibrariesPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        refresh(); // the link colour of the theme now in use
}

void LibrariesPanel::refresh()
{
    if (!m_libraries->isKnown())
        m_summary->setText(tr("Libraries the session loads show here: a first load runs as bytecode at once and is compiled "
                              "natively in the background."));
    else if (m_libraries->isAvailable() && m_libraries->compilerLimit() == 1)
        m_summary->setText(tr("A library's first load runs as bytecode at once; a background process compiles it natively, "
                              "and the session gets the native code without a restart."));
    else if (m_libraries->isAvailable())
        m_summary->setText(tr("A library's first load runs as bytecode at once; background processes (up to %n at once) "
                              "compile it natively, and the session gets the native code without a restart.",
                              nullptr, m_libraries->compilerLimit()));
    else
        m_summary->setText(tr("Libraries run as bytecode in this engine: %1").arg(m_libraries->reason()));

    // Rebuilt whole: a session loads tens of libraries, and news comes a few times a second.
    QSet<QString> expanded;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        if (m_tree->topLevelItem(i)->isExpanded())
            expanded.insert(m_tree->topLevelItem(i)->text(Library));
    }
    const QString selected = m_tree->currentItem() ? m_tree->currentItem()->text(Library) : QString();
    m_tree->clear();
    for (const LibraryCompilation::Library &library : m_libraries->libraries()) {
        auto *item = new QTreeWidgetItem(m_tree);
        item->setText(Library, library.system);
        item->setText(Runs, library.runs());
        item->setText(Compile, library.isBusy() ? library.progress()
                               : library.warmUp && library.state == LibraryCompilation::State::Native ? tr("done (warm-up)")
                               : library.nativeFiles > 0 || library.state == LibraryCompilation::State::Partial ? tr("done")
                                                                                                              : QString());
        QString why = library.reason;
        if (why.isEmpty() && library.state == LibraryCompilation::State::Native && library.nativeFiles == 0 && !library.warmUp)
            why = tr("compiled before: loaded from ASDF's cache");
        item->setText(Why, why);
        const QString sentence = library.sentence();
        for (int column = 0; column < ColumnCount; ++column)
            item->setToolTip(column, sentence);
        QStringList story{sentence};
        qsizetype unnamed = 0; // deferred files the story has no room for
        const QBrush colour = colourOf(library, palette());
        if (colour.style() != Qt::NoBrush) {
            item->setForeground(Runs, colour);
            item->setForeground(Compile, colour);
        }
        for (const auto &file : library.deferred) {
            auto *child = new QTreeWidgetItem(item);
            child->setText(Library, QFileInfo(file.file).fileName());
            child->setText(Runs, tr("bytecode"));
            child->setText(Why, file.reason);
            child->setToolTip(Library, file.file);
            child->setToolTip(Why, file.reason);
            child->setData(Library, DetailRole, tr("%1 runs as bytecode in this engine: %2").arg(file.file, file.reason));
            // The engine's sentence names the first file that waits, with its reason.
            const QString reason = file.reason.endsWith(u'.') ? file.reason.chopped(1) : file.reason;
            if (sentence.contains(QStringLiteral("%1: %2").arg(QFileInfo(file.file).fileName(), reason)))
                continue;
            if (story.size() > DetailFiles)
                ++unnamed;
            else
                story << QStringLiteral("\u2022 %1: %2").arg(QFileInfo(file.file).fileName(), file.reason);
        }
        if (unnamed > 0)
            story << tr("\u2026 and %n more files (under it in the list)", nullptr, int(unnamed));
        item->setData(Library, DetailRole, story.join(QLatin1Char('\n')));
        if (expanded.contains(library.system))
            item->setExpanded(true);
        if (library.system == selected)
            m_tree->setCurrentItem(item);
    }
    showDetail();
}
