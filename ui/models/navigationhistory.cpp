#include "ui/models/navigationhistory.h"

namespace rd::ui {

void NavigationHistory::update(const Place &now)
{
    if (m_index < 0) {
        m_places = {now};
        m_index = 0;
        return;
    }
    Place &here = m_places[m_index];
    if (here.page == now.page) {
        here.item = now.item;
        if (now.show)
            here.show = now.show;
        return;
    }
    m_places.resize(m_index + 1);
    m_places.push_back(now);
    ++m_index;
}

void NavigationHistory::visit(const Place &from, Place to)
{
    update(from);
    m_places.resize(m_index + 1); // what was forward is gone, as in a browser
    m_places.push_back(std::move(to));
    ++m_index;
    if (m_places.size() > kLimit) {
        m_places.removeFirst();
        --m_index;
    }
}

const Place &NavigationHistory::back(const Place &current)
{
    update(current);
    if (m_index > 0)
        --m_index;
    return m_places[m_index];
}

const Place &NavigationHistory::forward(const Place &current)
{
    update(current);
    if (m_index + 1 < m_places.size())
        ++m_index;
    return m_places[m_index];
}

} // namespace rd::ui
