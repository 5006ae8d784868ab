#pragma once

#include "app/renewalctl/command_tree.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rd::cli {

/// What one command line said beyond the chosen command's own typed options: the command
/// words and positional values, and the options every command reads through CommandContext
/// (--db, --json), as text.
class ParsedArgs
{
public:
    /// The command words ("cases", "show") followed by the positional values ("42").
    const std::vector<std::string> &positionals() const { return m_positionals; }
    std::optional<std::string> value(const std::string &name) const;
    bool flag(const std::string &name) const { return m_flags.count(name) > 0; }

private:
    friend class CommandLine;
    std::vector<std::string> m_positionals;
    std::map<std::string, std::string> m_values;
    std::set<std::string> m_flags;
};

/// A command line that names a command to run: its words, and the command's runner, whose
/// options are parsed into the variables it bound.
struct ChosenCommand
{
    ParsedArgs args;
    CommandRunner run;
};

/// The renewalctl command tree (CLI11): every command and subcommand with the options and
/// positionals it takes, so that each rejects what it does not take and has its own --help.
/// Each cmd_*.cpp declares its own commands (commands.h); this assembles them.
class CommandLine
{
public:
    CommandLine();
    ~CommandLine();
    CommandLine(const CommandLine &) = delete;
    CommandLine &operator=(const CommandLine &) = delete;

    /// Parses `words` (without the program name). Throws UsageError saying what was wrong (with
    /// the closest declared name for a mistyped option or command, or naming the option whose
    /// value is bad). Returns nullopt when the line asked for --help or --version, which were
    /// then written to `out`.
    std::optional<ChosenCommand> parse(const std::vector<std::string> &words, std::ostream &out);
    /// The overview of all commands.
    std::string help() const;
    /// The command tree itself (the manual page and the shell completion are generated from
    /// it: app/renewalctl/docgen.cpp).
    CLI::App &tree() { return *m_root; }

private:
    std::unique_ptr<CLI::App> m_root;
    std::unique_ptr<CommandTree> m_commands;
};

/// The closest of `candidates` to `word` by edit distance, when close enough to be a typo of it.
std::optional<std::string> closestName(
    const std::string &word, const std::vector<std::string> &candidates);

} // namespace rd::cli
