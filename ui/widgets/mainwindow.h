#pragma once

#include "ui/actions/caseactions.h"
#include "ui/models/databasefacts.h"
#include "ui/models/finder.h"
#include "ui/models/navigationhistory.h"

#include <QDateTime>
#include <QFuture>
#include <QMainWindow>

#include <memory>

class QAction;
class QLabel;
class QPushButton;
class QListWidget;
class QStackedWidget;
class QTimer;

namespace rd::ui {

class AuditLogPage;
class BackupAgeModel;
class BackupDialog;
class CasesPage;
class CloseMonthDialog;
class ConnectionDialog;
class DatabasePool;
class DeskNavigator;
class DeskPages;
class FindDialog;
class StatementsDialog;
class InboxPage;
class LedgerPage;
class LiveUpdates;
class OutboxPage;
class OverviewPage;
class PaymentTroublePage;
class RestoreDialog;
class SubscriptionsPage;
class TableView;

/// The desk: navigation on the left (Overview, Subscriptions, Ledger, Cases with the open-case
/// count, Payment trouble, Audit log, Inbox, Outbox: the rows of DeskPages), the selected view on
/// the right, a quiet banner while the database is away.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    /// `actions` defaults to the domain implementation over `conninfo`.
    MainWindow(const QString &conninfo, const QString &databaseDescription,
        std::unique_ptr<CaseActions> actions = nullptr, QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Shows `page` (one of pages()) as a click in the sidebar does.
    void showPage(const QWidget *page);
    /// The registered pages: each one's slot, title, help topic and shortcut.
    DeskPages *pages() const { return m_pages; }
    /// Where cross-page links go (open subscription X, case N, delivery N) and the history.
    DeskNavigator *navigator() const { return m_navigator; }
    /// View › Back (Alt+Left) and Forward (Alt+Right): the places a drill-down, a link, Enter or
    /// the sidebar took the desk to, each shown again as it was left (its list's filter, the
    /// case or subscription selected on it).
    void goBack();
    void goForward();
    const NavigationHistory &history() const;
    QAction *backAction() const { return m_back; }
    QAction *forwardAction() const { return m_forward; }
    /// Help › Keyboard shortcuts: every menu entry that has a shortcut ("Case › Claim"), read
    /// from the menus themselves, then the keys of lists and dialogs; pairs of keys, what.
    QList<QPair<QString, QString>> keyboardShortcuts() const;
    void showKeyboardShortcuts();
    /// View › Find (Ctrl+F): the search box of the page shown (SearchablePage); false, and a
    /// line in the status bar, on a page without one.
    bool findInView();
    /// View › Find anything (Ctrl+K): the box that takes any id and opens what has it.
    FindDialog *findAnything();
    /// Ledger › Statements… and Ledger › Close month… (created on first use, then reused).
    StatementsDialog *showStatements();
    CloseMonthDialog *showCloseMonth();
    /// File › Import provider statement… (modal); afterwards every page and the Statements
    /// dialog read again.
    void showStatementImport();
    /// File › Back up… (non-modal: the desk stays usable while it runs; created on first use,
    /// then reused) and File › Restore… (a new dialog each time).
    BackupDialog *showBackup();
    RestoreDialog *showRestore();
    /// The last backup's age (status bar and Overview) and its status-bar indicator, which
    /// opens File › Back up….
    BackupAgeModel *backupAge() const { return m_backupAge; }
    QPushButton *backupIndicator() const { return m_backupIndicator; }
    /// Opens the view that shows `item` (a subscription with its billing period selected, a
    /// case, an inbox delivery).
    void openFound(const FoundItem &item);
    /// The shown page's main view: its list (DeskPage::table) when shown, else the page.
    QWidget *mainView() const;
    /// Gives the keyboard to mainView(), the window active: after every move to a page (the
    /// sidebar, a drill-down, a link, Find anything, Back and Forward) and once a dialog or
    /// another window of the desk closed. Otherwise the focus stayed on a widget of a page no
    /// longer shown, or on no window at all, and Ctrl+K or Ctrl+Shift+D did nothing until a
    /// click.
    void focusMainView();
    /// What View › Export current table as CSV writes: the table that has focus, else the
    /// current page's main list.
    TableView *tableToExport() const;
    SubscriptionsPage *subscriptionsPage() const { return m_subscriptions; }
    CasesPage *casesPage() const { return m_cases; }
    OutboxPage *outboxPage() const { return m_outbox; }
    InboxPage *inboxPage() const { return m_inbox; }
    LedgerPage *ledgerPage() const { return m_ledger; }
    OverviewPage *overviewPage() const { return m_overview; }
    AuditLogPage *auditLogPage() const { return m_auditLog; }
    PaymentTroublePage *paymentTroublePage() const { return m_paymentTrouble; }
    LiveUpdates *liveUpdates() const { return m_live; }
    /// Whether `conninfo` is the desk's own embedded cluster (main() knows; false unless told).
    void setOnEmbeddedDatabase(bool embedded) { m_onEmbedded = embedded; }
    /// File › Connect's dialog, showing the connection as it is: "embedded" checked on the
    /// embedded cluster, else this window's conninfo in its fields.
    std::unique_ptr<ConnectionDialog> makeConnectionDialog();
    /// The live indicator's tooltip: which views follow changes, and which do not; on a
    /// replica, how it follows them and when the newest change it replayed was committed.
    static QString liveToolTip(bool replica = false, const QDateTime &lastReplayed = {});
    /// Whether the desk shows a hot standby (read-only replica): the banner says so and every
    /// action is disabled. Known once LiveUpdates connected.
    bool isOnReplica() const { return m_onReplica; }
    /// The permanent "Read-only replica — actions disabled" banner.
    QLabel *replicaBanner() const { return m_replicaBanner; }
    QLabel *liveIndicator() const { return m_liveLabel; }

    /// What Help › About says about the database (databasefacts.h).
    using DatabaseFacts = rd::ui::DatabaseFacts;
    /// Reads DatabaseFacts on the pool's thread.
    QFuture<DatabaseFacts> readDatabaseFacts() const;
    /// Help › About's text: the desk's version (project() in CMakeLists.txt), the Qt it runs
    /// on, the database it shows and `facts` (empty: still being read, or `error`).
    QString aboutText(const DatabaseFacts &facts, const QString &error = {}) const;
    /// Help › About: the dialog, filled in once the database answered.
    void showAbout();

public slots:
    void refreshAll();

signals:
    /// The person asked to connect elsewhere (File › Connect…): the new conninfo.
    void reconnectRequested(const QString &conninfo);

protected:
    void closeEvent(QCloseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The constructor's parts, in the order it runs them.
    void buildPages();
    void buildLayout();
    void buildStatusBar();
    void buildFileMenu();
    void buildViewMenu();
    void buildCaseMenu();
    void buildLedgerMenu();
    void buildHelpMenu();
    void connectLinks();
    void connectRefreshes();
    void connectStatusMessages();
    void connectLiveUpdates();
    void connectRole();

    void updateHistoryActions();
    /// A dialog or window of the desk closed: the main view takes the keyboard again, unless
    /// another of the desk's windows has it (a message box over a dialog, the Statements).
    void returnFocusAfterWindow();
    void updateCasesBadge(int openCases);
    void showBackupAge();
    void setOnReplica(bool replica);
    void showLive();
    void restoreLayout();
    void saveLayout();

    QString m_conninfo;
    QString m_description;
    bool m_onEmbedded = false;
    std::unique_ptr<DatabasePool> m_pool;
    std::unique_ptr<CaseActions> m_actions;
    QListWidget *m_nav;
    QStackedWidget *m_stack;
    DeskPages *m_pages = nullptr;
    DeskNavigator *m_navigator = nullptr;
    QLabel *m_banner;
    QLabel *m_replicaBanner;
    bool m_onReplica = false;
    QDateTime m_lastReplayed;
    QLabel *m_liveLabel;
    QLabel *m_roleLabel;
    SubscriptionsPage *m_subscriptions;
    CasesPage *m_cases;
    InboxPage *m_inbox;
    LedgerPage *m_ledger;
    AuditLogPage *m_auditLog;
    OutboxPage *m_outbox;
    OverviewPage *m_overview;
    PaymentTroublePage *m_paymentTrouble;
    LiveUpdates *m_live;
    FindDialog *m_find = nullptr;
    StatementsDialog *m_statements = nullptr;
    CloseMonthDialog *m_closeMonth = nullptr;
    BackupDialog *m_backup = nullptr;
    BackupAgeModel *m_backupAge = nullptr;
    QPushButton *m_backupIndicator = nullptr;
    QTimer *m_listRefresh;
    QTimer *m_casesRefresh;
    QAction *m_back = nullptr;
    QAction *m_forward = nullptr;
};

} // namespace rd::ui
