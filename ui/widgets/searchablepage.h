#pragma once

namespace rd::ui {

/// A page of the desk with a search box of its own: View › Find (Ctrl+F) searches the page
/// that is shown (MainWindow asks the current page through this interface), not one fixed
/// list. The Subscriptions and Cases pages implement it; a page without one (Outbox) says so
/// in the status bar. The Inbox implements it by inheriting this and putting the cursor in its
/// own filter box.
class SearchablePage
{
public:
    virtual ~SearchablePage() = default;
    /// Puts the cursor in the page's search box, its text selected (typing replaces it).
    virtual void focusSearch() = 0;
};

} // namespace rd::ui
