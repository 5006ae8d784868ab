// The demo history: realistic payloads of each provider (written by its kind's demo.cpp in
// domain/core/providers/),
// delivered through WebhookIngestor exactly as webhooks would be, so that the desk shows what
// the real path makes of them.

#include "domain/demo/demo_history.h"

#include "domain/core/adapters/normalization.h"
#include "domain/core/currency.h"
#include "domain/core/errors.h"
#include "domain/core/providers/demo_support.h"
#include "domain/core/providers/provider.h"
#include "domain/store/delivery_backdating.h"
#include "domain/store/subscription_import.h"
#include "domain/store/webhook_ingestor.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <vector>

namespace rd {

using namespace demo;

namespace {

const Provider kProviders[] = {
    {"stripe-main", ProviderKind::Stripe, "Stripe (main account)", true, true},
    {"paddle-eu", ProviderKind::Paddle, "Paddle Billing EU"},
    {"chargebee-us", ProviderKind::Chargebee, "Chargebee US site"},
    {"recurly-main", ProviderKind::Recurly, "Recurly"},
    {"lemon-shop", ProviderKind::LemonSqueezy, "Lemon Squeezy shop"},
};

// The payment trouble stories (#41), each told of a subscription of its own beside the cast:
// a renewal declined twice, then paid on the provider's third attempt two days ago; a renewal
// whose retries ran out three weeks ago, the subscription unpaid since (blocked now); and a
// renewal whose retries ran out two days ago, the subscription unpaid.
enum class Trouble { DeclinedTwiceThenPaid, RetriesExhausted, UnpaidRecently };
struct TroubleStory
{
    const Provider *provider;
    Trouble trouble;
};
const TroubleStory kTroubleStories[] = {
    {&kProviders[0], Trouble::DeclinedTwiceThenPaid},
    {&kProviders[0], Trouble::RetriesExhausted},
    {&kProviders[4], Trouble::UnpaidRecently},
};

// A story's failing renewal: the start of its period (a whole hour), and its dunning, timed
// back from `now`: the first attempt within the hour after the period's start, the retries
// days after it.
std::pair<Timestamp, Dunning> troubleTimes(Trouble trouble, Timestamp now, Random &r)
{
    int daysAgo = 0; // the failing period's start
    std::vector<int> retryDays; // after the first attempt, each retry that fails
    int recoveredDay = -1; // after the first attempt, the retry that succeeds
    switch (trouble) {
    case Trouble::DeclinedTwiceThenPaid: // Stripe's retries, paid on the third attempt
        daysAgo = 6;
        retryDays = {2};
        recoveredDay = 4;
        break;
    case Trouble::RetriesExhausted: // the last of four attempts 20 days ago
        daysAgo = 35;
        retryDays = {3, 8, 15};
        break;
    case Trouble::UnpaidRecently: // Lemon Squeezy: four retries over two weeks, two days ago
        daysAgo = 16;
        retryDays = {3, 6, 10, 14};
        break;
    }
    const std::int64_t hour = 3600LL * 1000000;
    Timestamp start = plusSeconds(now, -86400LL * daysAgo);
    start.micros -= ((start.micros % hour) + hour) % hour;
    const Timestamp first = plusSeconds(start, r.uniform(60, 3600));
    Dunning d;
    d.failures.push_back(first);
    for (const int day : retryDays)
        d.failures.push_back(plusSeconds(first, 86400LL * day));
    d.recovered = recoveredDay >= 0;
    d.end = d.recovered ? plusSeconds(first, 86400LL * recoveredDay) : d.failures.back();
    return {start, d};
}

// The period index k: k = months is the one containing `now`.
Period periodOf(const Sub &s, int k, int months)
{
    return {addMonths(s.anchor, k - months), addMonths(s.anchor, k - months + 1)};
}

// The start of the latest period boundary at or before `now` for a subscription billed on
// `day` of each month at `hour`.
Timestamp latestAnchor(Timestamp now, int day, int hour)
{
    const std::string text = formatRfc3339(now); // "YYYY-MM-DDT..."
    const int year = std::stoi(text.substr(0, 4));
    const unsigned month = static_cast<unsigned>(std::stoi(text.substr(5, 2)));
    Timestamp t = makeUtc(year, month, static_cast<unsigned>(day), static_cast<unsigned>(hour));
    if (t > now)
        t = addMonths(t, -1);
    return t;
}

// The live simulation's period start: today (UTC) at a whole hour at or before `now`.
Timestamp todayAt(Timestamp now, Random &r)
{
    const std::string text = formatRfc3339(now); // "YYYY-MM-DDTHH..."
    const int hour = std::stoi(text.substr(11, 2));
    return makeUtc(std::stoi(text.substr(0, 4)),
        static_cast<unsigned>(std::stoi(text.substr(5, 2))),
        static_cast<unsigned>(std::stoi(text.substr(8, 2))),
        static_cast<unsigned>(r.uniform(0, hour)));
}

const ProviderDefinition &kindOf(const Sub &s)
{
    return providerDefinition(s.provider->kind);
}

// A subscription's provider-side identity, in the provider's own id format.
void identify(Sub &s, Random &r, int months, int numberBase, int accountBase)
{
    kindOf(s).demoIdentify(s, r, {months, numberBase, accountBase});
}

// The payload a provider of `s` sends for charge `c` (Stripe's: invoice.paid).
std::string providerBody(const Sub &s, const Charge &c, const Period &term, Random &r)
{
    return kindOf(s).demoPayload(s, c, term, r);
}

const std::int64_t kPlans[] = {900, 1900, 2900, 4900, 9900};
const char *kPlanNames[] = {"Starter", "Team", "Pro", "Business", "Scale"};

// New charges with each provider's ids; the kinds that number their invoices count up from
// their first number times `numberScale`.
class ChargeMaker
{
public:
    ChargeMaker(Random &r, long long numberScale) : m_r(r), m_numberScale(numberScale) { }

    Charge operator()(const Sub &s, ChargeKind kind, Period period, std::int64_t amount)
    {
        Charge c;
        c.kind = kind;
        c.period = period;
        c.amount = amount;
        c.paidAt = m_paidAt ? *m_paidAt : plusSeconds(period.start, m_r.uniform(60, 3600));
        const auto &definition = kindOf(s);
        const auto [number, added] = m_invoiceNumbers.try_emplace(
            s.provider->kind, definition.demoTraits().firstInvoiceNumber);
        if (added)
            number->second *= m_numberScale;
        definition.demoChargeIds(c, m_r, number->second);
        return c;
    }

    /// Every charge from now on paid at `at` (the live simulation's present).
    void payAt(Timestamp at) { m_paidAt = at; }

private:
    Random &m_r;
    long long m_numberScale;
    std::optional<Timestamp> m_paidAt;
    std::map<ProviderKind, long long> m_invoiceNumbers;
};

// The subscriptions' import lines (renewalctl subscriptions import), each at its imported
// period.
std::string importLines(const std::vector<Sub> &subs, int months)
{
    std::ostringstream lines;
    for (const auto &s : subs) {
        const Period p = periodOf(s, s.importedPeriod, months);
        lines << nlohmann::json {{"providerKey", s.provider->key}, {"providerSubscriptionId", s.id},
            {"status", s.status},
            {"currentPeriod", {{"start", formatRfc3339(p.start)}, {"end", formatRfc3339(p.end)}}},
            {"cancelAtPeriodEnd", s.cancelAtPeriodEnd}, {"providerVersion", nullptr}}
                     .dump()
              << "\n";
    }
    return lines.str();
}

} // namespace

DemoReport buildDemoHistory(const std::string &conninfo, const DemoOptions &options)
{
    const int months = options.months;
    if (options.subscriptions < 6 || options.months < 2)
        throw InputError("demo", "needs at least 6 subscriptions and 2 months");
    Random r(options.seed);
    DemoReport report;

    auto conn = std::make_unique<DbSession>(conninfo);
    for (const auto &p : kProviders) {
        registerBillingProvider(*conn, p.key, p.kind, p.name);
        ++report.providers;
    }

    // The cast. Indices 0..5 carry the special cases; see the switch below.
    std::vector<Sub> subs;
    for (int i = 0; i < options.subscriptions; ++i) {
        Sub s;
        s.index = i;
        s.provider = &kProviders[i % 5];
        const int plan = r.uniform(0, 4);
        s.amount = kPlans[plan];
        s.plan = std::string(kPlanNames[plan]) + " (monthly)";
        s.anchor = latestAnchor(options.now, r.uniform(1, 28), r.uniform(0, 23));
        s.started = addMonths(s.anchor, -months);
        identify(s, r, months, 1000, 100);
        const bool periodic = kindOf(s).demoTraits().renewalsCarryPeriod;
        s.firstInvoice = i % 7 == 0 && periodic;
        s.proration = i % 9 == 1 && i > 5 && periodic;
        switch (i) {
        case 0: // zero-decimal currency: Stripe sends whole yen
            s.currency = "JPY";
            s.amount = 1500;
            break;
        case 3: // three-decimal currency, major-unit decimals in Recurly's payload
            s.currency = "KWD";
            s.amount = 12500;
            break;
        case 4: // the Lemon Squeezy renewal that needs a snapshot
            s.importedPeriod = months - 1;
            break;
        case 5: // set to cancel at the end of its period, then renewed by the provider
            s.importedPeriod = months - 1;
            s.cancelAtPeriodEnd = true;
            break;
        default:
            if (i % 13 == 12) {
                s.status = "canceled"; // a churned customer: no payloads any more
                s.importedPeriod = 1;
            }
            break;
        }
        subs.push_back(std::move(s));
    }
    // The payment trouble stories' subscriptions (#41), after the cast, on a random stream of
    // their own: the cast's ids and stories stay what they were for a seed. Each is imported
    // before its failing renewal (a period back, for a kind kept current by snapshots) and
    // renewed as any other until then.
    Random troubleRandom(options.seed ^ 0x64756e6e696e67ULL);
    struct TroubleOfSub
    {
        int failing = 0; ///< the period index whose renewal fails
        Dunning dunning;
    };
    std::map<int, TroubleOfSub> troubles; // by subscription index
    for (const auto &story : kTroubleStories) {
        Sub s;
        s.index = static_cast<int>(subs.size());
        s.provider = story.provider;
        const int plan = troubleRandom.uniform(0, 4);
        s.amount = kPlans[plan];
        s.plan = std::string(kPlanNames[plan]) + " (monthly)";
        const auto [start, dunning] = troubleTimes(story.trouble, options.now, troubleRandom);
        // The failing period contains `now`, or is the one before it.
        const bool current = addMonths(start, 1) > options.now;
        s.anchor = current ? start : addMonths(start, 1);
        s.started = addMonths(s.anchor, -months);
        identify(s, troubleRandom, months, 1000, 100);
        const int failing = current ? months : months - 1;
        s.importedPeriod = std::min(s.importedPeriod, failing - 1);
        troubles[s.index] = {failing, dunning};
        subs.push_back(std::move(s));
    }

    std::istringstream in(importLines(subs, months));
    report.subscriptions = importSubscriptions(*conn, in, "demo").created;
    conn.reset();

    // The payloads of the accounts that write statements, by account and paid month (a
    // stranger's renewal is left out: it belongs to another account of the provider's).
    std::map<std::pair<const Provider *, std::string>, std::vector<std::string>> statementPayloads;
    const auto keepForStatement = [&](const Sub &s, const Charge &c, const std::string &payload) {
        if (s.provider->writesStatements && !options.statementsDir.empty())
            statementPayloads[{s.provider, formatRfc3339(c.paidAt).substr(0, 7)}].push_back(
                payload);
    };
    // The lost-delivery story: these subscriptions' latest renewal never reaches us.
    const auto lost = [&](const Sub &s, int k) {
        return k == months && s.provider->losesDeliveries && s.index % 20 == 10
            && s.status == "active" && !s.cancelAtPeriodEnd;
    };

    WebhookIngestor ingestor(conninfo);
    std::vector<std::pair<std::string, std::string>> redeliveries;
    // When each delivery reached us in the story: seconds after the provider charged.
    std::vector<std::pair<std::int64_t, Timestamp>> received;
    const auto ingestOne = [&](const Sub &s, const std::string &body, Timestamp charged) {
        const auto result = ingestor.ingest(s.provider->key, body);
        ++report.outcomes[std::string(toString(result.outcome))];
        ++report.payloads;
        if (result.inboxId > 0)
            received.emplace_back(result.inboxId,
                std::min(plusSeconds(charged, 2 + report.payloads % 50), options.now));
    };
    const auto deliver = [&](const Sub &s, const std::string &body, Timestamp charged) {
        ingestOne(s, body, charged);
        // Providers redeliver when an acknowledgement is slow or lost (the very first payload
        // always, so that every seed shows one).
        if (r.chance(6) || report.payloads == 1)
            redeliveries.emplace_back(s.provider->key, body);
    };
    // Money back (#40), on a random stream of its own: the story's other ids and redeliveries
    // stay what they were for a seed. Each delivery's day is its movement's.
    Random back(options.seed ^ 0x6d6f6e65796261ULL);
    const auto deliverMoneyBack = [&](const Sub &s, const Charge &c, const std::string &renewal,
                                      const MoneyBack &story) {
        const auto payloads = kindOf(s).demoMoneyBack(s, c, renewal, story, back);
        for (std::size_t i = 0; i < payloads.size(); ++i) {
            // In the statement of the month it happened (its money back lists).
            if (s.provider->writesStatements && !options.statementsDir.empty())
                statementPayloads[{s.provider, formatRfc3339(story.happensAt(i)).substr(0, 7)}]
                    .push_back(payloads[i]);
            const auto result = ingestor.ingest(s.provider->key, payloads[i]);
            ++report.outcomes[std::string(toString(result.outcome))];
            ++report.payloads;
            if (result.inboxId > 0)
                received.emplace_back(
                    result.inboxId, std::min(plusSeconds(story.happensAt(i), 30), options.now));
        }
        return !payloads.empty();
    };
    // The stories told of last month's renewals, one renewal each, in this order: a full refund,
    // a partial one, two partial ones, a dispute lost, a dispute won. And one refund of this
    // month's renewal that reaches us before the renewal does (it waits in a case, and the
    // renewal's arrival records it).
    std::size_t storiesTold = 0;
    bool earlyRefundTold = false;
    const auto storyOf = [](std::size_t i, const Charge &c) {
        const std::int64_t a = c.amount;
        switch (i) {
        case 0:
            return MoneyBack {MoneyBack::Kind::Refunds, {a}, plusSeconds(c.paidAt, 3 * 86400)};
        case 1:
            return MoneyBack {MoneyBack::Kind::Refunds, {std::max<std::int64_t>(1, a / 4)},
                plusSeconds(c.paidAt, 5 * 86400)};
        case 2:
            return MoneyBack {MoneyBack::Kind::Refunds,
                {std::max<std::int64_t>(1, a / 5), std::max<std::int64_t>(1, a / 3)},
                plusSeconds(c.paidAt, 2 * 86400)};
        case 3:
            return MoneyBack {MoneyBack::Kind::DisputeLost, {}, plusSeconds(c.paidAt, 10 * 86400)};
        default:
            return MoneyBack {MoneyBack::Kind::DisputeWon, {}, plusSeconds(c.paidAt, 8 * 86400)};
        }
    };
    constexpr std::size_t kStories = 5;
    ChargeMaker newCharge(r, 1);
    const auto body = [&r](const Sub &s, const Charge &c, const Period &term) {
        return providerBody(s, c, term, r);
    };
    // Payment trouble (#41): a story's subscription renews as any other until its failing
    // renewal, which the provider fails to collect as its dunning says (and, recovered, is paid
    // then), and renews no more after it. Its charges are numbered apart from the cast's.
    ChargeMaker troubleCharge(troubleRandom, 7);
    const auto tellTrouble = [&](const Sub &s, int k, const TroubleOfSub &t) {
        if (k > t.failing)
            return;
        const Period p = periodOf(s, k, months);
        const Charge c = troubleCharge(s, ChargeKind::Renewal, p, s.amount);
        const auto sent = k == t.failing
            ? kindOf(s).demoPaymentTrouble(s, c, t.dunning, troubleRandom)
            : std::vector<Sent> {};
        if (sent.empty()) { // renewed (or a kind whose demo tells no payment trouble)
            const std::string b = providerBody(s, c, p, troubleRandom);
            keepForStatement(s, c, b);
            ingestOne(s, b, c.paidAt);
            return;
        }
        for (const auto &e : sent) {
            if (e.paid) {
                Charge paid = c;
                paid.paidAt = t.dunning.end;
                keepForStatement(s, paid, e.body);
            }
            ingestOne(s, e.body, e.at);
        }
    };

    // Month 0: the first invoices of subscriptions that started then (not renewals).
    for (const auto &s : subs) {
        if (troubles.count(s.index) > 0)
            continue;
        // The kinds whose renewals carry no period: their subscriptions imported current.
        const bool lemonFirst
            = !kindOf(s).demoTraits().renewalsCarryPeriod && s.index % 3 == 1 && s.index != 4;
        if (!s.firstInvoice && !lemonFirst)
            continue;
        const Period p0 = periodOf(s, lemonFirst ? months : 0, months);
        const Charge c = newCharge(s, ChargeKind::First, p0, s.amount);
        const std::string b = body(s, c, p0);
        keepForStatement(s, c, b);
        deliver(s, b, c.paidAt);
    }

    // Each month the payment trouble stories first: the cast's renewals stay the history's
    // latest entries, as they were before the stories were told.
    std::vector<const Sub *> monthOrder;
    for (const auto &s : subs)
        if (troubles.count(s.index) > 0)
            monthOrder.push_back(&s);
    for (const auto &s : subs)
        if (troubles.count(s.index) == 0)
            monthOrder.push_back(&s);
    for (int k = 1; k <= months; ++k) {
        for (const Sub *member : monthOrder) {
            const Sub &s = *member;
            if (s.status != "active" || k <= s.importedPeriod)
                continue;
            if (const auto t = troubles.find(s.index); t != troubles.end()) {
                tellTrouble(s, k, t->second);
                continue;
            }
            if (s.index == 2 && k == months - 1)
                continue; // a month the provider never told us about
            const Period p = periodOf(s, k, months);
            const Charge c = newCharge(s, ChargeKind::Renewal, p, s.amount);
            const std::string b = body(s, c, p);
            keepForStatement(s, c, b);
            if (lost(s, k)) {
                r.chance(6); // as deliver() draws: the ids after it stay what they were
                ++report.lostDeliveries;
                continue;
            }
            // The refund that arrives first: this month's, of an ordinary subscription.
            // Refunded ten minutes after the charge, while the renewal's own delivery was late:
            // it reaches us an hour after the refund's.
            const Timestamp refundedAt = std::min(plusSeconds(c.paidAt, 600), options.now);
            const bool refundFirst = k == months && !earlyRefundTold && s.index >= 6
                && deliverMoneyBack(s, c, b,
                    {MoneyBack::Kind::Refunds, {std::max<std::int64_t>(1, c.amount / 2)},
                        refundedAt});
            const std::size_t receivedBefore = received.size();
            deliver(s, b, c.paidAt);
            if (refundFirst) {
                earlyRefundTold = true;
                if (received.size() > receivedBefore)
                    received.back().second = std::min(plusSeconds(refundedAt, 3600), options.now);
            }
            if (k == months - 1 && storiesTold < kStories && s.index >= 6) {
                if (deliverMoneyBack(s, c, b, storyOf(storiesTold, c)))
                    ++storiesTold;
            }
            if (s.index % 3 == 0) {
                // The provider's other events for the one invoice: duplicates by renewal key.
                for (const auto &other : kindOf(s).demoAlsoSent(s, c, r))
                    deliver(s, other, plusSeconds(c.paidAt, 40));
            }
            if (s.index == 1 && k == months - 1) {
                // The provider "corrects" the amount of a transaction already applied.
                Charge corrected = c;
                corrected.amount += 500;
                corrected.eventId = kindOf(s).demoEventId(r);
                deliver(s, providerBody(s, corrected, p, r), plusSeconds(c.paidAt, 3 * 86400));
            }
            if (s.proration && k == std::min(2, months)) {
                // A mid-period upgrade: billed for the rest of the period, not a renewal.
                const Timestamp mid = plusSeconds(p.start, 86400 * r.uniform(5, 20));
                const Charge up = newCharge(s, ChargeKind::Proration, {mid, p.end}, s.amount / 2);
                const std::string b = body(s, up, p);
                keepForStatement(s, up, b);
                deliver(s, b, up.paidAt);
            }
        }
        for (const auto &[key, payload] : redeliveries) {
            const auto result = ingestor.ingest(key, payload);
            ++report.outcomes[std::string(toString(result.outcome))];
            ++report.payloads;
        }
        redeliveries.clear();
    }

    // A renewal for a subscription nobody imported (created outside the desk's knowledge).
    Sub stranger = subs[0];
    identify(stranger, r, months, 1000 + options.subscriptions, 100 + options.subscriptions);
    stranger.amount = 4900;
    const Period strangerPeriod = periodOf(stranger, months, months);
    const Charge strangerCharge = newCharge(stranger, ChargeKind::Renewal, strangerPeriod, 4900);
    deliver(
        stranger, providerBody(stranger, strangerCharge, strangerPeriod, r), strangerCharge.paidAt);
    // A body cut short in transit: kept as evidence, outcome invalid.
    const Sub &paddleSub = subs[1];
    const Period paddlePeriod = periodOf(paddleSub, months, months);
    const std::string full = providerBody(
        paddleSub, newCharge(paddleSub, ChargeKind::Renewal, paddlePeriod, 100), paddlePeriod, r);
    const auto cut = ingestor.ingest(paddleSub.provider->key, full.substr(0, full.size() / 3));
    ++report.outcomes[std::string(toString(cut.outcome))];
    ++report.payloads;
    backdateDeliveries(conninfo, received);
    for (const auto &[accountMonth, payloads] : statementPayloads) {
        const auto &[provider, month] = accountMonth;
        const auto pages = providerDefinition(provider->kind).demoStatementPages(payloads);
        if (pages.empty())
            throw InputError(provider->key, "the demo writes no statement of this kind");
        // The renewals' page as <key>-<month>.json; a money back list's beside it, named by
        // the list (<key>-<month>-refunds.json).
        for (std::size_t i = 0; i < pages.size(); ++i) {
            const std::string &list = pages[i].first;
            const std::string suffix = i == 0 ? "" : "-" + list.substr(list.find_last_of('/') + 1);
            const std::string path
                = options.statementsDir + "/" + provider->key + "-" + month + suffix + ".json";
            std::ofstream f(path, std::ios::binary | std::ios::trunc);
            f << pages[i].second << "\n";
            if (!f.flush())
                throw InputError(path, "cannot write the demo's statement");
            report.statementFiles.push_back(path);
        }
    }
    return report;
}

ReplaySet buildOutOfOrderReplaySet(const DemoOptions &options)
{
    if (options.subscriptions < 1 || options.months < 2)
        throw InputError("demo", "needs at least 1 subscription and 2 months");
    Random r(options.seed);
    ReplaySet set;
    std::vector<std::pair<int, std::string>> deliveries; // (random order key, payload)
    std::ostringstream lines;
    ChargeMaker newCharge(r, 1);
    for (int i = 0; i < options.subscriptions; ++i) {
        Sub s;
        s.index = i;
        s.provider = &kProviders[0];
        const int plan = r.uniform(0, 4);
        s.amount = kPlans[plan];
        s.plan = std::string(kPlanNames[plan]) + " (monthly)";
        s.anchor = latestAnchor(options.now, r.uniform(1, 28), r.uniform(0, 23));
        s.started = addMonths(s.anchor, -options.months);
        identify(s, r, options.months, 1000, 100);
        const Period imported = periodOf(s, 0, options.months);
        lines << nlohmann::json {{"providerKey", s.provider->key}, {"providerSubscriptionId", s.id},
            {"status", "active"},
            {"currentPeriod",
                {{"start", formatRfc3339(imported.start)}, {"end", formatRfc3339(imported.end)}}},
            {"cancelAtPeriodEnd", false}, {"providerVersion", nullptr}}
                     .dump()
              << "\n";
        for (int k = 1; k <= options.months; ++k) {
            const Period p = periodOf(s, k, options.months);
            const Charge c = newCharge(s, ChargeKind::Renewal, p, s.amount);
            // Every event the provider sends for the renewal, each delivered at a random place.
            std::vector<std::string> sent {providerBody(s, c, p, r)};
            for (auto &other : kindOf(s).demoAlsoSent(s, c, r))
                sent.push_back(std::move(other));
            for (const auto &payload : sent)
                deliveries.emplace_back(r.uniform(0, 1 << 30), ojson::parse(payload).dump());
        }
    }
    std::stable_sort(deliveries.begin(), deliveries.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    set.subscriptionLines = lines.str();
    for (auto &d : deliveries)
        set.payloads.push_back(std::move(d.second));
    return set;
}

std::vector<std::pair<std::string, ProviderKind>> demoProviders()
{
    std::vector<std::pair<std::string, ProviderKind>> out;
    for (const auto &p : kProviders)
        out.emplace_back(p.key, p.kind);
    return out;
}

SimulationSet buildSimulationSet(
    const std::vector<std::pair<std::string, ProviderKind>> &providers, const DemoOptions &options)
{
    const int months = options.months;
    if (providers.empty())
        throw InputError("providers", "the simulation needs at least one provider");
    if (options.subscriptions < 1 || months < 2)
        throw InputError("simulation", "needs at least 1 subscription and 2 months");
    // Another stream than the demo's for the same seed, so that `renewalctl demo` and a
    // simulation with the same --seed do not make the same subscription ids.
    Random r(options.seed ^ 0x5157u);
    std::vector<Provider> cast;
    for (const auto &[key, kind] : providers)
        cast.push_back({key.c_str(), kind, key.c_str()});

    std::vector<Sub> subs;
    for (int i = 0; i < options.subscriptions; ++i) {
        Sub s;
        s.index = i;
        s.provider = &cast[static_cast<std::size_t>(i) % cast.size()];
        const int plan = r.uniform(0, 4);
        s.amount = kPlans[plan];
        s.plan = std::string(kPlanNames[plan]) + " (monthly)";
        s.anchor = latestAnchor(options.now, r.uniform(1, 28), r.uniform(0, 23));
        identify(s, r, months, 500000, 500000);
        const bool periodic = kindOf(s).demoTraits().renewalsCarryPeriod;
        s.firstInvoice = i % 7 == 0 && periodic;
        s.proration = i % 9 == 1 && periodic;
        if (options.live) {
            // Today's period, begun at a whole hour that has passed; imported one back.
            s.anchor = todayAt(options.now, r);
            if (periodic)
                s.importedPeriod = months - 1;
            s.firstInvoice = false;
            s.proration = false;
        }
        s.started = addMonths(s.anchor, -months);
        subs.push_back(std::move(s));
    }

    SimulationSet set;
    set.subscriptionLines = importLines(subs, months);

    const auto add = [&](const Sub &s, std::string body, const char *scenario) {
        set.payloads.push_back({s.provider->key, s.provider->kind, std::move(body), scenario});
        // Providers redeliver when an acknowledgement is slow or lost.
        if (r.chance(5) || set.payloads.size() == 1)
            set.payloads.push_back(
                {s.provider->key, s.provider->kind, set.payloads.back().body, "redelivery"});
    };
    ChargeMaker newCharge(r, 500);
    if (options.live)
        newCharge.payAt(options.now);
    const auto body = [&r](const Sub &s, const Charge &c, const Period &term) {
        return providerBody(s, c, term, r);
    };

    // First invoices: of subscriptions that started `months` ago, and Lemon Squeezy's (its
    // subscriptions are imported current; its renewals carry no period and need a snapshot).
    for (const auto &s : subs) {
        const bool lemon = !kindOf(s).demoTraits().renewalsCarryPeriod;
        if ((!s.firstInvoice && !lemon) || options.live)
            continue;
        const Period p0 = periodOf(s, lemon ? months : 0, months);
        add(s, body(s, newCharge(s, ChargeKind::First, p0, s.amount), p0), "first_invoice");
    }
    // One subscription's month that its provider never reports: the renewals after it wait.
    const int gapSub = subs.size() > 2 && !options.live ? 2 : -1;
    // The live demo's payment trouble (#41): the first of today's renewals whose kind tells it
    // fails a minute before `now` and is paid on the provider's retry at `now`. The failure is
    // sent with the first renewals, the retry's paid renewal (and what follows it) last, so that
    // the desk shows the subscription in grace while the others arrive, then in good standing.
    bool troubleTold = !options.live;
    std::vector<SimulatedPayload> recovery;
    for (int k = options.live ? months : 1; k <= months; ++k) {
        for (const auto &s : subs) {
            if (k <= s.importedPeriod)
                continue;
            if (s.index == gapSub && k == months - 1)
                continue;
            const Period p = periodOf(s, k, months);
            const Charge c = newCharge(s, ChargeKind::Renewal, p, s.amount);
            if (!troubleTold) {
                Dunning d;
                d.failures = {std::max(p.start, plusSeconds(options.now, -60))};
                d.recovered = true;
                d.end = options.now;
                const auto sent = kindOf(s).demoPaymentTrouble(s, c, d, r);
                troubleTold = !sent.empty();
                bool paid = false;
                for (const auto &e : sent) {
                    paid = paid || e.paid;
                    if (paid)
                        recovery.push_back({s.provider->key, s.provider->kind, e.body,
                            e.paid ? "payment_recovered" : "payment_standing"});
                    else
                        add(s, e.body, "payment_failed");
                }
                if (troubleTold)
                    continue;
            }
            add(s, body(s, c, p), s.index == gapSub && k == months ? "after_gap" : "renewal");
            if (s.index % 3 == 0) {
                // The provider's other events for the one invoice (Stripe's second type).
                for (auto &other : kindOf(s).demoAlsoSent(s, c, r))
                    add(s, std::move(other), "second_event_type");
            }
            if (s.index % 5 == 1 && k == months - 1 && kindOf(s).demoTraits().renewalsCarryPeriod) {
                // The provider "corrects" the amount of a transaction already applied.
                Charge corrected = c;
                corrected.amount += 500;
                corrected.eventId = kindOf(s).demoEventId(r);
                add(s, providerBody(s, corrected, p, r), "conflicting_amount");
            }
            if (s.proration && k == std::min(2, months)) {
                const Timestamp mid = plusSeconds(p.start, 86400 * r.uniform(5, 20));
                const Charge up = newCharge(s, ChargeKind::Proration, {mid, p.end}, s.amount / 2);
                add(s, body(s, up, p), "proration");
            }
        }
    }
    // The renewals that carry no period (Lemon Squeezy's): each waits in a case for a snapshot.
    for (const auto &s : subs) {
        if (kindOf(s).demoTraits().renewalsCarryPeriod)
            continue;
        const Period p = periodOf(s, months, months);
        add(s, body(s, newCharge(s, ChargeKind::Renewal, p, s.amount), p), "renewal");
    }
    // A renewal of a subscription nobody imported, and a body cut short in transit.
    for (const auto &s : subs) {
        if (!kindOf(s).demoTraits().renewalsCarryPeriod)
            continue;
        Sub stranger = s;
        stranger.id += "x";
        const Period p = periodOf(stranger, months, months);
        add(stranger, body(stranger, newCharge(stranger, ChargeKind::Renewal, p, s.amount), p),
            "unknown_subscription");
        const std::string full = body(s, newCharge(s, ChargeKind::Renewal, p, s.amount), p);
        set.payloads.push_back(
            {s.provider->key, s.provider->kind, full.substr(0, full.size() / 3), "cut_body"});
        break;
    }
    for (auto &p : recovery)
        set.payloads.push_back(std::move(p));
    return set;
}

} // namespace rd
