#include "domain/core/json_input.h"

#include "domain/core/errors.h"

#include <limits>

namespace rd {

std::string joinPath(std::string_view path, std::string_view key)
{
    std::string out(path);
    if (!out.empty())
        out += '.';
    out += key;
    return out;
}

// nlohmann's parse errors quote the offending input ("last read: '...'"), raw bytes included.
// A message that is not valid UTF-8 cannot itself be serialized as JSON later (found by
// fuzzing), so diagnostics keep printable ASCII only.
std::string printableAscii(std::string text)
{
    for (char &c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u > 0x7e)
            c = '?';
    }
    return text;
}

nlohmann::json parseUntrustedJson(std::string_view text, const JsonLimits &limits)
{
    checkJsonLimits(text, limits);
    return parseCheckedJson(text);
}

void checkJsonLimits(std::string_view text, const JsonLimits &limits)
{
    if (text.size() > limits.maxBytes)
        throw InputError("body",
            "payload of " + std::to_string(text.size()) + " bytes exceeds the limit of "
                + std::to_string(limits.maxBytes) + " bytes");
    // Depth is measured on the raw text first so that no deep tree is ever built.
    int depth = 0;
    bool inString = false;
    bool escaped = false;
    for (const char c : text) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (++depth > limits.maxDepth)
                throw InputError("body",
                    "JSON nests deeper than " + std::to_string(limits.maxDepth) + " levels");
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
}

nlohmann::json parseCheckedJson(std::string_view text)
{
    try {
        return nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error &e) {
        // nlohmann's message names the byte position and, for bad UTF-8, says so.
        std::string what = e.what();
        if (const auto p = what.find("parse error"); p != std::string::npos)
            what = what.substr(p);
        throw InputError("body", "not valid JSON (" + printableAscii(what) + ")");
    } catch (const nlohmann::json::exception &e) {
        // A number too large for a double ("6e999") is an out_of_range, not a parse_error:
        // found by fuzzing, it used to escape as a non-InputError.
        throw InputError("body", "not acceptable JSON (" + printableAscii(e.what()) + ")");
    }
}

const nlohmann::json &requireField(
    const nlohmann::json &obj, std::string_view path, const char *key)
{
    if (!obj.is_object())
        throw InputError(std::string(path.empty() ? "$" : path), "expected a JSON object");
    const auto it = obj.find(key);
    if (it == obj.end())
        throw InputError(joinPath(path, key), "missing");
    return *it;
}

std::string requireString(
    const nlohmann::json &obj, std::string_view path, const char *key, bool allowEmpty)
{
    const auto &v = requireField(obj, path, key);
    if (!v.is_string())
        throw InputError(
            joinPath(path, key), std::string("expected a string, got ") + v.type_name());
    auto s = v.get<std::string>();
    if (!allowEmpty && s.empty())
        throw InputError(joinPath(path, key), "must not be empty");
    return s;
}

std::string stringOrEmpty(const nlohmann::json &obj, const char *key)
{
    if (!obj.is_object())
        return {};
    const auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<std::string> optionalString(
    const nlohmann::json &obj, std::string_view path, const char *key)
{
    if (!obj.is_object())
        throw InputError(std::string(path.empty() ? "$" : path), "expected a JSON object");
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return std::nullopt;
    if (!it->is_string())
        throw InputError(
            joinPath(path, key), std::string("expected a string or null, got ") + it->type_name());
    return it->get<std::string>();
}

std::string boundedIdentifier(std::string value, std::string_view field)
{
    if (value.size() > kMaxIdentifierBytes)
        throw InputError(std::string(field),
            "is " + std::to_string(value.size()) + " bytes; at most "
                + std::to_string(kMaxIdentifierBytes));
    return value;
}

std::string requireIdentifier(const nlohmann::json &obj, std::string_view path, const char *key)
{
    return boundedIdentifier(requireString(obj, path, key), joinPath(path, key));
}

std::optional<std::string> optionalIdentifier(
    const nlohmann::json &obj, std::string_view path, const char *key)
{
    auto s = optionalString(obj, path, key);
    if (s)
        return boundedIdentifier(std::move(*s), joinPath(path, key));
    return s;
}

bool requireBool(const nlohmann::json &obj, std::string_view path, const char *key)
{
    const auto &v = requireField(obj, path, key);
    if (!v.is_boolean())
        throw InputError(
            joinPath(path, key), std::string("expected true or false, got ") + v.type_name());
    return v.get<bool>();
}

std::int64_t requireNonNegativeInteger(
    const nlohmann::json &obj, std::string_view path, const char *key)
{
    const auto &v = requireField(obj, path, key);
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            throw InputError(joinPath(path, key), "is too large");
        return static_cast<std::int64_t>(u);
    }
    if (v.is_number_integer()) {
        const auto i = v.get<std::int64_t>();
        if (i < 0)
            throw InputError(joinPath(path, key), "must not be negative");
        return i;
    }
    if (v.is_number_float())
        throw InputError(joinPath(path, key), "must be an integer amount of minor units");
    throw InputError(joinPath(path, key), std::string("expected an integer, got ") + v.type_name());
}

} // namespace rd
