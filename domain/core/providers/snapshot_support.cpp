#include "domain/core/providers/snapshot_support.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <nlohmann/json.hpp>

namespace rd::providers {

namespace {
// Same bound as the adapters: years 1970..9999 keep microsecond arithmetic in range.
constexpr std::int64_t kMaxUnixSeconds = 253402300799;
} // namespace

Timestamp snapshotUnixSeconds(const nlohmann::json &obj, const std::string &path, const char *key)
{
    const auto &v = requireField(obj, path, key);
    if (!v.is_number_integer())
        throw InputError(joinPath(path, key), "expected unix seconds as an integer");
    const bool tooLarge = v.is_number_unsigned()
        ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxUnixSeconds)
        : (v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > kMaxUnixSeconds);
    if (tooLarge)
        throw InputError(joinPath(path, key), "is outside the years 1970..9999");
    return Timestamp::fromSeconds(v.get<std::int64_t>());
}

Period orderedPeriod(Period p, const std::string &endPath)
{
    if (p.end <= p.start)
        throw InputError(endPath, "period end is not after its start");
    return p;
}

void snapshotNotMapped(ProviderKind kind)
{
    throw InputError("", toString(kind) + " subscription objects are not mapped yet");
}

} // namespace rd::providers
