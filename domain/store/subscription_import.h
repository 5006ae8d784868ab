#pragma once

#include "domain/core/subscription_record.h"
#include "domain/store/db_session.h"

#include <nlohmann/json_fwd.hpp>

#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace rd {

struct ImportReport
{
    long long lines = 0;
    long long created = 0;
    /// Subscriptions that already existed (reported, never overwritten): "providerKey/id".
    std::vector<std::string> existing;
};

/// Imports JSON lines in one transaction, in batches of one statement each (no round trip
/// per row), writing one `subscription_imported` audit row per created subscription.
/// A malformed line aborts the whole import (nothing is written) with InputError
/// "line N: field".
ImportReport importSubscriptions(DbRef db, std::istream &in, const std::string &actorId);

/// Whether the database holds any subscription (`renewalctl demo --if-empty` then does nothing).
bool hasSubscriptions(DbRef db);

} // namespace rd
