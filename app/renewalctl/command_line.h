#pragma once

#include "domain/core/adapters/provider_kinds.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace rd::cli {

/// What one command line said, once CLI11 has parsed it against the options its command
/// declares: the command words followed by the positional values, the option values and flags.
class ParsedArgs
{
public:
    /// The command words ("cases", "show") followed by the positional values ("42").
    const std::vector<std::string> &positionals() const { return m_positionals; }
    std::optional<std::string> value(const std::string &name) const;
    /// Every value of an option given more than once (--provider a --provider b), in order.
    std::vector<std::string> values(const std::string &name) const;
    bool flag(const std::string &name) const { return m_flags.count(name) > 0; }

    std::string requireValue(const std::string &name) const;
    /// --kind as a provider kind; UsageError naming the kinds there are otherwise.
    ProviderKind providerKind() const;
    long long integer(
        const std::string &name, long long fallback, long long min, long long max) const;
    double number(const std::string &name, double fallback, double min, double max) const;
    /// The single optional FILE|- positional after `skip` command words ("-" = stdin).
    std::string inputPath(std::size_t skip) const;

private:
    friend class CommandLine;
    std::vector<std::string> m_positionals;
    std::map<std::string, std::string> m_values;
    std::map<std::string, std::vector<std::string>> m_allValues;
    std::set<std::string> m_flags;
};

/// The renewalctl command tree (CLI11): every command and subcommand with the options and
/// positionals it takes, so that each rejects what it does not take and has its own --help.
class CommandLine
{
public:
    CommandLine();
    ~CommandLine();
    CommandLine(const CommandLine &) = delete;
    CommandLine &operator=(const CommandLine &) = delete;

    /// Parses `words` (without the program name). Throws UsageError saying what was wrong (with
    /// the closest declared name for a mistyped option or command). Returns nullopt when the
    /// line asked for --help or --version, which were then written to `out`.
    std::optional<ParsedArgs> parse(const std::vector<std::string> &words, std::ostream &out);
    /// The overview of all commands.
    std::string help() const;
    /// The command tree itself (the manual page and the shell completion are generated from
    /// it: app/renewalctl/docgen.cpp).
    CLI::App &tree() { return *m_root; }

private:
    std::unique_ptr<CLI::App> m_root;
};

/// The closest of `candidates` to `word` by edit distance, when close enough to be a typo of it.
std::optional<std::string> closestName(
    const std::string &word, const std::vector<std::string> &candidates);

} // namespace rd::cli
