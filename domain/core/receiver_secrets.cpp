#include "domain/core/receiver_secrets.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rd {
namespace {

// The file is small; anything larger is not a secrets file.
constexpr std::size_t kMaxFileBytes = 1024 * 1024;

std::vector<std::string> stringList(
    const nlohmann::json &entry, const std::string &path, const char *member, bool basicAuth)
{
    const std::string listPath = joinPath(path, member);
    const auto &list = entry.at(member);
    if (!list.is_array())
        throw InputError(
            listPath, std::string("expected a list of strings, got ") + list.type_name());
    if (list.empty())
        throw InputError(listPath, "must not be empty");
    std::vector<std::string> out;
    out.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string itemPath = listPath + "[" + std::to_string(i) + "]";
        const auto &item = list[i];
        if (!item.is_string())
            throw InputError(itemPath, std::string("expected a string, got ") + item.type_name());
        std::string value = item.get<std::string>();
        if (value.empty())
            throw InputError(itemPath, "must not be empty");
        if (basicAuth && value.find(':') == std::string::npos)
            throw InputError(itemPath, "expected \"user:password\" (no ':' in it)");
        out.push_back(std::move(value));
    }
    return out;
}

// Sent in an Authorization header or as the basic-auth user: a control character could end
// the header and start another.
std::string apiKey(const nlohmann::json &entry, const std::string &path)
{
    const std::string keyPath = joinPath(path, "apiKey");
    const auto &value = entry.at("apiKey");
    if (!value.is_string())
        throw InputError(keyPath, std::string("expected a string, got ") + value.type_name());
    std::string key = value.get<std::string>();
    if (key.empty())
        throw InputError(keyPath, "must not be empty");
    for (const char c : key) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            throw InputError(keyPath, "holds a control character (a line break?)");
    }
    return key;
}

// nlohmann keeps the last of two equal keys without a word: a rotation written as two blocks
// for one provider key would silently drop the first block. Run on text that already parsed.
void refuseDuplicateKeys(std::string_view text)
{
    // One entry per open object: the keys seen in it, and the key it is the value of.
    struct Level
    {
        std::set<std::string> keys;
        std::string path;
    };
    std::vector<Level> levels;
    std::string lastKey;
    [[maybe_unused]] const auto tree = nlohmann::json::parse(text.begin(), text.end(),
        [&](int, nlohmann::json::parse_event_t event, nlohmann::json &parsed) {
            using Event = nlohmann::json::parse_event_t;
            switch (event) {
            case Event::object_start:
                // Provider keys and member names are named; nothing deeper is (it could be a
                // secret written in the wrong place).
                levels.push_back({{},
                    levels.empty()          ? std::string()
                        : levels.size() < 3 ? joinPath(levels.back().path, lastKey)
                                            : levels.back().path});
                break;
            case Event::key:
                lastKey = parsed.get<std::string>();
                if (!levels.back().keys.insert(lastKey).second) {
                    const std::string where = levels.size() <= 2
                        ? joinPath(levels.back().path, lastKey)
                        : levels.back().path;
                    throw InputError(where.empty() ? "$" : where,
                        levels.size() <= 2
                            ? "appears twice (a rotation lists every secret in one list)"
                            : "an object under it holds one key twice");
                }
                break;
            case Event::object_end:
                levels.pop_back();
                break;
            default:
                break;
            }
            return true;
        });
}

// "line 3, column 18" of the byte at offset `byte` (0-based) of `text`.
std::string lineAndColumn(std::string_view text, std::size_t byte)
{
    byte = std::min(byte, text.size());
    std::size_t line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < byte; ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(byte - lineStart + 1);
}

// The file as JSON. A file that is not JSON is reported by where it stops being JSON, a
// position computed here from the parser's byte offset: never by the parser's message, which
// quotes what it last read (a secret, when a quote is missing) in a wording that is the
// library's to change. The size and depth limits are checked first, with our own messages.
nlohmann::json parsedSecretsFile(std::string_view text)
{
    try {
        checkJsonLimits(text, JsonLimits {});
    } catch (const InputError &e) {
        throw InputError("secrets file", e.message());
    }
    try {
        return nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error &e) {
        // e.byte counts from 1 and is the byte the parser stopped at.
        throw InputError("secrets file",
            "not valid JSON at " + lineAndColumn(text, e.byte > 0 ? e.byte - 1 : 0));
    } catch (const nlohmann::json::exception &) {
        // e.g. a number too large for a double: no position is known.
        throw InputError("secrets file", "not valid JSON (a value it cannot hold)");
    }
}

} // namespace

ReceiverSecrets parseReceiverSecrets(std::string_view text)
{
    const nlohmann::json root = parsedSecretsFile(text);
    if (!root.is_object())
        throw InputError(
            "$", std::string("expected a JSON object of provider keys, got ") + root.type_name());
    refuseDuplicateKeys(text);
    if (root.empty())
        throw InputError("$", "no provider keys");

    ReceiverSecrets out;
    for (const auto &[key, entry] : root.items()) {
        if (key.empty())
            throw InputError("$", "a provider key must not be empty");
        if (!entry.is_object())
            throw InputError(key,
                std::string(
                    "expected an object with \"secrets\", \"basicAuth\" or \"apiKey\", got ")
                    + entry.type_name());
        for (const auto &[member, unused] : entry.items()) {
            (void)unused;
            if (member != "secrets" && member != "basicAuth" && member != "apiKey")
                throw InputError(joinPath(key, member),
                    "unknown member (expected secrets, basicAuth or apiKey)");
        }
        ProviderSecrets credentials;
        if (entry.contains("secrets"))
            credentials.secrets = stringList(entry, key, "secrets", false);
        if (entry.contains("basicAuth"))
            credentials.basicAuth = stringList(entry, key, "basicAuth", true);
        if (entry.contains("apiKey"))
            credentials.apiKey = apiKey(entry, key);
        if (credentials.secrets.empty() && credentials.basicAuth.empty()
            && credentials.apiKey.empty())
            throw InputError(key, "has none of \"secrets\", \"basicAuth\" and \"apiKey\"");
        out.emplace(key, std::move(credentials));
    }
    return out;
}

const std::string &apiKeyFor(
    const ReceiverSecrets &secrets, const std::string &providerKey, const std::string &path)
{
    const auto entry = secrets.find(providerKey);
    if (entry == secrets.end())
        throw SetupError("secrets file " + path + " has no entry for provider key '" + providerKey
            + "' (add {\"" + providerKey + "\": {\"apiKey\": \"...\"}})");
    if (entry->second.apiKey.empty())
        throw SetupError("secrets file " + path + ": provider key '" + providerKey
            + "' has no \"apiKey\" (the provider's API key, which statement fetch reads its "
              "lists with)");
    return entry->second.apiKey;
}

ReceiverSecrets loadReceiverSecrets(const std::string &path)
{
    // Opened first and then examined through the descriptor, so that the file checked is the
    // file read; O_NONBLOCK so that a FIFO in its place cannot hang the open.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        throw SetupError("cannot read secrets file " + path + ": " + std::strerror(errno));
    struct FdCloser
    {
        int fd;
        ~FdCloser() { ::close(fd); }
    } closer {fd};

    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0)
        throw SetupError("cannot read secrets file " + path + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw SetupError("secrets file " + path + " is not a regular file");
    if ((st.st_mode & 077) != 0) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
        const char *what = (st.st_mode & 044) != 0 ? "readable" : "writable or executable";
        throw SetupError("secrets file " + path + " is " + what + " by group or others (mode "
            + mode + "): chmod 600 it");
    }

    std::string text;
    char buffer[8192];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            throw SetupError("cannot read secrets file " + path + ": " + std::strerror(errno));
        }
        if (n == 0)
            break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > kMaxFileBytes)
            throw SetupError("secrets file " + path + " is larger than "
                + std::to_string(kMaxFileBytes) + " bytes");
    }
    try {
        return parseReceiverSecrets(text);
    } catch (const InputError &e) {
        throw e.locatedAt(path);
    }
}

} // namespace rd
