#pragma once

#include "domain/core/adapters/provider_kinds.h"
#include "domain/core/money_movement.h"
#include "domain/core/payment_trouble.h"
#include "domain/core/renewal_event.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rd {

/// What an adapter made of one payload.
enum class NormalizeOutcome {
    Renewal, ///< a paid, recurring renewal: `event` is set
    NotARenewal, ///< a valid payload that is no renewal (first invoice, proration, refund, ...)
    NeedsSnapshot, ///< a renewal whose payload lacks facts (the period): fetch the subscription
    Invalid, ///< malformed or self-contradictory: `message` names the JSON path
    MoneyMovement, ///< refunds, chargebacks or their reversals: `movements` is set (#40)
    /// failed payment attempts or the provider's standing of the subscription: `trouble` is
    /// set, and providerSubscriptionId (#41)
    PaymentTrouble
};

std::string toString(NormalizeOutcome outcome);

/// The result of normalizing one provider payload.
struct NormalizeResult
{
    NormalizeOutcome outcome = NormalizeOutcome::Invalid;
    /// Set when outcome is Renewal. For NeedsSnapshot it may be set with every field but
    /// `period` (left zero), for the caller to complete from a fetched subscription; never
    /// hand such an event to the core before its period is filled in.
    std::optional<SuccessfulRenewalEvent> event;
    /// Set when outcome is MoneyMovement: each movement the payload reports, a reversal after
    /// the movement it reverses. Also, for a listed object that is a renewal and carries its
    /// money back (Lemon Squeezy's invoice with refunded_amount), movements may be set beside
    /// the event (outcome Renewal or NeedsSnapshot).
    std::vector<MoneyMovement> movements;
    /// Set when outcome is PaymentTrouble.
    std::optional<rd::PaymentTrouble> trouble;
    /// Machine code: "renewal", "first_invoice", "proration", "manual_invoice", "unpaid",
    /// "refund", "dispute", "credit_note", "other_event_type", "other_billing_reason" (a
    /// subscription invoice of another kind, e.g. Stripe's subscription_threshold),
    /// "missing_period" (NeedsSnapshot), "payment_failed" or "provider_standing"
    /// (PaymentTrouble: with attempts, or a standing alone) or "invalid_payload" (Invalid).
    std::string reason;
    std::string message; ///< a sentence for people; for Invalid it starts with the JSON path
    std::string providerEventId; ///< empty when the payload is too broken to tell
    std::string providerSubscriptionId; ///< when known
    /// True when the provider sends no delivery id and providerEventId is "sha256:<hex>" of the
    /// raw body (Recurly invoices, Lemon Squeezy). A byte-identical redelivery then has the
    /// same id; a re-serialized one does not, which the renewal key still deduplicates.
    bool eventIdDerived = false;
    /// The customer's e-mail address the payload carries (adapters::customerEmail), empty
    /// when none (#42). The webhook inbox never stores it: ingest_delivery replaces it by its
    /// keyed hash (customerEmailHmac) before the row is written.
    std::string customerEmail;
};

/// "sha256:<hex of rawBody>": the delivery id derived from the body's bytes. The adapters give
/// it to providers that send no delivery id (eventIdDerived), and the webhook inbox files a
/// delivery under it when the provider's own id cannot be stored.
std::string derivedEventId(std::string_view rawBody);

/// Normalizes one provider payload. `rawBody` is the verified payload bytes (signature already
/// checked by the caller); `providerKey` names the configured provider ("stripe-main").
/// Never throws on any input: malformed input gives NormalizeOutcome::Invalid.
///
/// Per provider (the full rules are in domain/core/providers/<kind>/adapter.cpp):
/// - Stripe: an event whose data.object is an invoice. Both invoice shapes, chosen by the
///   event's api_version (>= 2025-03-31 is "basil"). providerVersion is null: Stripe objects
///   carry no version, and the event's `created` orders nothing reliably per subscription.
/// - Paddle Billing: a transaction.completed event; providerVersion is null.
/// - Chargebee: an event with content.invoice; providerVersion is the invoice's
///   resource_version (milliseconds) as a decimal string.
/// - Recurly: the fetched invoice object (not the thin notification). The event id is derived
///   from the body's SHA-256. Amounts are major-unit decimals, converted from their JSON text
///   without floating point (see providers/recurly/adapter.cpp).
/// - Lemon Squeezy: a subscription-invoices webhook; renewals come back NeedsSnapshot because
///   the payload carries no billing period. The event id is derived from the body's SHA-256.
NormalizeResult normalizePayload(
    ProviderKind kind, std::string_view providerKey, std::string_view rawBody);

/// {"outcome":
/// "renewal"|"not_a_renewal"|"needs_snapshot"|"invalid"|"money_movement"|"payment_trouble",
/// "reason",
///  "message", "providerEventId", "providerSubscriptionId" (string or null), "eventIdDerived",
///  "event": SuccessfulRenewalEvent JSON form or null, "movements" for a money movement or
///  a listed renewal that carries its money back, "trouble" for payment trouble, and
///  "customerEmail" when the payload names its customer's address}
nlohmann::json toJson(const NormalizeResult &normalization);

} // namespace rd
