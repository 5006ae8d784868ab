#include "tests/support/desk_subscriptions.h"

#include "domain/core/timestamp.h"
#include "domain/store/renewal_applier.h"

#include <pqxx/pqxx>

#include <QSignalSpy>

namespace rdtest {
namespace {

const char *const kProviders[] = {"paddle-eu", "stripe-main", "stripe-us"};
const char *const kStatuses[] = {"active", "active", "active", "past_due", "canceled", "trialing"};

} // namespace

UiSubscriptionsDatabase::UiSubscriptionsDatabase(const std::string &name)
{
    m_db = std::make_unique<TestDatabase>(name);
    std::string lines;
    for (int i = 0; i < kSubscriptions; ++i) {
        const std::string id = "sub_" + std::to_string(100000 + (i * 7919) % kSubscriptions);
        const auto start = rd::addMonths(rd::makeUtc(2025, 1, 1 + i % 28), i % 14);
        const auto end = rd::addMonths(start, 1);
        if (i % 97 == 0) {
            // No current period: NULL ends must page correctly in both directions.
            lines += "{\"providerKey\":\"" + std::string(kProviders[i % 3])
                + "\",\"providerSubscriptionId\":\"" + id
                + "\",\"status\":\"incomplete\",\"currentPeriod\":null,\"cancelAtPeriodEnd\":"
                  "false,\"providerVersion\":null}"
                + "\n";
            continue;
        }
        lines += subscriptionLine(kProviders[i % 3], id, kStatuses[i % 6], rd::formatRfc3339(start),
                     rd::formatRfc3339(end), i % 13 == 0)
            + "\n";
    }
    importSubscriptions(m_db->conninfo(), lines);
    // Open cases on a few subscriptions: renewals of past_due ones are refused.
    rd::RenewalApplier applier(m_db->conninfo());
    auto conn = m_db->connect();
    pqxx::read_transaction tx(*conn);
    const auto rows = tx.exec("SELECT provider_key, provider_subscription_id, "
                              "rd_rfc3339(current_period_end) FROM subscriptions "
                              "WHERE status = 'past_due' ORDER BY 1, 2 LIMIT 25");
    tx.commit();
    int n = 0;
    for (const auto &row : rows) {
        rd::SuccessfulRenewalEvent e;
        e.providerKey = row[0].as<std::string>();
        e.providerSubscriptionId = row[1].as<std::string>();
        e.providerEventId = "evt_" + std::to_string(n);
        e.providerRenewalKey = "in_" + std::to_string(n++);
        e.period.start = *rd::parseRfc3339(row[2].as<std::string>());
        e.period.end = rd::addMonths(e.period.start, 1);
        e.paidAmountMinor = 1999;
        e.currency = "USD";
        e.paidAt = e.period.start;
        if (applier.apply(e).outcome != rd::ApplyOutcome::Rejected)
            qFatal("the renewal of a past_due subscription was not refused");
    }
    m_pool = std::make_unique<rd::ui::DatabasePool>(QString::fromStdString(m_db->conninfo()));
}

UiSubscriptionsDatabase::~UiSubscriptionsDatabase()
{
    m_pool.reset();
    m_db.reset();
}

QStringList UiSubscriptionsDatabase::expected(const QString &where, const QString &orderBy) const
{
    auto conn = m_db->connect();
    pqxx::read_transaction tx(*conn);
    QStringList keys;
    for (const auto &row : tx.exec("SELECT provider_key || '/' || provider_subscription_id "
                                   "FROM subscriptions s WHERE "
             + where.toStdString() + " ORDER BY " + orderBy.toStdString()))
        keys << QString::fromStdString(row[0].as<std::string>());
    return keys;
}

/// Loads every page of `model` (the way a view scrolling to the end would).
bool loadAll(rd::ui::PagedTableModel &model)
{
    QSignalSpy loaded(&model, &rd::ui::PagedTableModel::pageLoaded);
    QSignalSpy failed(&model, &rd::ui::PagedTableModel::loadFailed);
    for (int guard = 0; guard < 1000; ++guard) {
        if (model.isLoading()) {
            if (!loaded.wait(60000) && failed.isEmpty()) // a loaded machine: minutes, not a hang
                return false;
        }
        if (!failed.isEmpty()) {
            qWarning() << "load failed:" << failed.first().first().toString();
            return false;
        }
        if (model.isComplete())
            return true;
        if (model.canFetchMore({}))
            model.fetchMore({});
    }
    return false;
}

QStringList loadedKeys(const rd::ui::SubscriptionsModel &model)
{
    QStringList keys;
    for (int r = 0; r < model.loadedRows(); ++r) {
        const rd::ui::RowRef row = model.row(r);
        keys << row[rd::ui::SubscriptionsModel::Provider].toString() + u'/'
                + row[rd::ui::SubscriptionsModel::SubscriptionId].toString();
    }
    return keys;
}

} // namespace rdtest
