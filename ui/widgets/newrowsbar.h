#pragma once

#include <QFrame>
#include <QSet>
#include <QString>
#include <QStringList>

class QAbstractItemView;
class QLabel;
class QToolButton;

namespace rd::ui {

/// "3 new — show" above a list that follows the database: rows that arrived while the person
/// looked elsewhere in the list are announced instead of slipping in out of sight. Show
/// scrolls to the first of them and selects it; the bar hides once they are seen.
///
/// The list tells it after each reload (rowsListed), and it reads the keys listed; keys listed for
/// the first time since reset() count as new. A new row that is in view when it arrives is
/// seen at once and not announced. reset() when the rows change for another reason (a
/// filter, a scope, a sort): those are not arrivals.
class NewRowsBar : public QFrame
{
    Q_OBJECT

public:
    explicit NewRowsBar(QAbstractItemView *view, QWidget *parent = nullptr);

    /// The list reloaded: the keys (Role::Key) its view lists now, in the list's order.
    void rowsListed();
    /// Forgets what was listed: the next rowsListed only remembers.
    void reset();
    /// A list that loads its rows page by page, newest first (the inbox): only rows above the
    /// first row listed before are arrivals; a row first listed further down is an older one
    /// whose page just loaded.
    void setArrivalsOnTop(bool onTop) { m_arrivalsOnTop = onTop; }
    /// The announced rows' keys, in the list's order.
    QStringList newKeys() const { return m_new; }
    QString text() const;
    QToolButton *showButton() const { return m_show; }

signals:
    /// Show was clicked: the page selects (and opens) this row.
    void showRequested(const QString &key);

private:
    bool isRowVisible(int row) const;
    void showCount();

    QAbstractItemView *m_view;
    QLabel *m_label;
    QToolButton *m_show;
    QSet<QString> m_known;
    bool m_primed = false;
    bool m_arrivalsOnTop = false;
    QStringList m_new;
};

} // namespace rd::ui
