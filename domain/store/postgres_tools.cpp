#include "domain/store/postgres_tools.h"

#include "domain/core/errors.h"
#include "domain/store/embedded_cluster.h"

#include <libpq-fe.h>

#include <memory>

namespace rd {
namespace {

/// libpq's own quoting for a key/value value: single quotes, backslash escapes.
std::string quotedValue(const std::string &v)
{
    std::string out = "'";
    for (const char c : v) {
        if (c == '\'' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "'";
}

} // namespace

std::vector<std::string> ToolConnection::environment() const
{
    if (password.empty())
        return {};
    return {"PGPASSWORD=" + password};
}

std::string ToolConnection::scrubbed(std::string text) const
{
    if (password.empty())
        return text;
    for (auto at = text.find(password); at != std::string::npos; at = text.find(password, at + 3))
        text.replace(at, password.size(), "***");
    return text;
}

ToolConnection toolConnection(const std::string &conninfo)
{
    ToolConnection out;
    char *error = nullptr;
    std::unique_ptr<PQconninfoOption, void (*)(PQconninfoOption *)> options(
        PQconninfoParse(conninfo.c_str(), &error), PQconninfoFree);
    if (!options) {
        // libpq's message never quotes a password (it names the syntax error's position).
        std::string why = error ? error : "cannot be parsed";
        PQfreemem(error);
        while (!why.empty() && (why.back() == '\n' || why.back() == ' '))
            why.pop_back();
        throw InputError("connection string", why);
    }
    for (const PQconninfoOption *o = options.get(); o->keyword; ++o) {
        if (!o->val || !*o->val)
            continue;
        const std::string key = o->keyword, value = o->val;
        if (key == "password") {
            out.password = value;
            continue;
        }
        out.conninfo += (out.conninfo.empty() ? "" : " ") + key + "=" + quotedValue(value);
        if (key == "host" || key == "hostaddr" || key == "port" || key == "dbname" || key == "user"
            || key == "service")
            out.description += (out.description.empty() ? "" : " ") + key + "=" + value;
    }
    if (out.description.empty())
        out.description = "the PG* environment's database";
    return out;
}

std::string postgresTool(const std::string &name, int serverVersionNum)
{
    std::error_code ec;
    const int major = serverVersionNum / 10000;
    const std::filesystem::path debian
        = std::filesystem::path("/usr/lib/postgresql") / std::to_string(major) / "bin" / name;
    if (std::filesystem::exists(debian, ec))
        return debian.string();
    try {
        const auto dir = findPostgresBinDir();
        if (std::filesystem::exists(dir / name, ec))
            return (dir / name).string();
    } catch (const DatabaseUnavailable &) {
        // No server binaries here: the client programs may still be on PATH.
    }
    return name;
}

} // namespace rd
