#include "ui/widgets/filterchips.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace rd::ui {

namespace {

QToolButton *chipButton(const QString &text, const QString &toolTip)
{
    auto *button = new QToolButton;
    button->setText(text);
    button->setToolTip(toolTip);
    button->setAutoRaise(false);
    // A flat button reads as a label; Tab reaches it (a tool button is not in the tab chain
    // by default).
    button->setFocusPolicy(Qt::StrongFocus);
    button->setCursor(Qt::PointingHandCursor);
    button->setStyleSheet(u"QToolButton { border: 1px solid #9fbfe0; border-radius: 9px; "
                          "background: #e8f0fb; padding: 1px 8px; } QToolButton:hover, "
                          "QToolButton:focus { background: #cfe0f5; border-color: #3b78c4; }"_qs);
    return button;
}

} // namespace

FilterChips::FilterChips(QWidget *parent)
    : QWidget(parent), m_row(new QHBoxLayout(this)), m_note(new QLabel)
{
    setObjectName(u"filter-chips"_qs);
    m_row->setContentsMargins(0, 0, 0, 0);
    m_row->setSpacing(6);
    auto *title = new QLabel(tr("Filtered by:"));
    title->setStyleSheet(u"color: #5a6270;"_qs);
    m_row->addWidget(title);
    m_clearAll = new QToolButton;
    m_clearAll->setObjectName(u"filter-chips-clear-all"_qs);
    m_clearAll->setText(tr("Clear all"));
    m_clearAll->setToolTip(tr("Remove every filter shown here"));
    m_clearAll->setAutoRaise(true);
    m_clearAll->setFocusPolicy(Qt::StrongFocus);
    m_clearAll->setCursor(Qt::PointingHandCursor);
    connect(m_clearAll, &QToolButton::clicked, this, &FilterChips::clearAllRequested);
    m_row->addWidget(m_clearAll);
    m_note->setObjectName(u"filter-chips-note"_qs);
    m_note->setStyleSheet(u"color: #8a5a00;"_qs);
    m_note->setTextFormat(Qt::PlainText);
    // Cut, not wrapped: the row must not widen the page past 1024 pixels.
    m_note->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_row->addWidget(m_note, 1);
    updateVisibility();
}

void FilterChips::setChips(const QList<Chip> &chips)
{
    m_chips = chips;
    // The button that had the keyboard gives it to the one that takes its place.
    int focused = -1;
    for (int i = 0; i < m_buttons.size(); ++i)
        if (m_buttons[i]->hasFocus())
            focused = i;
    // The one clicked is still in its clicked signal: deleted once that returned.
    for (QToolButton *b : m_buttons) {
        b->hide();
        b->deleteLater();
    }
    m_buttons.clear();
    for (int i = 0; i < chips.size(); ++i) {
        auto *button = rd::ui::chipButton(
            chips[i].text + u"  ✕"_qs, tr("Remove this filter (%1)").arg(chips[i].text));
        button->setObjectName(u"filter-chip-"_qs + chips[i].key);
        connect(
            button, &QToolButton::clicked, this, [this, key = chips[i].key] { emit removed(key); });
        m_row->insertWidget(1 + i, button);
        m_buttons << button;
    }
    if (focused >= 0 && !m_buttons.isEmpty())
        m_buttons[std::min<int>(focused, int(m_buttons.size()) - 1)]->setFocus();
    else if (focused >= 0 && m_fallback)
        m_fallback->setFocus();
    updateVisibility();
}

QToolButton *FilterChips::chipButton(const QString &key) const
{
    for (int i = 0; i < m_chips.size(); ++i)
        if (m_chips[i].key == key)
            return m_buttons.value(i);
    return nullptr;
}

void FilterChips::setNote(const QString &note)
{
    m_note->setText(note);
    m_note->setToolTip(note);
    updateVisibility();
}

QString FilterChips::note() const
{
    return m_note->text();
}

void FilterChips::updateVisibility()
{
    m_clearAll->setVisible(m_chips.size() > 1);
    const bool shown = !m_chips.isEmpty() || !m_note->text().isEmpty();
    // Never a window of its own before it is in a page.
    if (parentWidget() || !shown)
        setVisible(shown);
}

} // namespace rd::ui
