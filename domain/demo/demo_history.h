#pragma once

#include "domain/core/adapters/provider_kinds.h"
#include "domain/core/timestamp.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rd {

struct DemoOptions
{
    /// At least 6: the special cases need their own subscriptions. buildDemoHistory adds one
    /// of its own for each payment trouble story (three), beside these.
    int subscriptions = 60;
    int months = 6; ///< renewals per subscription; at least 2
    std::uint64_t seed = 1;
    Timestamp now; ///< the periods end around this instant
    /// When set, a directory where the demo writes stripe-main's statements: one file per
    /// calendar month (UTC) of paid invoices, `stripe-main-YYYY-MM.json`, as GET /v1/invoices
    /// lists them, for `renewalctl statement import`.
    std::string statementsDir;
    /// buildSimulationSet only: the live demo. Every subscription's current period starts
    /// today (UTC), at or before `now`; the subscriptions are imported one period back and
    /// only today's renewals are delivered, each paid at `now`, so "Renewals today" moves
    /// while a presenter watches.
    bool live = false;
};

struct DemoReport
{
    int providers = 0;
    long long subscriptions = 0;
    long long payloads = 0;
    std::map<std::string, long long> outcomes; ///< ingest outcome -> count
    /// Renewals the provider charged but never delivered (the lost-delivery story): in the
    /// statements, missing in the database until a statement is imported.
    long long lostDeliveries = 0;
    std::vector<std::string> statementFiles; ///< paths written, oldest month first
};

/// Builds a believable history through the real ingest path: registers five providers
/// (stripe-main, paddle-eu, chargebee-us, recurly-main, lemon-shop), imports the
/// subscriptions `months` periods back, then delivers each provider's own payloads month by
/// month to WebhookIngestor: renewals, duplicate deliveries, Stripe's invoice.paid followed by
/// invoice.payment_succeeded, first and proration invoices, a corrected (conflicting) amount,
/// a skipped month, a renewal of a subscription set to cancel, an unknown subscription, a
/// Lemon Squeezy renewal that needs a snapshot, a truncated body, JPY and KWD prices; and a
/// lost-delivery story: a few Stripe renewals of the latest period are charged but never
/// delivered (overdue until stripe-main's statement is imported). Payment trouble (#41), each
/// story of a subscription of its own beside `subscriptions`: a Stripe renewal declined twice,
/// then paid on Stripe's third attempt two days ago (good standing, its two attempts
/// recovered); a Stripe renewal whose four attempts failed, the last 20 days ago, the
/// subscription unpaid since (blocked); a Lemon Squeezy renewal whose retries ran out two days
/// ago, the subscription unpaid (blocked).
/// Everything but the database's own clock and generated uuids is a function of the options.
DemoReport buildDemoHistory(const std::string &conninfo, const DemoOptions &options);

/// A provider's event export in delivery disorder, for `renewalctl replay` and the
/// out-of-order soak: `subscriptions` Stripe subscriptions (provider key stripe-main) imported
/// `months` periods back, each month's invoice delivered twice (invoice.paid and
/// invoice.payment_succeeded, as Stripe does), all deliveries shuffled. Writes nothing.
struct ReplaySet
{
    std::string subscriptionLines; ///< for `renewalctl subscriptions import`
    std::vector<std::string> payloads; ///< one compact JSON payload each
};
ReplaySet buildOutOfOrderReplaySet(const DemoOptions &options);

/// The demo's provider keys and kinds (stripe-main, paddle-eu, chargebee-us, recurly-main,
/// lemon-shop), as buildDemoHistory registers them.
std::vector<std::pair<std::string, ProviderKind>> demoProviders();

/// What `renewalctl simulate` posts: for the given providers (key and kind), `subscriptions`
/// subscriptions spread over them round-robin and imported `months` periods back, then each
/// provider's payloads month by month as the demo makes them: renewals up to the period that
/// contains `now`, redeliveries, Stripe's second event type for an invoice, a skipped month
/// (the renewal after it waits for it), a corrected (conflicting) Paddle amount, first and
/// proration invoices, Lemon Squeezy invoices (which need a snapshot), and, when a Stripe or
/// Paddle provider is given, a renewal of an unknown subscription and a body cut short. Writes
/// nothing; a function of the arguments only, and another id stream than buildDemoHistory's
/// for the same seed. With options.live: today's renewals only (paid at `now`), a second
/// Stripe event type and redeliveries now and then, Lemon Squeezy's renewals (cases), an
/// unknown subscription (a case), a body cut short (an invalid delivery), and one renewal whose
/// first attempt failed a minute before `now` (#41): the failure among the first payloads, its
/// retry's paid renewal (scenario "payment_recovered") and what follows it the last.
struct SimulatedPayload
{
    std::string providerKey;
    ProviderKind kind;
    std::string body;
    std::string scenario; ///< "renewal", "redelivery", "after_gap", "cut_body", ...
};
struct SimulationSet
{
    std::string subscriptionLines; ///< for `renewalctl subscriptions import`
    std::vector<SimulatedPayload> payloads; ///< in delivery order
};
SimulationSet buildSimulationSet(
    const std::vector<std::pair<std::string, ProviderKind>> &providers, const DemoOptions &options);

} // namespace rd
