#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rd::cli {

/// A small, strict command-line parser: `--name value`, `--name=value` and `--flag`, with the
/// options each command accepts declared up front so that a typo is a usage error (exit 64).
class Args
{
public:
    Args(std::vector<std::string> words, std::set<std::string> valueOptions,
        std::set<std::string> flags);

    const std::vector<std::string> &positionals() const { return m_positionals; }
    std::optional<std::string> value(const std::string &name) const;
    bool flag(const std::string &name) const { return m_flags.count(name) > 0; }

    std::string requireValue(const std::string &name) const;
    long long integer(
        const std::string &name, long long fallback, long long min, long long max) const;
    double number(const std::string &name, double fallback, double min, double max) const;
    /// The single optional FILE|- positional after `skip` command words ("-" = stdin).
    std::string inputPath(std::size_t skip) const;

private:
    std::vector<std::string> m_positionals;
    std::map<std::string, std::string> m_values;
    std::set<std::string> m_flags;
};

} // namespace rd::cli
