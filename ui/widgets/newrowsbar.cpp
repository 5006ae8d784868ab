#include "ui/widgets/newrowsbar.h"

#include "ui/models/records.h"

#include <QAbstractItemView>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace rd::ui {

NewRowsBar::NewRowsBar(QAbstractItemView *view, QWidget *parent)
    : QFrame(parent), m_view(view), m_label(new QLabel), m_show(new QToolButton)
{
    setObjectName(u"new-rows-bar"_qs);
    setStyleSheet(u"#new-rows-bar { background:#dbe9f7; border:1px solid #9fbfe0; "
                  "border-radius:3px; } #new-rows-bar QLabel { color:#12365c; }"_qs);
    m_label->setObjectName(u"new-rows-text"_qs);
    // A tool button: not one of the page's actions (which a viewer sees disabled).
    m_show->setText(tr("Show"));
    m_show->setObjectName(u"new-rows-show"_qs);
    m_show->setToolTip(tr("Scroll to the first new row and select it"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 2, 4, 2);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_show);
    connect(m_show, &QToolButton::clicked, this, [this] {
        if (m_new.isEmpty())
            return;
        const QString first = m_new.first();
        m_new.clear();
        showCount();
        emit showRequested(first);
    });
    hide();
}

void NewRowsBar::reset()
{
    m_known.clear();
    m_primed = false;
    m_new.clear();
    showCount();
}

bool NewRowsBar::isRowVisible(int row) const
{
    const QModelIndex index = m_view->model()->index(row, 0);
    const QRect rect = m_view->visualRect(index);
    return rect.isValid() && m_view->viewport()->rect().intersects(rect);
}

void NewRowsBar::rowsListed()
{
    QStringList keys;
    const QAbstractItemModel *model = m_view->model();
    for (int row = 0; row < model->rowCount(); ++row)
        keys << model->index(row, 0).data(int(Role::Key)).toString();
    const bool primed = m_primed;
    m_primed = true;
    // Arrivals on top: those above the first row that was listed before.
    qsizetype arrivals = keys.size();
    if (m_arrivalsOnTop) {
        arrivals = 0;
        while (arrivals < keys.size() && !m_known.contains(keys[arrivals])
            && !m_new.contains(keys[arrivals]))
            ++arrivals;
        if (arrivals == keys.size())
            arrivals = 0; // nothing listed before is left: a new list, not arrivals
    }
    QStringList stillNew;
    for (int row = 0; row < keys.size(); ++row) {
        const QString &key = keys[row];
        if (key.isEmpty())
            continue;
        const bool known = m_known.contains(key);
        m_known.insert(key);
        const bool announced = m_new.contains(key);
        if (!primed || (known && !announced))
            continue;
        if (!announced && row >= arrivals)
            continue;
        // Seen where it arrived: no need to announce it.
        if (isRowVisible(row))
            continue;
        stillNew << key;
    }
    m_new = stillNew;
    showCount();
}

QString NewRowsBar::text() const
{
    return m_label->text();
}

void NewRowsBar::showCount()
{
    m_label->setText(m_new.isEmpty() ? QString() : tr("%n new", nullptr, int(m_new.size())));
    setVisible(!m_new.isEmpty());
}

} // namespace rd::ui
