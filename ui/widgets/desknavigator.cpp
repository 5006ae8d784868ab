#include "ui/widgets/desknavigator.h"

#include "ui/widgets/casespage.h"
#include "ui/widgets/deskpages.h"
#include "ui/widgets/inboxpage.h"
#include "ui/widgets/ledgerpage.h"
#include "ui/widgets/outboxpage.h"
#include "ui/widgets/paymenttroublepage.h"
#include "ui/widgets/subscriptiondetailwidget.h"
#include "ui/widgets/subscriptionspage.h"

namespace rd::ui {

DeskNavigator::DeskNavigator(DeskPages *pages, Targets targets, QObject *parent)
    : QObject(parent), m_pages(pages), m_to(targets)
{
    // A page chosen in the sidebar (or by its shortcut) is a place of the history too: Back
    // returns from it.
    connect(m_pages, &DeskPages::shown, this, [this](int slot) {
        if (slot == m_shown)
            return;
        if (!m_moving)
            m_history.visit(placeOf(m_shown), {slot, {}, {}});
        m_shown = slot;
        emit historyChanged();
    });
}

void DeskNavigator::show(const QWidget *page)
{
    m_pages->show(m_pages->slotOf(page));
    emit arrived(m_pages->current());
}

void DeskNavigator::go(const QWidget *page, std::function<void()> drillDown)
{
    const int slot = m_pages->slotOf(page);
    const Place from = placeOf(m_shown);
    m_moving = true;
    m_pages->show(slot);
    m_moving = false;
    if (drillDown)
        drillDown();
    m_history.visit(from, {slot, std::move(drillDown), {}});
    emit historyChanged();
    emit arrived(m_pages->current());
}

void DeskNavigator::openSubscription(const QString &id)
{
    openBillingPeriod(id, {});
}

void DeskNavigator::openBillingPeriod(const QString &subscriptionId, const QString &billingPeriodId)
{
    go(m_to.subscriptions, [this, subscriptionId, billingPeriodId] {
        m_to.subscriptions->openSubscription(subscriptionId, billingPeriodId);
    });
}

void DeskNavigator::openCase(qint64 id)
{
    go(m_to.cases, [this, id] { m_to.cases->openCase(id); });
}

void DeskNavigator::openOpenCase(qint64 id)
{
    go(m_to.cases, [this, id] {
        m_to.cases->setScope(CasesPage::Scope::Open);
        m_to.cases->openCase(id); // whatever filter the queue had: the case, selected
    });
}

void DeskNavigator::openDelivery(qint64 id)
{
    go(m_to.inbox, [this, id] { m_to.inbox->openDelivery(id); });
}

void DeskNavigator::openFound(const FoundItem &item)
{
    switch (item.kind) {
    case FoundItem::Kind::Subscription:
    case FoundItem::Kind::BillingPeriod:
        openBillingPeriod(item.subscriptionUuid, item.billingPeriodId);
        break;
    case FoundItem::Kind::Case:
        openCase(item.caseId);
        break;
    case FoundItem::Kind::Delivery:
        openDelivery(item.deliveryId);
        break;
    }
}

void DeskNavigator::openAuditRecord(
    const QString &subscriptionId, qint64 chainSeq, const QString &problem)
{
    go(m_to.subscriptions, [this, subscriptionId, chainSeq, problem] {
        m_to.subscriptions->detail()->flagAuditRecord(subscriptionId, chainSeq, problem);
        m_to.subscriptions->openSubscription(subscriptionId);
    });
}

void DeskNavigator::showOpenCases(const QString &reason, qint64 minAgeSecs, qint64 maxAgeSecs)
{
    go(m_to.cases, [this, reason, minAgeSecs, maxAgeSecs] {
        m_to.cases->showOpenCases(reason, minAgeSecs, maxAgeSecs);
    });
}

void DeskNavigator::showCasesOfDay(const QDate &dayUtc, bool closed)
{
    go(m_to.cases, [this, dayUtc, closed] { m_to.cases->showCasesOfDay(dayUtc, closed); });
}

void DeskNavigator::showLedgerPaid(const QDate &fromUtc, const QDate &toUtcExclusive,
    const QString &provider, const QString &currency)
{
    go(m_to.ledger,
        [=, this] { m_to.ledger->showPaidBetween(fromUtc, toUtcExclusive, provider, currency); });
}

void DeskNavigator::showInbox(const QString &outcome, const QString &received)
{
    go(m_to.inbox, [this, outcome, received] {
        m_to.inbox->closeDelivery();
        m_to.inbox->showDrillDown(outcome, received);
    });
}

void DeskNavigator::showOutbox(const QString &state)
{
    go(m_to.outbox, [this, state] { m_to.outbox->setFilter(state); });
}

void DeskNavigator::showOverdue()
{
    go(m_to.subscriptions, [this] { m_to.subscriptions->showOverdue(); });
}

void DeskNavigator::showPaymentTrouble()
{
    go(m_to.paymentTrouble, [this] {
        m_to.paymentTrouble->setShow(access::Show::Trouble);
        m_to.paymentTrouble->setProvider({});
    });
}

Place DeskNavigator::placeOf(int slot) const
{
    Place place {slot, {}, {}};
    if (const DeskPage *row = m_pages->at(slot); row && row->selection)
        place.item = row->selection();
    return place;
}

void DeskNavigator::restore(const Place &place)
{
    m_moving = true;
    m_pages->show(place.page);
    m_moving = false;
    // The drill-down again (its filter), then what was selected when the place was left.
    if (place.show)
        place.show();
    if (!place.item.isEmpty())
        if (const DeskPage *row = m_pages->at(place.page); row && row->reselect)
            row->reselect(place.item);
    emit historyChanged();
    emit arrived(m_pages->current());
}

void DeskNavigator::goBack()
{
    if (m_history.canGoBack())
        restore(m_history.back(placeOf(m_shown)));
}

void DeskNavigator::goForward()
{
    if (m_history.canGoForward())
        restore(m_history.forward(placeOf(m_shown)));
}

} // namespace rd::ui
