#pragma once

// Find anything for scripts and support tools (#42): `renewalctl find` reads the same search as
// the desk's Ctrl+K, the database's find_anything, so the two cannot drift.

#include "domain/store/db_session.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rd {

/// The most things one search lists.
inline constexpr int kMaxFindLimit = 1000;

/// What `text` names, as find_anything finds it (an id, a case or delivery number, our uuid, a
/// customer's e-mail address), at most `limit` (1 to kMaxFindLimit): a JSON array of hits, each
/// {"kind": "subscription"|"renewal"|"failed_payment"|"case"|"delivery", "id" (a uuid; a
/// case's or delivery's number; a failed payment's invoice), "label" (a line for people),
/// "matchedBy": "provider_id"|"uuid"|"renewal_key"|"event_id"|"failed_invoice"|"number"|
/// "email", "providerKey", "providerSubscriptionId", and what else is known: "subscriptionId",
/// "billingPeriodId", "status", "reason", "renewalKey", "eventId", "periodStart", "periodEnd",
/// "at", "amountMinor", "currency", "attempts"}. InputError ("TEXT") for text that can be no id.
nlohmann::json findAnything(DbRef db, const std::string &text, int limit);

} // namespace rd
