#pragma once

// The values the demo writes its payloads from (domain/demo tells the story; each kind's
// demo.cpp writes its provider's payload for a charge), and the demo's one source of chance.

#include "domain/core/adapters/provider_kinds.h"
#include "domain/core/renewal_event.h"
#include "domain/core/timestamp.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace rd::demo {

using ojson = nlohmann::ordered_json;

inline constexpr const char *kLower = "abcdefghijklmnopqrstuvwxyz0123456789";
inline constexpr const char *kMixed
    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// The demo's one source of chance: everything the demo writes is a function of its seed.
class Random
{
public:
    explicit Random(std::uint64_t seed) : m_rng(seed) { }
    std::string token(std::size_t n, const char *alphabet = kMixed)
    {
        const std::string a(alphabet);
        std::string out;
        for (std::size_t i = 0; i < n; ++i)
            out += a[static_cast<std::size_t>(uniform(0, static_cast<int>(a.size()) - 1))];
        return out;
    }
    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(m_rng); }
    bool chance(int percent) { return uniform(1, 100) <= percent; }

private:
    std::mt19937_64 m_rng;
};

inline std::int64_t unixSeconds(Timestamp t)
{
    return t.micros / 1000000;
}

inline Timestamp plusSeconds(Timestamp t, std::int64_t seconds)
{
    return Timestamp {t.micros + seconds * 1000000};
}

/// A provider the demo registers: an account of a kind, and the stories the demo tells of
/// that account alone (the other stories are told of every account whose kind can tell them).
struct Provider
{
    const char *key;
    ProviderKind kind;
    const char *name;
    /// Its statements are written, one a paid month (DemoOptions::statementsDir).
    bool writesStatements = false;
    /// Some of its subscriptions' latest renewals never reach us.
    bool losesDeliveries = false;
};

enum class ChargeKind { Renewal, First, Proration };

/// A demo subscription, as its provider knows it.
struct Sub
{
    int index = 0;
    const Provider *provider = nullptr;
    std::string id;
    std::string customer;
    std::string currency;
    std::int64_t amount = 0; ///< minor units, before tax
    std::string plan;
    Timestamp anchor; ///< start of the period that contains `now` once renewed
    Timestamp started; ///< when the subscription began: the start of the story's first period
    std::string status = "active";
    bool cancelAtPeriodEnd = false;
    int importedPeriod = 0; ///< the period index imported as current (0 = months back)
    bool firstInvoice = false;
    bool proration = false;
};

/// Where a demo subscription's numbered ids start (numeric subscription ids, account numbers)
/// and how many periods back the story begins.
struct IdentityBases
{
    int months = 0;
    int numbers = 0; ///< numeric subscription ids: numbers + index
    int accounts = 0; ///< account numbers: accounts + index
};

/// One charge of a subscription: what a payload reports.
struct Charge
{
    ChargeKind kind = ChargeKind::Renewal;
    Period period;
    Timestamp paidAt;
    std::int64_t amount = 0;
    std::string invoiceId;
    std::string eventId;
};

/// Money back of one charge in the demo's story (#40): refunds of the given amounts, one a
/// week from `at`, each a movement of its own; or a dispute from `at`, lost (the funds stay
/// withdrawn) or won (reinstated twelve days later).
struct MoneyBack
{
    enum class Kind { Refunds, DisputeLost, DisputeWon };
    Kind kind = Kind::Refunds;
    std::vector<std::int64_t> refunds; ///< Refunds: each refund's amount, in order
    Timestamp at;

    /// When the story's `i`-th event happens (and is sent): refunds a week apart, a won
    /// dispute's funds reinstated twelve days after they were withdrawn.
    Timestamp happensAt(std::size_t i) const
    {
        if (i == 0)
            return at;
        const std::int64_t days = kind == Kind::Refunds ? 7 * static_cast<std::int64_t>(i) : 12;
        return plusSeconds(at, days * 86400);
    }
};

/// Payment trouble of one renewal in the demo's story (#41): the provider fails to collect the
/// charge's invoice at each of `failures` (its first attempt, then its retries), oldest first;
/// then either its next attempt succeeds at `end` (recovered: the invoice is paid), or it stops
/// retrying after the last failure and says at `end` that the subscription is unpaid.
struct Dunning
{
    std::vector<Timestamp> failures;
    bool recovered = false;
    Timestamp end;

    /// When the provider tries again after failure `i`: the next failure, the attempt that
    /// succeeds, or none after the last when it gives up.
    std::optional<Timestamp> nextAttemptAfter(std::size_t i) const
    {
        if (i + 1 < failures.size())
            return failures[i + 1];
        if (recovered)
            return end;
        return std::nullopt;
    }
};

/// A payload the provider sends at `at` (its own clock: what dates the event).
struct Sent
{
    Timestamp at;
    std::string body;
    /// The charge's renewal payload, its invoice paid: what a statement of the kind lists.
    bool paid = false;
};

} // namespace rd::demo
