#pragma once

// Money back (#40): a refund, a chargeback, or the reversal of one, as an adapter reads it from
// the provider's own object. Keyed on that object (re_..., dp_...), never on the event, so that
// two event types of one refund are one movement; dated by its own time, never the renewal's.

#include "domain/core/timestamp.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rd {

enum class MovementKind {
    Refund, ///< money paid back to the customer (pending or done)
    RefundReversal, ///< a refund that failed or was canceled: the money stays
    Chargeback, ///< a dispute's funds withdrawn
    ChargebackReversal ///< a won dispute's funds reinstated
};

/// "refund", "refund_reversal", "chargeback", "chargeback_reversal": the database's words.
std::string_view toString(MovementKind kind);
std::optional<MovementKind> movementKindFromString(std::string_view text);

/// Whether a movement of `kind` takes money away from the ledger (a refund, a chargeback); its
/// reversal gives it back. The ledger's rows and a renewal's money back are signed so.
bool takesMoneyAway(MovementKind kind);
/// The same rule in SQL: the amount of the money_movements row aliased `alias`, negative for a
/// refund or a chargeback ("CASE WHEN m.kind IN (...) THEN -m.amount_minor ...").
std::string signedAmountSql(std::string_view alias);

struct MoneyMovement
{
    std::string movementKey; ///< the provider's object id
    MovementKind kind = MovementKind::Refund;
    std::int64_t amountMinor = 0; ///< positive, in minor units of `currency`
    std::string currency; ///< ISO 4217, upper case
    Timestamp occurredAt; ///< the movement's own time: the month it belongs to
    /// What names the renewal it pays back: its renewal key (an invoice or transaction id), or
    /// a payment ref the renewal's delivery carried (Stripe's charge, payment intent).
    std::vector<std::string> renewalRefs;
    /// Set when the provider reports only the running total refunded of the renewal (Lemon
    /// Squeezy's refunded_amount, with no refund id): the movement is then what this total
    /// adds to the refunds recorded for the renewal, worked out by the database under the
    /// subscription's lock (none when a later total was recorded first); `amountMinor` is the
    /// total, and `movementKey` names the invoice and the total.
    std::optional<std::int64_t> cumulativeMinor;

    bool operator==(const MoneyMovement &) const = default;
};

/// The most movements one delivery may carry (a charge's refunds list, a failed refund and its
/// reversal); the most renewal refs one movement may carry.
inline constexpr std::size_t kMaxMovementsPerDelivery = 50;
inline constexpr std::size_t kMaxRenewalRefs = 8;

/// InputError naming the field of `m` out of its bounds: its key or a ref empty or longer than
/// kMaxIdentifierBytes, no ref or more than kMaxRenewalRefs, an amount not above 0 or above
/// kMaxAmountMinor, a running total on anything but a refund or other than its amount.
void checkMovementBounds(const MoneyMovement &m, const std::string &path);

/// {"movementKey", "kind", "amountMinor", "currency", "occurredAt", "renewalRefs"}, and
/// "cumulativeMinor" when set.
nlohmann::json toJson(const MoneyMovement &m);

} // namespace rd
