#pragma once

#include <QString>
#include <QVector>

#include <functional>

namespace rd::ui {

/// A place the desk showed: a page, how it got there (a drill-down's filter, shown again by
/// `show`) and what was selected on it when it was left (`item`: a case id, a subscription's
/// uuid; empty: nothing).
struct Place
{
    int page = -1;
    std::function<void()> show;
    QString item;
};

/// Back and forward between the places a drill-down, a link, Enter or the sidebar took the
/// desk to, as in a browser: visiting a place drops what was forward of the current one; the
/// place left keeps what was selected on it, so going back selects it again.
class NavigationHistory
{
public:
    /// Leaves `from` (the current place, as it is now) for `to`.
    void visit(const Place &from, Place to);
    bool canGoBack() const { return m_index > 0; }
    bool canGoForward() const { return m_index >= 0 && m_index + 1 < m_places.size(); }
    /// The place before the current one; `current` (as it is now) is kept for forward().
    /// Only when canGoBack().
    const Place &back(const Place &current);
    /// The place after the current one; `current` is kept for back(). Only when canGoForward().
    const Place &forward(const Place &current);
    /// The place shown now (page -1 before the first visit).
    Place current() const { return m_index >= 0 ? m_places[m_index] : Place {}; }
    qsizetype size() const { return m_places.size(); }

    /// Places beyond this many are forgotten, the oldest first.
    static constexpr int kLimit = 100;

private:
    /// `now` is what the current place has become: the same page keeps its drill-down and
    /// takes the selection; another page (reached without a visit) is a place of its own.
    void update(const Place &now);

    QVector<Place> m_places;
    int m_index = -1;
};

} // namespace rd::ui
