#include "ui/models/snapshotstart.h"

#include "ui/models/databasepool.h"

#include "domain/core/renewal_event.h"

#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QSqlQuery>
#include <QVariant>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::SnapshotStart)
};

} // namespace
namespace {

std::optional<rd::Timestamp> instantOf(const QVariant &rfc3339)
{
    return rfc3339.isNull() ? std::nullopt : rd::parseRfc3339(rfc3339.toString().toStdString());
}

} // namespace

rd::ProviderSnapshot startingSnapshot(const SnapshotStartFacts &facts, rd::Timestamp now)
{
    rd::ProviderSnapshot s;
    s.providerKey = facts.providerKey;
    s.providerSubscriptionId = facts.providerSubscriptionId;
    s.status
        = facts.subscriptionExists && rd::isSnapshotStatus(facts.status) ? facts.status : "active";
    s.currentPeriod = facts.currentPeriod;
    s.cancelAtPeriodEnd = facts.subscriptionExists && facts.cancelAtPeriodEnd;
    s.providerVersion = facts.providerVersion;
    s.capturedAt = now;
    // The case's renewal, when its event is one the core could record (a needs_snapshot event
    // has no period; an invalid one's period ends before it starts): the snapshot form says
    // the latest renewal is the current period's.
    try {
        auto renewal = rd::renewalEventFromJson(nlohmann::json::parse(facts.eventJson));
        if (renewal.providerKey == s.providerKey
            && renewal.providerSubscriptionId == s.providerSubscriptionId) {
            s.currentPeriod = renewal.period;
            s.latestRenewal = std::move(renewal);
        }
    } catch (const std::exception &) {
        // Not a complete renewal: the subscription's own period, no renewal.
    }
    return s;
}

QString snapshotFormText(const rd::ProviderSnapshot &snapshot)
{
    // The form's own order reads top-down: whose subscription, its state, then the renewal.
    const nlohmann::json sorted = rd::toJson(snapshot);
    const auto inOrder = [](const nlohmann::json &from, std::initializer_list<const char *> keys) {
        nlohmann::ordered_json to = nlohmann::ordered_json::object();
        for (const char *key : keys) {
            if (from.contains(key))
                to[key] = from[key];
        }
        for (const auto &[key, value] : from.items()) // anything the list does not name
            if (!to.contains(key))
                to[key] = value;
        return to;
    };
    auto form = inOrder(sorted,
        {"providerKey", "providerSubscriptionId", "status", "currentPeriod", "cancelAtPeriodEnd",
            "providerVersion", "capturedAt", "latestRenewal"});
    if (form["currentPeriod"].is_object())
        form["currentPeriod"] = inOrder(sorted["currentPeriod"], {"start", "end"});
    if (sorted["latestRenewal"].is_object()) {
        auto renewal = inOrder(sorted["latestRenewal"],
            {"providerKey", "providerSubscriptionId", "providerRenewalKey", "providerEventId",
                "providerVersion", "period", "paidAmountMinor", "currency", "paidAt"});
        renewal["period"] = inOrder(sorted["latestRenewal"]["period"], {"start", "end"});
        form["latestRenewal"] = renewal;
    }
    return QString::fromStdString(form.dump(2));
}

std::optional<SnapshotStartFacts> loadSnapshotStartFacts(QSqlDatabase &db, qint64 caseId)
{
    QSqlQuery q = execSql(db,
        u"SELECT c.provider_key, c.provider_subscription_id, c.event::text, s.id IS NOT NULL, "
        "s.status, rd_rfc3339(s.current_period_start), rd_rfc3339(s.current_period_end), "
        "s.cancel_at_period_end, s.provider_version "
        "FROM reconciliation_cases c "
        "LEFT JOIN subscriptions s ON s.provider_key = c.provider_key "
        "  AND s.provider_subscription_id = c.provider_subscription_id "
        "WHERE c.id = ?"_qs,
        {caseId});
    if (!q.next())
        return std::nullopt;
    SnapshotStartFacts f;
    f.providerKey = q.value(0).toString().toStdString();
    f.providerSubscriptionId = q.value(1).toString().toStdString();
    f.eventJson = q.value(2).toString().toStdString();
    f.subscriptionExists = q.value(3).toBool();
    if (f.subscriptionExists) {
        f.status = q.value(4).toString().toStdString();
        const auto start = instantOf(q.value(5));
        const auto end = instantOf(q.value(6));
        if (start && end)
            f.currentPeriod = rd::Period {*start, *end};
        f.cancelAtPeriodEnd = q.value(7).toBool();
        if (!q.value(8).isNull())
            f.providerVersion = q.value(8).toString().toStdString();
    }
    return f;
}

QString snapshotFormatDescription()
{
    return Tr::tr(
        "Renewal Desk's form, every field present: providerKey, providerSubscriptionId; status "
        "(active, trialing, past_due, paused, canceled or incomplete); currentPeriod "
        "{\"start\", \"end\"} in RFC 3339, or null; cancelAtPeriodEnd true or false; "
        "providerVersion a string (\"42\", quoted) or null; capturedAt, when you read it at the "
        "provider; latestRenewal: the renewal paid for currentPeriod (the case's event, same "
        "period), or null. Or paste the provider's own subscription object (Stripe, Paddle).");
}

} // namespace rd::ui
