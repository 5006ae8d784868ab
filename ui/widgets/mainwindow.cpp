#include "ui/widgets/mainwindow.h"
#include "ui/widgets/statementimportdialog.h"

#include "ui/actions/caseactions.h"
#include "ui/models/asyncresult.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/lastbackup.h"
#include "ui/models/liveupdates.h"
#include "ui/widgets/auditlogpage.h"
#include "ui/widgets/backupdialog.h"
#include "ui/widgets/buttonaction.h"
#include "ui/widgets/casespage.h"
#include "ui/widgets/closemonthdialog.h"
#include "ui/widgets/connectiondialog.h"
#include "ui/widgets/desknavigator.h"
#include "ui/widgets/deskpages.h"
#include "ui/widgets/finddialog.h"
#include "ui/widgets/helpwindow.h"
#include "ui/widgets/inboxpage.h"
#include "ui/widgets/ledgerpage.h"
#include "ui/widgets/outboxpage.h"
#include "ui/widgets/overviewpage.h"
#include "ui/widgets/paymenttroublepage.h"
#include "ui/widgets/restoredialog.h"
#include "ui/widgets/searchablepage.h"
#include "ui/widgets/statementsdialog.h"
#include "ui/widgets/subscriptionspage.h"
#include "ui/widgets/tableview.h"
#include "ui/widgets/windowplacement.h"

#include "rd_version.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace rd::ui {

MainWindow::MainWindow(const QString &conninfo, const QString &databaseDescription,
    std::unique_ptr<CaseActions> actions, QWidget *parent)
    : QMainWindow(parent)
    , m_conninfo(conninfo)
    , m_description(databaseDescription)
    , m_pool(std::make_unique<DatabasePool>(conninfo))
    , m_actions(actions ? std::move(actions) : makeDomainCaseActions(conninfo))
    , m_nav(new QListWidget)
    , m_stack(new QStackedWidget)
    , m_banner(new QLabel)
    , m_replicaBanner(new QLabel)
    , m_liveLabel(new QLabel)
    , m_roleLabel(new QLabel)
    , m_listRefresh(new QTimer(this))
    , m_casesRefresh(new QTimer(this))
{
    setWindowTitle(tr("Renewal Desk — %1").arg(databaseDescription));
    buildPages();
    buildLayout();
    buildStatusBar();
    buildFileMenu();
    buildViewMenu();
    buildCaseMenu();
    buildLedgerMenu();
    buildHelpMenu();
    connectLinks();
    connectRefreshes();
    connectStatusMessages();
    connectLiveUpdates();
    connectRole();

    updateCasesBadge(0);
    m_navigator->show(m_overview);
    resize(1280, 820);
    restoreLayout();
    m_cases->refresh();
}

void MainWindow::buildPages()
{
    m_overview = new OverviewPage(m_pool.get());
    m_subscriptions = new SubscriptionsPage(m_pool.get());
    m_ledger = new LedgerPage(m_pool.get());
    m_cases = new CasesPage(m_pool.get(), m_actions.get());
    m_paymentTrouble = new PaymentTroublePage(m_pool.get());
    m_auditLog = new AuditLogPage(m_pool.get());
    m_inbox = new InboxPage(m_pool.get());
    m_outbox = new OutboxPage(m_pool.get());

    // The sidebar's order. A page is this one row: its slot, its F1 section (an anchor of
    // docs/user-guide.md), its shortcut; tst_ui_deskpages checks the rows against each other.
    m_pages = new DeskPages(m_nav, m_stack, this);
    m_pages->add({.page = m_overview,
        .title = tr("Overview"),
        .helpAnchor = u"overview"_qs,
        .shortcut = QKeySequence(Qt::CTRL | Qt::Key_1),
        .refresh = [this] { m_overview->refresh(); }});
    m_pages->add({.page = m_subscriptions,
        .title = tr("Subscriptions"),
        .helpAnchor = u"subscriptions"_qs,
        .shortcut = QKeySequence(Qt::CTRL | Qt::Key_2),
        .table = m_subscriptions->table(),
        .refresh = [this] { m_subscriptions->refresh(); },
        .selection = [this] { return m_subscriptions->currentSubscriptionId(); },
        .reselect = [this](const QString &id) { m_subscriptions->openSubscription(id); }});
    m_pages->add({.page = m_ledger,
        .title = tr("Ledger"),
        .helpAnchor = u"ledger"_qs,
        .shortcut = QKeySequence(Qt::CTRL | Qt::Key_3),
        .table = m_ledger->table(),
        .refresh = [this] { m_ledger->refresh(); }});
    m_pages->add({.page = m_cases,
        .title = tr("Cases"),
        .helpAnchor = u"cases"_qs,
        .shortcut = QKeySequence(Qt::CTRL | Qt::Key_4),
        .table = m_cases->table(),
        .refresh = [this] { m_cases->refresh(); },
        .selection =
            [this] {
                const qint64 id = m_cases->currentCase();
                return id != 0 ? QString::number(id) : QString();
            },
        .reselect
        = [this](const QString &id) { m_cases->openCase(id.toLongLong(), /*widen=*/false); }});
    m_pages->add({.page = m_auditLog,
        .title = tr("Audit log"),
        .helpAnchor = u"audit-log"_qs,
        .shortcut = QKeySequence(Qt::CTRL | Qt::Key_5),
        .table = m_auditLog->table(),
        .refresh = [this] { m_auditLog->refresh(); }});
    m_pages->add({.page = m_inbox,
        .title = tr("Inbox"),
        .helpAnchor = u"inbox"_qs,
        .shortcut = QKeySequence(Qt::CTRL | Qt::Key_6),
        .table = m_inbox->table(),
        .refresh = [this] { m_inbox->refresh(); }});
    m_pages->add({.page = m_outbox,
        .title = tr("Outbox"),
        .helpAnchor = u"outbox"_qs,
        .shortcut = QKeySequence(Qt::CTRL | Qt::Key_7),
        .table = m_outbox->table(),
        .refresh = [this] { m_outbox->refresh(); }});
    m_pages->add({.page = m_paymentTrouble,
        .title = tr("Payment trouble"),
        .helpAnchor = u"payment-trouble-and-access"_qs,
        .shortcut = QKeySequence(Qt::CTRL | Qt::Key_8),
        .table = m_paymentTrouble->table(),
        .refresh = [this] { m_paymentTrouble->refresh(); },
        .selection = [this] { return m_paymentTrouble->currentSubscriptionId(); },
        .reselect = [this](const QString &id) { m_paymentTrouble->selectSubscription(id); }});

    m_navigator = new DeskNavigator(m_pages,
        {.subscriptions = m_subscriptions,
            .cases = m_cases,
            .inbox = m_inbox,
            .ledger = m_ledger,
            .outbox = m_outbox,
            .paymentTrouble = m_paymentTrouble},
        this);
    connect(m_navigator, &DeskNavigator::historyChanged, this, &MainWindow::updateHistoryActions);
    connect(m_navigator, &DeskNavigator::arrived, this, &MainWindow::focusMainView);
    // A click on Inbox in the sidebar is "take me to the inbox": its list, not the delivery
    // left open there (the keyboard's arrows only change the page).
    connect(m_pages, &DeskPages::chosen, this, [this](QWidget *page) {
        if (page == m_inbox && m_inbox->isDeliveryOpen())
            m_inbox->closeDelivery();
        // Likewise the Ledger, Subscriptions, Cases and the Inbox: the page as it opens, not the
        // provider and day, reason and age, or outcome an Overview chart (or tile) narrowed it
        // to.
        if (page == m_inbox)
            m_inbox->clearDrillDown();
        if (page == m_cases)
            m_cases->clearDrillDown();
        if (page == m_ledger)
            m_ledger->clearDrillDown();
        if (page == m_subscriptions)
            m_subscriptions->clearDrillDown();
        focusMainView();
    });
}

void MainWindow::buildLayout()
{
    m_nav->setObjectName(u"navigation"_qs);
    QFont navFont = m_nav->font();
    navFont.setPointSizeF(navFont.pointSizeF() * 1.1);
    m_nav->setFont(navFont);
    m_nav->setSpacing(3);
    m_nav->setFixedWidth(m_nav->fontMetrics().horizontalAdvance(u"Subscriptions  (9999)"_qs) + 24);

    m_banner->setObjectName(u"connection-banner"_qs);
    m_banner->setStyleSheet(u"background:#fff4ce; color:#5c4400; padding:4px 8px;"_qs);
    m_banner->hide();
    // Permanent while the desk shows a replica: nothing there can be changed from here.
    m_replicaBanner->setObjectName(u"replica-banner"_qs);
    m_replicaBanner->setStyleSheet(
        u"background:#dbe9f7; color:#12365c; padding:4px 8px; border:1px solid #9fbfe0;"_qs);
    m_replicaBanner->setWordWrap(true);
    m_replicaBanner->hide();

    auto *body = new QHBoxLayout;
    body->addWidget(m_nav);
    body->addWidget(m_stack, 1);
    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addWidget(m_replicaBanner);
    layout->addWidget(m_banner);
    layout->addLayout(body, 1);
    setCentralWidget(central);
}

void MainWindow::buildStatusBar()
{
    // The last backup's age, first of the permanent widgets: amber or red when it is old.
    m_backupIndicator = new QPushButton;
    m_backupIndicator->setObjectName(u"backup-age"_qs);
    m_backupIndicator->setFlat(true);
    m_backupIndicator->setCursor(Qt::PointingHandCursor);
    m_backupIndicator->hide(); // until the log is read (a database without one: never)
    connect(m_backupIndicator, &QPushButton::clicked, this, &MainWindow::showBackup);
    statusBar()->addPermanentWidget(m_backupIndicator);
    statusBar()->addPermanentWidget(m_roleLabel);
    statusBar()->addPermanentWidget(m_liveLabel);
    m_liveLabel->setObjectName(u"live-indicator"_qs);
    m_liveLabel->setText(u"<span style='color:gray'>○ "_qs + tr("connecting") + u"</span>"_qs);

    m_backupAge = new BackupAgeModel(m_pool.get(), this);
    connect(m_backupAge, &BackupAgeModel::changed, this, &MainWindow::showBackupAge);
    m_backupAge->refresh();
}

void MainWindow::buildFileMenu()
{
    auto *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Connect to a database…"), this, [this] {
        const auto dialog = makeConnectionDialog();
        if (dialog->exec() == QDialog::Accepted)
            emit reconnectRequested(dialog->conninfo());
    });
    file->addAction(tr("&Import provider statement…"), this, &MainWindow::showStatementImport);
    file->addSeparator();
    file->addAction(tr("&Back up…"), this, &MainWindow::showBackup)
        ->setObjectName(u"file-backup"_qs);
    file->addAction(tr("&Restore…"), this, &MainWindow::showRestore)
        ->setObjectName(u"file-restore"_qs);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::buildViewMenu()
{
    auto *view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Refresh"), QKeySequence::Refresh, this, &MainWindow::refreshAll);
    view->addAction(tr("&Find in this view"), QKeySequence::Find, this, &MainWindow::findInView);
    view->addAction(tr("Find &anything (any id)…"), QKeySequence(tr("Ctrl+K")), this,
        &MainWindow::findAnything);
    view->addAction(
        tr("&Go to position in the sort order"), QKeySequence(tr("Ctrl+G")), this, [this] {
            showPage(m_subscriptions);
            m_subscriptions->focusPosition();
        });
    view->addAction(tr("Export current table as CSV…"), this, [this] {
        if (auto *table = tableToExport())
            table->exportCsvInteractively();
    });
    view->addSeparator();
    // Alt+Left and Alt+Right as in a browser or file manager, and the mouse's and keyboards'
    // Back and Forward keys.
    m_back = view->addAction(tr("&Back"), this, &MainWindow::goBack);
    m_back->setObjectName(u"go-back"_qs);
    m_back->setShortcuts({QKeySequence(Qt::ALT | Qt::Key_Left), QKeySequence(Qt::Key_Back)});
    m_forward = view->addAction(tr("F&orward"), this, &MainWindow::goForward);
    m_forward->setObjectName(u"go-forward"_qs);
    m_forward->setShortcuts({QKeySequence(Qt::ALT | Qt::Key_Right), QKeySequence(Qt::Key_Forward)});
    updateHistoryActions();
    // The mouse's Back and Forward buttons, wherever in the window (a list would take them);
    // and the desk's dialogs closing (returnFocusAfterWindow).
    qApp->installEventFilter(this);
    // Every page by its shortcut, as the sidebar would show it.
    view->addSeparator();
    for (const DeskPage &row : m_pages->rows()) {
        QWidget *page = row.page;
        view->addAction(row.title, row.shortcut, this, [this, page] { showPage(page); })
            ->setObjectName(u"go-to-"_qs + row.helpAnchor);
    }
}

void MainWindow::buildCaseMenu()
{
    // The Cases page's actions, with their shortcuts: the buttons decide when each is possible.
    auto *caseMenu = menuBar()->addMenu(tr("&Case"));
    caseMenu->setObjectName(u"case-menu"_qs);
    caseMenu->setToolTipsVisible(true); // why an entry is disabled, as on its button
    caseMenu->addActions(m_cases->caseActions());
    connect(caseMenu, &QMenu::aboutToShow, this, [this] {
        for (QAction *action : m_cases->caseActions())
            if (auto *follows = qobject_cast<ButtonAction *>(action))
                follows->sync();
    });
}

void MainWindow::buildLedgerMenu()
{
    auto *ledger = menuBar()->addMenu(tr("&Ledger"));
    ledger->addAction(tr("&Statements…"), this, &MainWindow::showStatements);
    ledger->addAction(tr("&Close month…"), this, &MainWindow::showCloseMonth);
}

void MainWindow::buildHelpMenu()
{
    auto *help = menuBar()->addMenu(tr("&Help"));
    // F1 opens the user guide at the shown page's section (its row's help anchor).
    help->addAction(tr("&User guide"), QKeySequence(Qt::Key_F1), this,
            [this] { HelpWindow::showFor(this, m_pages->helpAnchorOf(m_pages->current())); })
        ->setObjectName(u"help-user-guide"_qs);
    help->addAction(tr("&Keyboard shortcuts"), QKeySequence(Qt::CTRL | Qt::Key_F1), this,
        &MainWindow::showKeyboardShortcuts);
    help->addAction(tr("&About Renewal Desk"), this, &MainWindow::showAbout);
}

void MainWindow::connectLinks()
{
    // Every view's links to a subscription, a case or a delivery land the same way, through the
    // navigator: each is a place of the history (Back returns to where it was followed).
    DeskNavigator *to = m_navigator;
    connect(m_cases, &CasesPage::subscriptionOpenRequested, to, &DeskNavigator::openSubscription);
    connect(m_subscriptions, &SubscriptionsPage::caseOpenRequested, to, &DeskNavigator::openCase);
    // An inbox delivery's links: its case, and the subscription of its billing period.
    connect(m_inbox, &InboxPage::caseOpenRequested, to, &DeskNavigator::openCase);
    connect(m_inbox, &InboxPage::subscriptionOpenRequested, to, &DeskNavigator::openSubscription);
    connect(m_ledger, &LedgerPage::subscriptionOpenRequested, to, &DeskNavigator::openSubscription);
    connect(m_paymentTrouble, &PaymentTroublePage::subscriptionOpenRequested, to,
        &DeskNavigator::openSubscription);
    // The Overview's figures and bars open the list behind them.
    connect(m_overview, &OverviewPage::openCasesRequested, to, &DeskNavigator::showOpenCases);
    connect(m_overview, &OverviewPage::caseOpenRequested, to, &DeskNavigator::openOpenCase);
    connect(m_overview, &OverviewPage::casesOfDayRequested, to, &DeskNavigator::showCasesOfDay);
    connect(m_overview, &OverviewPage::ledgerRequested, to, &DeskNavigator::showLedgerPaid);
    connect(m_overview, &OverviewPage::inboxRequested, to, &DeskNavigator::showInbox);
    connect(m_overview, &OverviewPage::overdueRequested, to, &DeskNavigator::showOverdue);
    connect(
        m_overview, &OverviewPage::paymentTroubleRequested, to, &DeskNavigator::showPaymentTrouble);
    connect(m_overview, &OverviewPage::outboxRequested, to, &DeskNavigator::showOutbox);
    connect(m_overview, &OverviewPage::backupRequested, this, &MainWindow::showBackup);
    // An audit log row opens its subscription or its case; so does a broken link.
    connect(m_auditLog, &AuditLogPage::caseOpenRequested, to, &DeskNavigator::openCase);
    connect(
        m_auditLog, &AuditLogPage::subscriptionOpenRequested, to, &DeskNavigator::openSubscription);
    connect(
        m_auditLog, &AuditLogPage::auditRecordOpenRequested, to, &DeskNavigator::openAuditRecord);
}

void MainWindow::connectRefreshes()
{
    m_listRefresh->setSingleShot(true);
    m_listRefresh->setInterval(300);
    m_casesRefresh->setSingleShot(true);
    m_casesRefresh->setInterval(300);
    connect(m_listRefresh, &QTimer::timeout, m_subscriptions->model(), &PagedTableModel::refresh);
    // Every renewal changes a subscription: the Ledger's list and totals follow as well.
    connect(m_listRefresh, &QTimer::timeout, m_ledger, &LedgerPage::dataChanged);
    connect(m_casesRefresh, &QTimer::timeout, m_cases, &CasesPage::refresh);
    // The audit log follows both: a renewal writes an audit, a case action or note an entry.
    connect(m_listRefresh, &QTimer::timeout, m_auditLog, &AuditLogPage::dataChanged);
    // A failed payment, a standing, an extension or a renewal changes a subscription: its
    // verdict may have moved.
    connect(m_listRefresh, &QTimer::timeout, m_paymentTrouble, &PaymentTroublePage::refresh);
    connect(m_paymentTrouble, &PaymentTroublePage::actionFinished, this, [this] {
        m_listRefresh->start();
        m_overview->refresh();
        if (!m_subscriptions->currentSubscriptionId().isEmpty())
            m_subscriptions->subscriptionChanged(m_subscriptions->currentSubscriptionId());
    });
    connect(m_casesRefresh, &QTimer::timeout, m_auditLog, &AuditLogPage::dataChanged);

    connect(m_cases, &CasesPage::openCountChanged, this, &MainWindow::updateCasesBadge);
    connect(m_cases, &CasesPage::actionFinished, this, [this] {
        m_listRefresh->start();
        if (!m_subscriptions->currentSubscriptionId().isEmpty())
            m_subscriptions->subscriptionChanged(m_subscriptions->currentSubscriptionId());
    });
}

void MainWindow::connectStatusMessages()
{
    auto show = [this](const QString &m) { statusBar()->showMessage(m, 8000); };
    connect(m_auditLog, &AuditLogPage::statusMessage, this, show);
    connect(m_ledger, &LedgerPage::statusMessage, this, show);
    connect(m_subscriptions, &SubscriptionsPage::statusMessage, this, show);
    connect(m_cases, &CasesPage::statusMessage, this, show);
    connect(m_outbox, &OutboxPage::statusMessage, this, show);
    connect(m_inbox, &InboxPage::statusMessage, this, show);
    connect(m_overview, &OverviewPage::statusMessage, this, show);
    connect(m_paymentTrouble, &PaymentTroublePage::statusMessage, this, show);
    for (TableView *table : findChildren<TableView *>())
        connect(table, &TableView::exported, this, show);
}

void MainWindow::connectLiveUpdates()
{
    m_live = new LiveUpdates(m_conninfo, this);
    connect(m_live, &LiveUpdates::subscriptionChanged, this, [this](const QString &id) {
        m_listRefresh->start();
        m_subscriptions->subscriptionChanged(id);
    });
    connect(m_live, &LiveUpdates::subscriptionsChanged, m_listRefresh, qOverload<>(&QTimer::start));
    connect(m_live, &LiveUpdates::caseChanged, m_casesRefresh, qOverload<>(&QTimer::start));
    connect(m_live, &LiveUpdates::connectionLost, this, [this](const QString &reason) {
        m_banner->setText(tr("The database is not answering (%1). Reconnecting automatically; "
                             "what you see may be out of date.")
                              .arg(reason.isEmpty() ? tr("connection lost") : reason));
        m_banner->show();
        m_liveLabel->setText(u"<span style='color:#b02020'>○ "_qs + tr("offline") + u"</span>"_qs);
        m_liveLabel->setToolTip(tr("Not following changes until the database answers again."));
    });
    connect(m_live, &LiveUpdates::connectionRestored, this, [this] {
        const bool wasLost = !m_banner->isHidden();
        m_banner->hide();
        showLive();
        if (wasLost)
            refreshAll();
    });
    connect(m_live, &LiveUpdates::standbyChanged, this, &MainWindow::setOnReplica);
    connect(m_live, &LiveUpdates::standbyReplayed, this, [this](const QDateTime &at) {
        m_lastReplayed = at;
        if (m_live->isConnected())
            m_liveLabel->setToolTip(liveToolTip(m_onReplica, m_lastReplayed));
    });
}

void MainWindow::connectRole()
{
    connect(m_cases, &CasesPage::openCountChanged, this, [this] {
        if (m_onReplica || m_cases->isOnReplica()) {
            m_roleLabel->setText(tr("read-only replica"));
            m_roleLabel->setToolTip(m_cases->actionsBlockedReason());
            m_inbox->setActionsAllowed(false, m_cases->actionsBlockedReason());
            m_paymentTrouble->setActionsAllowed(false, m_cases->actionsBlockedReason());
            return;
        }
        m_roleLabel->setText(m_cases->canOperate() ? tr("operator") : tr("viewer"));
        m_inbox->setActionsAllowed(m_cases->canOperate(),
            tr("Your database role may only look: marking a delivery reviewed or re-running it "
               "needs renewal_operator."));
        m_paymentTrouble->setActionsAllowed(m_cases->canOperate(),
            tr("Your database role may only look: extending a subscription's grace needs "
               "renewal_operator."));
        m_roleLabel->setToolTip(m_cases->canOperate() ? tr("Your database role may act on cases.")
                                                      : tr("Your database role may only look."));
    });
}

MainWindow::~MainWindow()
{
    // The pages (and their models and watchers) go first, then the listener, and the pool and
    // the actions last (members are destroyed after this body, children of a QWidget only in
    // ~QWidget, which would be after the pool).
    delete takeCentralWidget();
    delete m_live;
    m_live = nullptr;
}

QString MainWindow::liveToolTip(bool replica, const QDateTime &lastReplayed)
{
    QString tip = tr("Overview, Subscriptions, Ledger, Cases, Inbox and Outbox follow changes made "
                     "anywhere as they happen.");
    if (replica) {
        tip += u"\n"_qs
            + tr("Replica: a read-only hot standby. Its changes come from the primary by "
                 "streaming replication; the desk looks for them every 2 s (a standby gets no "
                 "notifications).");
        tip += u"\n"_qs
            + (lastReplayed.isValid()
                    ? tr("Newest change replayed: committed on the primary %1 (%2 UTC).")
                          .arg(format::localDateTime(lastReplayed),
                              lastReplayed.toUTC().toString(u"yyyy-MM-dd HH:mm:ss"_qs))
                    : tr("No change replayed since the standby started."));
    }
    return tip;
}

void MainWindow::showLive()
{
    m_liveLabel->setText(u"<span style='color:#1b6e20'>● "_qs
        + (m_onReplica ? tr("live · replica") : tr("live")) + u"</span>"_qs);
    m_liveLabel->setToolTip(liveToolTip(m_onReplica, m_lastReplayed));
}

void MainWindow::setOnReplica(bool replica)
{
    m_onReplica = replica;
    m_replicaBanner->setText(u"<b>"_qs + tr("Read-only replica — actions disabled.") + u"</b> "_qs
        + tr("This desk shows a hot standby of the database: browse, search and export as "
             "usual; to act on cases, connect to the primary (File › Connect…).")
              .toHtmlEscaped());
    m_replicaBanner->setVisible(replica);
    setWindowTitle(replica ? tr("Renewal Desk — %1 — read-only replica").arg(m_description)
                           : tr("Renewal Desk — %1").arg(m_description));
    showLive();
    // The Cases page reads the server's state with its queue: its buttons follow.
    m_cases->refresh();
}

QFuture<MainWindow::DatabaseFacts> MainWindow::readDatabaseFacts() const
{
    return m_pool->call(&loadDatabaseFacts);
}

QString MainWindow::aboutText(const DatabaseFacts &facts, const QString &error) const
{
    const QString reading = error.isEmpty() ? tr("reading…") : tr("unknown (%1)").arg(error);
    const QString server = facts.serverVersion.isEmpty() ? reading : facts.serverVersion;
    QString schema = facts.schemaVersion;
    if (schema.isEmpty())
        schema = facts.serverVersion.isEmpty() ? reading : tr("no migrations recorded");
    return tr("<h3>Renewal Desk %1</h3>"
              "<p>Subscription renewals and their reconciliation.</p>"
              "<table>"
              "<tr><td>Qt</td><td>%2 (built with %3)</td></tr>"
              "<tr><td>Database</td><td>%4</td></tr>"
              "<tr><td>PostgreSQL server</td><td>%5</td></tr>"
              "<tr><td>Schema (newest migration)</td><td>%6</td></tr>"
              "</table>")
        .arg(QString::fromLatin1(RD_VERSION), QString::fromLatin1(qVersion()),
            QString::fromLatin1(QT_VERSION_STR), m_description.toHtmlEscaped(),
            server.toHtmlEscaped(), schema.toHtmlEscaped());
}

void MainWindow::showAbout()
{
    auto *box = new QMessageBox(
        QMessageBox::Information, tr("About Renewal Desk"), aboutText({}), QMessageBox::Ok, this);
    box->setObjectName(u"about-box"_qs);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextFormat(Qt::RichText);
    deliverResult(
        box, readDatabaseFacts(),
        [this, box](const DatabaseFacts &facts) { box->setText(aboutText(facts)); },
        [this, box](const QString &message) { box->setText(aboutText({}, message)); });
    box->open();
}

std::unique_ptr<ConnectionDialog> MainWindow::makeConnectionDialog()
{
    // The embedded cluster's conninfo names its socket directory: shown as a host, it read as
    // "some server", with "embedded" unchecked.
    return std::make_unique<ConnectionDialog>(m_onEmbedded ? QString() : m_conninfo, this);
}

TableView *MainWindow::tableToExport() const
{
    QWidget *page = m_stack->currentWidget();
    // The table that has focus (or holds the widget that has), when it is on the current page
    // and shown; never a table on a hidden tab.
    for (QWidget *w = focusWidget(); w; w = w->parentWidget()) {
        if (auto *table = qobject_cast<TableView *>(w)) {
            if (page->isAncestorOf(table) && table->isVisibleTo(page))
                return table;
            break;
        }
    }
    const DeskPage *row = m_pages->find(page);
    return row ? row->table : nullptr;
}

FindDialog *MainWindow::findAnything()
{
    if (!m_find) {
        m_find = new FindDialog(m_pool.get(), this);
        connect(m_find, &FindDialog::chosen, this, &MainWindow::openFound);
    }
    m_find->show();
    m_find->raise();
    m_find->activateWindow();
    return m_find;
}

StatementsDialog *MainWindow::showStatements()
{
    if (!m_statements) {
        m_statements = new StatementsDialog(m_pool.get(), this);
        connect(m_statements, &StatementsDialog::chosen, this, &MainWindow::openFound);
        connect(m_statements, &StatementsDialog::importRequested, this,
            &MainWindow::showStatementImport);
    } else {
        m_statements->reload();
    }
    m_statements->show();
    m_statements->raise();
    return m_statements;
}

void MainWindow::showStatementImport()
{
    StatementImportDialog dialog(m_conninfo, m_pool.get(), this);
    connect(&dialog, &StatementImportDialog::imported, this, [this] {
        refreshAll();
        if (m_statements)
            m_statements->reload();
    });
    dialog.exec();
}

CloseMonthDialog *MainWindow::showCloseMonth()
{
    if (!m_closeMonth) {
        m_closeMonth = new CloseMonthDialog(m_pool.get(), this);
        connect(m_closeMonth, &CloseMonthDialog::monthClosed, this, [this] {
            m_ledger->dataChanged();
            m_overview->refresh();
        });
        connect(m_closeMonth, &CloseMonthDialog::caseOpenRequested, m_navigator,
            &DeskNavigator::openCase);
    }
    // The provider in view on the Ledger, and its month when the Ledger shows one whole month.
    const LedgerFilter inView = m_ledger->filter();
    const bool oneMonth
        = inView.from.isValid() && inView.from.day() == 1 && inView.to == inView.from.addMonths(1);
    m_closeMonth->showFor(inView.provider, oneMonth ? inView.from : QDate());
    m_closeMonth->show();
    m_closeMonth->raise();
    return m_closeMonth;
}

BackupDialog *MainWindow::showBackup()
{
    if (!m_backup) {
        m_backup = new BackupDialog(m_conninfo, this);
        connect(m_backup, &BackupDialog::backupCompleted, m_backupAge, &BackupAgeModel::refresh);
        connect(m_backup, &BackupDialog::warnAfterDaysChanged, this, &MainWindow::showBackupAge);
    }
    m_backup->show();
    m_backup->raise();
    m_backup->activateWindow();
    return m_backup;
}

RestoreDialog *MainWindow::showRestore()
{
    auto *dialog = new RestoreDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // A verified copy opened at once, as File › Connect… would (saved for the next start).
    connect(dialog, &RestoreDialog::openRequested, this, &MainWindow::reconnectRequested);
    dialog->show();
    return dialog;
}

void MainWindow::showBackupAge()
{
    const BackupAgeStatus status = m_backupAge->status();
    m_overview->setBackupAge(status);
    m_backupIndicator->setVisible(status.level != BackupAgeStatus::Level::Unknown);
    m_backupIndicator->setText(status.text);
    m_backupIndicator->setToolTip(status.toolTip + u"\n"_qs + tr("Click to back up now."));
    // Amber when old, red when there is none: both ask for File › Back up….
    const bool red = status.level == BackupAgeStatus::Level::None
        || status.level == BackupAgeStatus::Level::Broken;
    const QString color = red                         ? u"#b02020"_qs
        : status.level == BackupAgeStatus::Level::Old ? u"#8a5a00"_qs
                                                      : u"palette(text)"_qs;
    const QString background = status.level == BackupAgeStatus::Level::Old ? u"#fff4ce"_qs
        : red                                                              ? u"#fde7e7"_qs
                                                                           : u"transparent"_qs;
    m_backupIndicator->setStyleSheet(
        u"QPushButton { border: none; padding: 1px 6px; color: %1; background: %2; %3 }"
        "QPushButton:hover { text-decoration: underline; }"_qs.arg(
            color, background, status.warning() ? u"font-weight: bold;"_qs : QString()));
}

void MainWindow::openFound(const FoundItem &item)
{
    m_navigator->openFound(item);
    statusBar()->showMessage(tr("Opened %1 (found by %2).").arg(item.title, item.matchedBy), 8000);
}

bool MainWindow::findInView()
{
    // The page shown searches itself: Subscriptions by id, Cases by subscription id, the Inbox
    // by event id or delivery number.
    if (auto *page = dynamic_cast<SearchablePage *>(m_stack->currentWidget())) {
        page->focusSearch();
        return true;
    }
    statusBar()->showMessage(
        tr("This view has no search: Subscriptions, Cases and Inbox do."), 8000);
    return false;
}

void MainWindow::showPage(const QWidget *page)
{
    m_navigator->show(page);
}

const NavigationHistory &MainWindow::history() const
{
    return m_navigator->history();
}

void MainWindow::goBack()
{
    m_navigator->goBack();
}

void MainWindow::goForward()
{
    m_navigator->goForward();
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Hide && watched->isWidgetType()) {
        // A dialog (modal or not) or a window of the desk's closing: once it is gone, and
        // whatever it opened is shown. Popups and tooltips are no such window.
        const auto *closing = static_cast<QWidget *>(watched);
        const Qt::WindowType type = closing->windowType();
        if (closing->isWindow() && (type == Qt::Dialog || type == Qt::Window || type == Qt::Sheet)
            && closing->parentWidget() && closing->parentWidget()->window() == this)
            QTimer::singleShot(0, this, &MainWindow::returnFocusAfterWindow);
    }
    if (event->type() == QEvent::MouseButtonPress && watched->isWidgetType()
        && static_cast<QWidget *>(watched)->window() == this) {
        const auto button = static_cast<QMouseEvent *>(event)->button();
        if (button == Qt::BackButton || button == Qt::ForwardButton) {
            button == Qt::BackButton ? goBack() : goForward();
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

QWidget *MainWindow::mainView() const
{
    QWidget *page = m_stack->currentWidget();
    const DeskPage *row = m_pages->find(page);
    if (row && row->table && row->table->isVisibleTo(page))
        return row->table;
    return page;
}

void MainWindow::focusMainView()
{
    // The window first: a dialog that hid (Find anything) leaves no window active on a
    // platform whose window manager does not give it back, and no shortcut works without one.
    if (!isActiveWindow() && isVisible()) {
        raise();
        activateWindow();
    }
    if (QWidget *view = mainView())
        view->setFocus(Qt::OtherFocusReason);
}

void MainWindow::returnFocusAfterWindow()
{
    if (!isVisible() || QApplication::activeModalWidget())
        return; // another dialog is still up (a message box over a dialog)
    const QWidget *active = QApplication::activeWindow();
    if (active && active != this)
        return; // the person is in another window of the desk (the Statements, the guide)
    // A focus on the shown page that a dialog's outcome put there stays (Return in a search
    // box opened its first match); anything else (a button of a panel, a hidden widget, no
    // focus at all) gives way to the main view.
    const QWidget *focus = QApplication::focusWidget();
    const QWidget *view = mainView();
    if (active == this && focus && focus->isVisible() && view && view->isAncestorOf(focus))
        return;
    focusMainView();
}

void MainWindow::updateHistoryActions()
{
    if (m_back)
        m_back->setEnabled(history().canGoBack());
    if (m_forward)
        m_forward->setEnabled(history().canGoForward());
}

QList<QPair<QString, QString>> MainWindow::keyboardShortcuts() const
{
    // Read from the menus: a shortcut added or changed shows here by itself.
    QList<QPair<QString, QString>> list;
    for (QAction *top : menuBar()->actions()) {
        const QMenu *menu = top->menu();
        if (!menu)
            continue;
        const QString title = menu->title().remove(u'&');
        for (QAction *action : menu->actions()) {
            if (action->isSeparator() || action->shortcuts().isEmpty())
                continue;
            QStringList keys;
            for (const QKeySequence &k : action->shortcuts())
                keys << k.toString(QKeySequence::NativeText);
            QString text = action->text();
            text.replace(u"&&"_qs, u"\x01"_qs).remove(u'&').replace(u'\x01', u'&');
            list.append({keys.join(tr(" or ")), title + u" › "_qs + text});
        }
    }
    // Keys of the lists and dialogs themselves (no menu entry stands for them).
    list.append({tr("Enter"), tr("In a list: open the selected row (a case: its subscription)")});
    list.append({QKeySequence(QKeySequence::Copy).toString(QKeySequence::NativeText),
        tr("In a list: copy the selected rows (tab-separated, with a header)")});
    list.append({tr("Tab, Shift+Tab"),
        tr("Next, previous control (out of a list; the arrows move within it)")});
    list.append({tr("Ctrl+Return"), tr("In a note or comment: submit the dialog")});
    list.append({tr("Return"), tr("In a search box: open the first match")});
    return list;
}

void MainWindow::showKeyboardShortcuts()
{
    auto *dialog = new QDialog(this);
    dialog->setObjectName(u"keyboard-shortcuts"_qs);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Keyboard shortcuts"));
    const auto list = keyboardShortcuts();
    auto *table = new QTableWidget(int(list.size()), 2);
    table->setHorizontalHeaderLabels({tr("Keys"), tr("Does")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setTabKeyNavigation(false);
    table->setWordWrap(false);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    for (int r = 0; r < list.size(); ++r) {
        table->setItem(r, 0, new QTableWidgetItem(list[r].first));
        table->setItem(r, 1, new QTableWidgetItem(list[r].second));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(box, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    // Esc closes it from the list too (a table keeps Esc for itself).
    auto *close = new QShortcut(QKeySequence(Qt::Key_Escape), dialog);
    connect(close, &QShortcut::activated, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    layout->addWidget(box);
    // Whole when there is room, else within the desk's window (at 1024×700 it ran off the
    // screen, its Close button with it): the list scrolls.
    placeOnOwner(dialog, this,
        QSize(table->horizontalHeader()->length() + 60, table->verticalHeader()->length() + 120),
        /*withinOwner=*/true);
    dialog->show();
}

void MainWindow::refreshAll()
{
    for (const DeskPage &row : m_pages->rows())
        row.refresh();
    m_backupAge->refresh();
}

void MainWindow::updateCasesBadge(int openCases)
{
    QListWidgetItem *item = m_pages->sidebarItem(m_cases);
    QFont f = m_nav->font();
    if (openCases > 0) {
        item->setText(tr("Cases  (%1)").arg(openCases));
        item->setForeground(QColor(0xb0, 0x20, 0x20));
        f.setBold(true);
        item->setToolTip(
            tr("%n open reconciliation case(s) waiting for a decision", nullptr, openCases));
    } else {
        item->setText(tr("Cases"));
        item->setForeground(QBrush());
        item->setToolTip(tr("No open reconciliation cases"));
    }
    item->setFont(f);
}

void MainWindow::restoreLayout()
{
    QSettings s;
    if (const QByteArray g = s.value(u"window/geometry"_qs).toByteArray(); !g.isEmpty())
        restoreGeometry(g);
    for (auto *splitter : findChildren<QSplitter *>()) {
        const QByteArray state = s.value(u"splitters/"_qs + splitter->objectName()).toByteArray();
        if (!state.isEmpty())
            splitter->restoreState(state);
    }
    for (auto *table : findChildren<TableView *>()) {
        const QByteArray state = s.value(u"tables/"_qs + table->objectName()).toByteArray();
        if (!state.isEmpty()) {
            table->horizontalHeader()->restoreState(state);
            table->setColumnsFitted(true);
        }
    }
}

void MainWindow::saveLayout()
{
    QSettings s;
    s.setValue(u"window/geometry"_qs, saveGeometry());
    for (auto *splitter : findChildren<QSplitter *>()) {
        if (!splitter->objectName().isEmpty())
            s.setValue(u"splitters/"_qs + splitter->objectName(), splitter->saveState());
    }
    for (auto *table : findChildren<TableView *>()) {
        if (!table->objectName().isEmpty() && table->model())
            s.setValue(u"tables/"_qs + table->objectName(), table->horizontalHeader()->saveState());
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveLayout();
    QMainWindow::closeEvent(event);
}

} // namespace rd::ui
