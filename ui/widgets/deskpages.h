#pragma once

#include <QKeySequence>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>

class QListWidget;
class QListWidgetItem;
class QStackedWidget;
class QWidget;

namespace rd::ui {

class TableView;

/// One page of the desk, said once: its sidebar entry and stack slot come from where its row
/// is registered, its F1 section and its View-menu shortcut from the row itself.
struct DeskPage
{
    QWidget *page = nullptr;
    /// The sidebar's entry and the View menu's.
    QString title;
    /// The `<a name>` of its section in docs/user-guide.md (the GitHub slug of the heading, so
    /// that docs/user-guide.md#cases works on the web page as in the desk); F1 opens it.
    QString helpAnchor;
    /// View › <title>: shows the page, as a click in the sidebar does.
    QKeySequence shortcut;
    /// Its main list: what View › Export current table writes when no table has focus.
    TableView *table = nullptr;
    /// View › Refresh, and after the database answers again.
    std::function<void()> refresh;
    /// What is selected on it, kept by a place of the history (empty: nothing), and how going
    /// back selects it again. Both unset for a page whose selection is not kept.
    std::function<QString()> selection = {};
    std::function<void(const QString &)> reselect = {};
};

/// The desk's pages in the order of the sidebar. Registering a row is all a page needs to be
/// reachable, findable by F1 and by its shortcut: nothing elsewhere agrees with it by position.
class DeskPages : public QObject
{
    Q_OBJECT

public:
    DeskPages(QListWidget *sidebar, QStackedWidget *stack, QObject *parent = nullptr);

    /// Gives `row` the next stack slot and sidebar entry; the stack owns the page.
    void add(DeskPage row);
    const QList<DeskPage> &rows() const { return m_rows; }
    /// The row of `page`, or nullptr for a widget that is no page of the desk.
    const DeskPage *find(const QWidget *page) const;
    /// `page`'s slot in the stack and the sidebar, or -1.
    int slotOf(const QWidget *page) const;
    /// The row in `slot`, or nullptr.
    const DeskPage *at(int slot) const;
    QWidget *pageAt(int slot) const;
    QWidget *current() const;
    QListWidgetItem *sidebarItem(const QWidget *page) const;
    /// The anchor F1 opens on `page`: empty (the guide's top) for a widget that is no page.
    QString helpAnchorOf(const QWidget *page) const;
    /// Selects `slot` in the sidebar, which shows its page.
    void show(int slot);

signals:
    /// The page in `slot` is shown now (whoever chose it).
    void shown(int slot);
    /// The person clicked `page`'s sidebar entry (even when it was shown already).
    void chosen(QWidget *page);

private:
    QListWidget *m_sidebar;
    QStackedWidget *m_stack;
    QList<DeskPage> m_rows;
};

} // namespace rd::ui
