#pragma once

// Helpers shared by the kinds' snapshot readers (<kind>/snapshot.cpp) and provider_snapshot.cpp.

#include "domain/core/provider_snapshot.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace rd::providers {

/// Unix seconds (a JSON integer) in years 1970..9999 (InputError naming the field).
Timestamp snapshotUnixSeconds(const nlohmann::json &obj, const std::string &path, const char *key);

/// `p` when its end is after its start; InputError naming `endPath` otherwise.
Period orderedPeriod(Period p, const std::string &endPath);

/// For a kind whose subscription objects have no reader yet: InputError saying so.
[[noreturn]] void snapshotNotMapped(ProviderKind kind);

} // namespace rd::providers
