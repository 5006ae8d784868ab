#include "app/renewal-desk/screenshotrunner.h"

#include "ui/actions/bulkcaserun.h"
#include "ui/models/pagedtablemodel.h"
#include "ui/models/records.h"
#include "ui/models/recordtablemodel.h"
#include "ui/models/subscriptionsmodel.h"
#include "ui/widgets/auditlogpage.h"
#include "ui/widgets/backupdialog.h"
#include "ui/widgets/bulkcasedialog.h"
#include "ui/widgets/casespage.h"
#include "ui/widgets/closemonthdialog.h"
#include "ui/widgets/connectiondialog.h"
#include "ui/widgets/deliveryview.h"
#include "ui/widgets/desknavigator.h"
#include "ui/widgets/extendgracedialog.h"
#include "ui/widgets/finddialog.h"
#include "ui/widgets/inboxpage.h"
#include "ui/widgets/ledgerpage.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/outboxpage.h"
#include "ui/widgets/overviewpage.h"
#include "ui/widgets/paymenttroublepage.h"
#include "ui/widgets/restoredialog.h"
#include "ui/widgets/statementsdialog.h"
#include "ui/widgets/subscriptiondetailwidget.h"
#include "ui/widgets/subscriptionspage.h"
#include "ui/widgets/tableview.h"

#include <QApplication>
#include <QCheckBox>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>

#include <algorithm>
#include <utility>

using rd::ui::MainWindow;
using rd::ui::Role;
using rd::ui::RowRef;
using rd::ui::SubscriptionsModel;
using rd::ui::TableView;

namespace {

/// Lets the window load and paint for `msecs`: the pages read off the GUI thread.
void settle(int msecs)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < msecs)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
}

} // namespace

bool saveScreenshots(MainWindow &window, const QString &dir)
{
    QDir().mkpath(dir);
    bool ok = true;
    settle(1500);
    // The Overview, the page the desk opens on: tiles and charts, read off the GUI thread.
    window.showPage(window.overviewPage());
    for (int waited = 0; !window.overviewPage()->isLoaded() && waited < 10000; waited += 100)
        settle(100);
    settle(300);
    ok &= window.grab().save(dir + u"/overview.png"_qs);
    // The subscriptions view with the first subscription that has an open case, if any.
    window.showPage(window.subscriptionsPage());
    auto *table = window.subscriptionsPage()->table();
    int pick = 0;
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        if (table->model()
                ->index(r, SubscriptionsModel::OpenCasesColumn)
                .data(int(Role::Raw))
                .toLongLong()
            > 0) {
            pick = r;
            break;
        }
    }
    if (table->model()->rowCount() > 0)
        table->selectRow(pick);
    settle(1200);
    ok &= window.grab().save(dir + u"/subscriptions.png"_qs);
    window.subscriptionsPage()->detail()->showTab(1);
    if (auto *audits
        = window.subscriptionsPage()->detail()->findChild<TableView *>(u"audit-trail"_qs);
        audits && audits->model()->rowCount() > 0)
        audits->selectRow(0);
    settle(300);
    ok &= window.grab().save(dir + u"/subscription-audit.png"_qs);
    window.subscriptionsPage()->detail()->showTab(0);
    // Ctrl+F with a fragment from the middle of the shown subscription's id, as pasted.
    if (table->model()->rowCount() > 0) {
        const QString id = table->model()
                               ->index(pick, SubscriptionsModel::SubscriptionColumn)
                               .data(int(Role::Raw))
                               .toString();
        window.findInView();
        window.subscriptionsPage()->searchBox()->setText(id.mid(id.size() / 3, 5));
        settle(1200);
        ok &= window.grab().save(dir + u"/subscriptions-search.png"_qs);
        window.subscriptionsPage()->searchBox()->clear();
        settle(600);
    }
    // The Overview's Overdue tile clicked: the overdue subscriptions with their next step. The
    // button is looked up after the page settled: a reload replaces the tile's buttons.
    window.showPage(window.overviewPage());
    settle(300);
    if (auto *overdue = window.overviewPage()->findChild<QPushButton *>(u"overdue-count"_qs)) {
        overdue->click();
        settle(1200);
        ok &= window.grab().save(dir + u"/subscriptions-overdue.png"_qs);
        window.subscriptionsPage()->overdueFilter()->setChecked(false);
        settle(600);
    }
    // The cases view twice: a payload conflict and a period that does not continue.
    // The ledger over this year's renewals, with its totals by month and by provider.
    window.showPage(window.ledgerPage());
    settle(800);
    ok &= window.grab().save(dir + u"/ledger.png"_qs);
    window.showPage(window.casesPage());
    auto *cases = window.casesPage()->table()->model();
    auto *casesPage = window.casesPage();
    // The demo's cases are days to weeks old: the "older than" marker is shown with a
    // threshold (not remembered) that about half of them pass, as the queue's box then says.
    {
        QVector<qint64> opened;
        const auto *queue = casesPage->model();
        for (int r = 0; r < queue->rowCount(); ++r)
            opened << queue->row(r)[rd::ui::CasesPage::FirstSeen].toLongLong();
        std::sort(opened.begin(), opened.end());
        if (!opened.isEmpty()) {
            const qint64 nowMicros = QDateTime::currentMSecsSinceEpoch() * 1000;
            // Whole days (or hours, for younger cases), as a person would set it.
            const qint64 median = (nowMicros - opened[opened.size() / 2]) / 1000000;
            const qint64 unit = median >= 2 * 86400 ? 86400 : 3600;
            casesPage->setMarkAgedAfterSecs(std::max<qint64>(unit, median / unit * unit), false);
        }
    }
    for (const auto &[code, file] :
        {std::pair {u"provider_renewal_key_payload_conflict"_qs, u"/cases.png"_qs},
            std::pair {u"renewal_period_is_not_contiguous"_qs, u"/cases-gap.png"_qs}}) {
        // The most repeated case of that kind.
        int pick = -1;
        for (int r = 0; r < cases->rowCount(); ++r) {
            if (cases->index(r, 1).data(int(Role::Raw)).toString() != code)
                continue;
            if (pick < 0
                || cases->index(r, 6).data(int(Role::Raw)).toLongLong()
                    > cases->index(pick, 6).data(int(Role::Raw)).toLongLong())
                pick = r;
        }
        if (pick >= 0)
            window.casesPage()->table()->selectRow(pick);
        settle(400);
        // The first one claimed by the desk's login role (claim_case), as support would.
        if (pick >= 0 && file == u"/cases.png"_qs && casesPage->canOperate()) {
            casesPage->runAction(rd::ui::CaseActions::Action::Claim, {}, {});
            settle(1200);
        }
        ok &= window.grab().save(dir + file);
    }
    // The gap case's subscription, opened from the case: its timeline shows the gap.
    // By name, not by its text: the screenshots are taken in every language.
    for (auto *button :
        window.casesPage()->findChildren<QPushButton *>(u"case-open-subscription"_qs)) {
        if (button->isEnabled()) {
            button->click();
            settle(1200);
            ok &= window.grab().save(dir + u"/subscription-gap.png"_qs);
            window.showPage(window.casesPage());
            break;
        }
    }
    // A closed case with its history under the evidence (every case listed: Show › All).
    window.casesPage()->setScope(rd::ui::CasesPage::Scope::All);
    settle(800);
    {
        const auto *all = window.casesPage()->model();
        int pick = -1;
        for (int r = 0; r < all->rowCount() && pick < 0; ++r) {
            if (!all->row(r)[rd::ui::CasesPage::IsOpen].toBool())
                pick = r;
        }
        if (all->rowCount() > 0)
            window.casesPage()->table()->selectRow(std::max(pick, 0));
        settle(600);
        ok &= window.grab().save(dir + u"/cases-history.png"_qs);
    }
    window.casesPage()->setScope(rd::ui::CasesPage::Scope::Open);
    settle(300);
    // The audit log, its chains verified, a renewal selected (its before → after beside it).
    {
        window.showPage(window.auditLogPage());
        auto *log = window.auditLogPage();
        log->verify();
        QElapsedTimer waited;
        waited.start();
        while (log->verifier()->isRunning() && waited.elapsed() < 30000)
            QApplication::processEvents(QEventLoop::AllEvents, 20);
        settle(400);
        const auto *rows = log->model();
        for (int r = 0; r < rows->loadedRows(); ++r) {
            const RowRef row = rows->row(r);
            if (row && row[rd::ui::auditlog::What].toString() == u"subscription_renewed") {
                log->table()->selectRow(r);
                break;
            }
        }
        settle(400);
        ok &= window.grab().save(dir + u"/audit-log.png"_qs);
    }
    window.showPage(window.inboxPage());
    settle(400);
    ok &= window.grab().save(dir + u"/inbox.png"_qs);
    // An opened delivery (Enter on its row): a rejected one, its case and subscription linked,
    // else the newest; and one whose body is not JSON, in hex, when the inbox has one.
    {
        auto *inbox = window.inboxPage();
        const auto *deliveries = inbox->model();
        const auto open = [&](int row) {
            inbox->table()->setFocus();
            inbox->table()->selectRow(row);
            QKeyEvent enter(QEvent::KeyPress, Qt::Key_Return, Qt::NoModifier);
            QApplication::sendEvent(inbox->table(), &enter);
            settle(800);
        };
        QVector<int> rejected;
        QVector<int> invalid;
        for (int r = 0; r < deliveries->rowCount(); ++r) {
            const RowRef row = deliveries->row(r);
            const QString outcome = row ? row[rd::ui::InboxPage::Outcome].toString() : QString();
            // A rejection whose subscription the desk has: both links lead somewhere.
            if (outcome == u"rejected"
                && row[rd::ui::InboxPage::Error].toString() != u"subscription_not_found")
                rejected << r;
            else if (outcome == u"invalid")
                invalid << r;
        }
        if (deliveries->rowCount() > 0) {
            open(rejected.isEmpty() ? 0 : rejected.first());
            ok &= window.grab().save(dir + u"/inbox-delivery.png"_qs);
            inbox->closeDelivery();
        }
        for (int i = 0; i < std::min<int>(5, int(invalid.size())); ++i) {
            open(invalid[i]);
            const bool hex
                = inbox->deliveryView()->delivery().body.kind == rd::ui::BodyDisplay::Kind::Hex;
            if (hex)
                ok &= window.grab().save(dir + u"/inbox-delivery-hex.png"_qs);
            inbox->closeDelivery();
            if (hex)
                break;
        }
    }
    // Find anything (Ctrl+K) with a webhook renewal's provider event id pasted: the event is
    // kept by its billing period and by its inbox delivery, so both are listed to choose from.
    {
        QString eventId;
        const auto *deliveries = window.inboxPage()->model();
        // A Stripe event id (what support is handed most), else any applied delivery's.
        for (int r = 0; r < deliveries->rowCount(); ++r) {
            const RowRef row = deliveries->row(r);
            if (!row || row[rd::ui::InboxPage::Outcome].toString() != u"applied")
                continue;
            const QString id = row[rd::ui::InboxPage::EventId].toString();
            if (eventId.isEmpty() || (id.startsWith(u"evt_") && !eventId.startsWith(u"evt_")))
                eventId = id;
        }
        window.showPage(window.subscriptionsPage());
        auto *find = window.findAnything();
        find->resize(std::min(760, window.width() - 80), 300);
        find->input()->setText(eventId);
        find->lookUp();
        settle(1000);
        // The dialog is a window of its own: drawn over the desk where it opens.
        QImage shot = window.grab().toImage();
        QPainter painter(&shot);
        painter.fillRect(shot.rect(), QColor(0, 0, 0, 70));
        const QPixmap dialog = find->grab();
        const QPoint at((shot.width() - dialog.width()) / 2, shot.height() / 7);
        painter.drawPixmap(at, dialog);
        painter.setPen(QColor(0x80, 0x80, 0x80));
        painter.drawRect(QRect(at, dialog.size()).adjusted(-1, -1, 0, 0));
        painter.end();
        ok &= shot.save(dir + u"/find-anything.png"_qs);
        find->hide();
    }
    window.showPage(window.outboxPage());
    settle(600);
    ok &= window.grab().save(dir + u"/outbox.png"_qs);
    // Payment trouble (#41): the subscriptions in grace and blocked, the first selected; the
    // Extend grace dialog as an operator fills it in (not accepted); the subscription opened
    // from the list, its audit trail telling the failed payments and the verdicts.
    {
        auto *trouble = window.paymentTroublePage();
        window.showPage(trouble);
        for (int waited = 0; !trouble->isLoaded() && waited < 10000; waited += 100)
            settle(100);
        settle(300);
        // The first with failed payments: its audit trail tells them.
        int pick = trouble->model()->rowCount() > 0 ? 0 : -1;
        for (int r = 0; r < trouble->model()->rowCount(); ++r) {
            if (trouble->model()->row(r)[rd::ui::PaymentTroublePage::Attempts].toLongLong() > 0) {
                pick = r;
                break;
            }
        }
        if (pick >= 0)
            trouble->table()->selectRow(pick);
        settle(300);
        ok &= window.grab().save(dir + u"/payment-trouble.png"_qs);
        if (pick >= 0) {
            const RowRef first = trouble->model()->row(pick);
            const QString verdict = rd::ui::access::verdictText(
                first[rd::ui::PaymentTroublePage::Verdict].toString());
            rd::ui::ExtendGraceDialog dialog(first[rd::ui::PaymentTroublePage::Provider].toString()
                    + u'/' + first[rd::ui::PaymentTroublePage::SubscriptionRef].toString(),
                verdict, QDateTime::currentDateTimeUtc().date(), &window);
            dialog.noteBox()->setPlainText(
                u"Customer's bank confirmed the new card will be active on Monday."_qs);
            dialog.show();
            settle(300);
            ok &= dialog.grab().save(dir + u"/payment-trouble-extend.png"_qs);
            dialog.hide();
            const QString id = first[rd::ui::PaymentTroublePage::SubscriptionUuid].toString();
            window.navigator()->openSubscription(id);
            settle(1200);
            window.subscriptionsPage()->detail()->showTab(1);
            settle(300);
            ok &= window.grab().save(dir + u"/subscription-payment-trouble.png"_qs);
            window.subscriptionsPage()->detail()->showTab(0);
        }
    }
    // File › Connect, as it opens on this connection.
    const auto connect = window.makeConnectionDialog();
    connect->show();
    settle(300);
    ok &= connect->grab().save(dir + u"/connect.png"_qs);
    connect->hide();
    // File › Back up…, as it opens (no backup is written here).
    auto *backup = window.showBackup();
    settle(300);
    ok &= backup->grab().save(dir + u"/backup.png"_qs);
    backup->hide();
    // Ledger › Statements…, Close month… and File › Restore…, as they open: the months and
    // runs a person reads before closing, and why a month cannot be closed yet.
    auto *statements = window.showStatements();
    settle(800);
    ok &= statements->grab().save(dir + u"/statements.png"_qs);
    statements->hide();
    auto *closeMonth = window.showCloseMonth();
    settle(800);
    ok &= closeMonth->grab().save(dir + u"/close-month.png"_qs);
    closeMonth->hide();
    auto *restore = window.showRestore();
    settle(300);
    ok &= restore->grab().save(dir + u"/restore.png"_qs);
    restore->close();
    // Last (it writes to the cases' histories): a bulk re-apply of one open case of each
    // reason, each result as it came.
    window.showPage(window.casesPage());
    casesPage->setScope(rd::ui::CasesPage::Scope::Open);
    settle(600);
    if (casesPage->canOperate()) {
        QVector<qint64> ids;
        QStringList reasons;
        const auto *queue = casesPage->model();
        for (int r = 0; r < queue->rowCount() && ids.size() < 6; ++r) {
            const QString reason = queue->row(r)[rd::ui::CasesPage::ErrorCode].toString();
            if (!reasons.contains(reason)) {
                reasons << reason;
                ids << queue->row(r)[rd::ui::CasesPage::Id].toLongLong();
            }
        }
        if (auto *bulk = casesPage->runBulk(rd::ui::CaseActions::Action::Reapply, ids, u"other"_qs,
                u"screenshot: one case of each reason"_qs)) {
            QElapsedTimer waited;
            waited.start();
            while (bulk->run()->isRunning() && waited.elapsed() < 30000)
                settle(100);
            settle(300);
            ok &= bulk->grab().save(dir + u"/cases-bulk.png"_qs);
            bulk->close();
        }
    }
    return ok;
}
