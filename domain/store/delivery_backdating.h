#pragma once

#include "domain/core/timestamp.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rd {

/// For generated histories (the demo): the ingest path stamps a delivery with the database's clock,
/// so a history delivered in one go would show every delivery and every case arriving this minute:
/// an Overview with one bar. The story's deliveries are moved to when the provider sent them, and
/// each case to its deliveries' times (first and last seen). Audit rows and case history keep their
/// real times: their hash chains cover them. Skipped for a role that may not update the inbox.
void backdateDeliveries(
    const std::string &conninfo, const std::vector<std::pair<std::int64_t, Timestamp>> &received);

} // namespace rd
