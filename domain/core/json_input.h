#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rd {

/// Limits applied to untrusted JSON before a DOM is built: nlohmann_json parses deep nesting,
/// but copying or dumping such a value recurses and can overflow the stack.
struct JsonLimits
{
    std::size_t maxBytes = 1024 * 1024;
    int maxDepth = 64;
};

/// Parses untrusted JSON text. Throws InputError (field "body") when it is too large, nests
/// too deep, is not valid UTF-8 or is not JSON.
nlohmann::json parseUntrustedJson(std::string_view text, const JsonLimits &limits = {});
/// parseUntrustedJson's two halves, for a caller that parses the checked text in parts or by
/// another builder (a statement's JSON lines, Recurly's decimal text): the size and depth
/// checks alone, and the parse of text that passed them. Both throw InputError (field "body").
void checkJsonLimits(std::string_view text, const JsonLimits &limits);
nlohmann::json parseCheckedJson(std::string_view text);

/// Strict accessors that name the JSON path of what is wrong (InputError).
/// `path` is the dotted path of `obj` itself ("" for the root).
const nlohmann::json &requireField(
    const nlohmann::json &obj, std::string_view path, const char *key);
std::string requireString(
    const nlohmann::json &obj, std::string_view path, const char *key, bool allowEmpty = false);
std::optional<std::string> optionalString(
    const nlohmann::json &obj, std::string_view path, const char *key);
bool requireBool(const nlohmann::json &obj, std::string_view path, const char *key);
/// A lenient read, for JSON our own database answers with (reports, summaries, verdicts): the
/// string field `key`, empty when it is missing, null or not a string, or `obj` is no object.
std::string stringOrEmpty(const nlohmann::json &obj, const char *key);
std::int64_t requireNonNegativeInteger(
    const nlohmann::json &obj, std::string_view path, const char *key);
std::string joinPath(std::string_view path, std::string_view key);

/// A provider identifier (event id, subscription id, renewal key, provider version) is at
/// most this many bytes of UTF-8. Longer ones are refused where they enter, naming the field:
/// they become B-tree keys (renewal key, inbox event id), whose entries have a size limit, and
/// a delivery the database cannot store would be answered 503 and retried by the provider for
/// ever. The database refuses them too (the rd_key and rd_event_id domains, migration 0028).
constexpr std::size_t kMaxIdentifierBytes = 255;
/// `value` when it is at most kMaxIdentifierBytes long; InputError naming `field` otherwise.
std::string boundedIdentifier(std::string value, std::string_view field);
/// requireString / optionalString for identifiers: the same, then bounded.
std::string requireIdentifier(const nlohmann::json &obj, std::string_view path, const char *key);
std::optional<std::string> optionalIdentifier(
    const nlohmann::json &obj, std::string_view path, const char *key);
/// `text` with every byte outside printable ASCII as '?': for diagnostics that quote input.
std::string printableAscii(std::string text);

} // namespace rd
