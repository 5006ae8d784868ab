#pragma once

#include "ui/models/finder.h"
#include "ui/models/navigationhistory.h"

#include <QDate>
#include <QObject>

#include <functional>

class QWidget;

namespace rd::ui {

class CasesPage;
class DeskPages;
class InboxPage;
class LedgerPage;
class OutboxPage;
class PaymentTroublePage;
class SubscriptionsPage;

/// Where a link, a drill-down, Find anything or the sidebar takes the desk, and back: every
/// page's "open subscription X", "open case N", "open delivery N" lands here, by what it
/// opens, never by a page's position. Each such move is a place of the history (View › Back
/// returns to where the link was followed, with what was selected there).
class DeskNavigator : public QObject
{
    Q_OBJECT

public:
    /// The pages links open things on.
    struct Targets
    {
        SubscriptionsPage *subscriptions = nullptr;
        CasesPage *cases = nullptr;
        InboxPage *inbox = nullptr;
        LedgerPage *ledger = nullptr;
        OutboxPage *outbox = nullptr;
        PaymentTroublePage *paymentTrouble = nullptr;
    };

    DeskNavigator(DeskPages *pages, Targets targets, QObject *parent = nullptr);

    /// Shows `page` as a click in the sidebar does (a place of the history when it moves).
    void show(const QWidget *page);
    /// Shows `page` and runs `drillDown` on it (a drill-down, a link), as a place of the history.
    void go(const QWidget *page, std::function<void()> drillDown);

    void openSubscription(const QString &id);
    /// The subscription with one of its billing periods selected (empty: none).
    void openBillingPeriod(const QString &subscriptionId, const QString &billingPeriodId);
    void openCase(qint64 id);
    /// A case from the open queue's figures: the queue, whatever filter it had, with the case.
    void openOpenCase(qint64 id);
    void openDelivery(qint64 id);
    /// The view that shows `item` (a subscription with its billing period selected, a case,
    /// an inbox delivery).
    void openFound(const FoundItem &item);
    /// A subscription with one record of its audit trail flagged (an audit log row's broken
    /// link).
    void openAuditRecord(const QString &subscriptionId, qint64 chainSeq, const QString &problem);
    void showOpenCases(const QString &reason, qint64 minAgeSecs, qint64 maxAgeSecs);
    void showCasesOfDay(const QDate &dayUtc, bool closed);
    void showLedgerPaid(const QDate &fromUtc, const QDate &toUtcExclusive, const QString &provider,
        const QString &currency);
    void showInbox(const QString &outcome, const QString &received);
    void showOutbox(const QString &state);
    void showOverdue();
    /// Payment trouble: the subscriptions in grace and blocked, every provider's.
    void showPaymentTrouble();

    void goBack();
    void goForward();
    const NavigationHistory &history() const { return m_history; }

signals:
    /// Whether back or forward is possible may have changed.
    void historyChanged();
    /// The desk went to `page` (a drill-down, a link, Back or Forward, View › <page>): the page's
    /// main view takes the keyboard (MainWindow::focusMainView).
    void arrived(QWidget *page);

private:
    /// The place the page in `slot` is now: what is selected on it.
    Place placeOf(int slot) const;
    void restore(const Place &place);

    DeskPages *m_pages;
    Targets m_to;
    NavigationHistory m_history;
    int m_shown = 0; ///< the desk opens on its first page
    bool m_moving = false; ///< showing a place: the sidebar's change is not a visit
};

} // namespace rd::ui
