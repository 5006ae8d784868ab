#include "domain/store/postgres_tools.h"

#include "domain/core/errors.h"
#include "domain/store/embedded_cluster.h"

#include <libpq-fe.h>

#include <memory>
#include <utility>

namespace rd {
std::string conninfoValue(const std::string &v)
{
    std::string out = "'";
    for (const char c : v) {
        if (c == '\'' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "'";
}

std::vector<std::string> ToolConnection::environment() const
{
    if (password.empty())
        return {};
    return {"PGPASSWORD=" + password};
}

std::string ToolConnection::scrubbed(std::string text) const
{
    return scrubbedOf(std::move(text), password, "***");
}

std::string scrubbedOf(std::string text, const std::string &secret, const std::string &mask)
{
    if (secret.empty())
        return text;
    for (auto at = text.find(secret); at != std::string::npos;
         at = text.find(secret, at + mask.size())) {
        text.replace(at, secret.size(), mask);
    }
    return text;
}

ConninfoSettings parseConninfo(const std::string &conninfo)
{
    char *error = nullptr;
    std::unique_ptr<PQconninfoOption, decltype(&PQconninfoFree)> options(
        PQconninfoParse(conninfo.c_str(), &error), &PQconninfoFree);
    PQfreemem(error);
    if (!options)
        throw InputError("connection string",
            "libpq cannot read it (key=value pairs such as \"host=db.example dbname=renewal_desk "
            "user=finance\", or a postgresql:// URI)");
    ConninfoSettings settings;
    for (const PQconninfoOption *o = options.get(); o->keyword; ++o) {
        if (o->val)
            settings.emplace_back(o->keyword, o->val);
    }
    return settings;
}

ToolConnection toolConnection(const std::string &conninfo)
{
    ToolConnection out;
    for (const auto &[key, value] : parseConninfo(conninfo)) {
        if (value.empty())
            continue;
        if (key == "password") {
            out.password = value;
            continue;
        }
        out.conninfo += (out.conninfo.empty() ? "" : " ") + key + "=" + conninfoValue(value);
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
