#include "app/renewalctl/args.h"

#include "domain/core/errors.h"

#include <cerrno>
#include <cstdlib>

namespace rd::cli {

Args::Args(
    std::vector<std::string> words, std::set<std::string> valueOptions, std::set<std::string> flags)
{
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string &w = words[i];
        if (w.size() < 3 || w.compare(0, 2, "--") != 0) {
            m_positionals.push_back(w);
            continue;
        }
        std::string name = w.substr(2);
        std::optional<std::string> inlineValue;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            inlineValue = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        if (valueOptions.count(name)) {
            if (inlineValue) {
                m_values[name] = *inlineValue;
            } else {
                if (i + 1 >= words.size())
                    throw UsageError("option --" + name + " needs a value");
                m_values[name] = words[++i];
            }
        } else if (flags.count(name)) {
            if (inlineValue)
                throw UsageError("option --" + name + " takes no value");
            m_flags.insert(name);
        } else {
            throw UsageError("unknown option --" + name);
        }
    }
}

std::optional<std::string> Args::value(const std::string &name) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return std::nullopt;
    return it->second;
}

std::string Args::requireValue(const std::string &name) const
{
    const auto v = value(name);
    if (!v || v->empty())
        throw UsageError("option --" + name + " is required");
    return *v;
}

long long Args::integer(
    const std::string &name, long long fallback, long long min, long long max) const
{
    const auto v = value(name);
    if (!v)
        return fallback;
    errno = 0;
    char *end = nullptr;
    const long long n = std::strtoll(v->c_str(), &end, 10);
    if (errno != 0 || end == v->c_str() || *end != '\0' || n < min || n > max)
        throw UsageError("--" + name + " must be a whole number from " + std::to_string(min)
            + " to " + std::to_string(max) + ", not '" + *v + "'");
    return n;
}

double Args::number(const std::string &name, double fallback, double min, double max) const
{
    const auto v = value(name);
    if (!v)
        return fallback;
    errno = 0;
    char *end = nullptr;
    const double n = std::strtod(v->c_str(), &end);
    if (errno != 0 || end == v->c_str() || *end != '\0' || !(n >= min && n <= max))
        throw UsageError("--" + name + " must be a number from " + std::to_string(min) + " to "
            + std::to_string(max) + ", not '" + *v + "'");
    return n;
}

std::string Args::inputPath(std::size_t skip) const
{
    if (m_positionals.size() > skip + 1)
        throw UsageError("expected at most one input file, got '" + m_positionals[skip + 1] + "'");
    return m_positionals.size() == skip + 1 ? m_positionals[skip] : "-";
}

} // namespace rd::cli
