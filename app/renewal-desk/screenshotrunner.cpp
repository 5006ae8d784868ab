#include "app/renewal-desk/screenshotrunner.h"

#include "ui/models/pagedtablemodel.h"
#include "ui/models/records.h"
#include "ui/models/recordtablemodel.h"
#include "ui/models/subscriptionsmodel.h"
#include "ui/widgets/auditlogpage.h"
#include "ui/widgets/casespage.h"
#include "ui/widgets/connectiondialog.h"
#include "ui/widgets/deliveryview.h"
#include "ui/widgets/inboxpage.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/subscriptiondetailwidget.h"
#include "ui/widgets/subscriptionspage.h"
#include "ui/widgets/tableview.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QLineEdit>
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
    // The subscriptions view with the first subscription that has an open case, if any.
    window.showPage(MainWindow::SubscriptionsView);
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
    // The cases view twice: a payload conflict and a period that does not continue.
    window.showPage(MainWindow::CasesView);
    auto *cases = window.casesPage()->table()->model();
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
        ok &= window.grab().save(dir + file);
    }
    // The gap case's subscription, opened from the case: its timeline shows the gap.
    for (auto *button : window.casesPage()->findChildren<QPushButton *>()) {
        if (button->text() == QObject::tr("Open subscription") && button->isEnabled()) {
            button->click();
            settle(1200);
            ok &= window.grab().save(dir + u"/subscription-gap.png"_qs);
            window.showPage(MainWindow::CasesView);
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
        window.showPage(MainWindow::AuditLogView);
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
    window.showPage(MainWindow::InboxView);
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
    window.showPage(MainWindow::OutboxView);
    settle(600);
    ok &= window.grab().save(dir + u"/outbox.png"_qs);
    // File › Connect, as it opens on this connection.
    const auto connect = window.makeConnectionDialog();
    connect->show();
    settle(300);
    ok &= connect->grab().save(dir + u"/connect.png"_qs);
    connect->hide();
    return ok;
}
