#include "ui/widgets/deskpages.h"

#include <QListWidget>
#include <QStackedWidget>

namespace rd::ui {

DeskPages::DeskPages(QListWidget *sidebar, QStackedWidget *stack, QObject *parent)
    : QObject(parent), m_sidebar(sidebar), m_stack(stack)
{
    connect(m_sidebar, &QListWidget::currentRowChanged, this, [this](int row) {
        m_stack->setCurrentIndex(row);
        if (row >= 0)
            emit shown(row);
    });
    connect(m_sidebar, &QListWidget::itemClicked, this,
        [this](QListWidgetItem *item) { emit chosen(pageAt(m_sidebar->row(item))); });
}

void DeskPages::add(DeskPage row)
{
    Q_ASSERT(row.page && !find(row.page));
    m_stack->addWidget(row.page);
    m_sidebar->addItem(row.title);
    m_rows.append(std::move(row));
}

const DeskPage *DeskPages::find(const QWidget *page) const
{
    return at(slotOf(page));
}

int DeskPages::slotOf(const QWidget *page) const
{
    if (!page)
        return -1;
    for (int slot = 0; slot < m_rows.size(); ++slot)
        if (m_rows[slot].page == page)
            return slot;
    return -1;
}

const DeskPage *DeskPages::at(int slot) const
{
    return slot >= 0 && slot < m_rows.size() ? &m_rows[slot] : nullptr;
}

QWidget *DeskPages::pageAt(int slot) const
{
    const DeskPage *row = at(slot);
    return row ? row->page : nullptr;
}

QWidget *DeskPages::current() const
{
    return m_stack->currentWidget();
}

QListWidgetItem *DeskPages::sidebarItem(const QWidget *page) const
{
    return m_sidebar->item(slotOf(page));
}

QString DeskPages::helpAnchorOf(const QWidget *page) const
{
    const DeskPage *row = find(page);
    return row ? row->helpAnchor : QString();
}

void DeskPages::show(int slot)
{
    m_sidebar->setCurrentRow(slot);
}

} // namespace rd::ui
