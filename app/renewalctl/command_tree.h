#pragma once

// What each cmd_*.cpp declares its commands with: the CLI11 subcommand, its options bound to
// typed variables of the command's own, and the runner called once they are parsed.

#include <CLI/CLI.hpp>

#include <functional>
#include <map>
#include <string>

namespace rd::cli {

struct CommandContext;

/// Runs a chosen command; its options are in the variables its declaration bound.
using CommandRunner = std::function<int(const CommandContext &)>;

/// The groups of the overview (renewalctl --help) and of the manual page's COMMANDS.
namespace commandGroups {
inline constexpr const char *kDatabase = "Database";
inline constexpr const char *kRenewals = "Subscriptions and renewals";
inline constexpr const char *kWebhooks = "Webhooks and the outbox";
inline constexpr const char *kReconciliation
    = "Reconciliation (the acting operator is the database login role)";
} // namespace commandGroups

/// The command tree being declared, and the runner of each command that runs.
class CommandTree
{
public:
    explicit CommandTree(CLI::App &root) : m_root(root) { }
    CLI::App &root() { return m_root; }

    /// A command that runs `run` when it is chosen.
    CLI::App *command(CLI::App &parent, const std::string &name, const std::string &description,
        CommandRunner run, const std::string &group = {});
    /// A command of commands (db, cases, ...): once one is chosen, later words are its
    /// arguments, never another command.
    CLI::App *commandGroup(CLI::App &parent, const std::string &name,
        const std::string &description, const std::string &group);
    /// The runner of `app`; null for a command of commands.
    const CommandRunner *runnerOf(const CLI::App *app) const;

private:
    CLI::App &m_root;
    std::map<const CLI::App *, CommandRunner> m_runners;
};

/// Help text in lines of at most 68 characters (CLI11 indents the lines after the first).
std::string wrapped(const std::string &text);

/// --NAME VALUE bound to `variable` (a later --NAME wins). Add its check with ->check() or, for
/// the checks of option_checks.h that hand on a canonical value, ->transform().
template<typename T>
CLI::Option *option(CLI::App *app, const std::string &name, T &variable,
    const std::string &typeName, const std::string &description)
{
    return app->add_option("--" + name, variable, wrapped(description))
        ->type_name(typeName)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

/// --NAME VALUE that may be given several times (--listen A --listen B), every value kept.
CLI::Option *repeatedOption(CLI::App *app, const std::string &name,
    std::vector<std::string> &variable, const std::string &typeName,
    const std::string &description);

/// --NAME without a value.
CLI::Option *flag(
    CLI::App *app, const std::string &name, bool &variable, const std::string &description);

/// A positional (NAME in the usage, e.g. ID) bound to `variable`.
template<typename T>
CLI::Option *positional(CLI::App *app, const std::string &name, T &variable,
    const std::string &description, bool required)
{
    auto *opt = app->add_option(name, variable, wrapped(description))->type_name("");
    if (required)
        opt->required();
    return opt;
}

/// The optional FILE positional of the commands that read one input ("-" or none: stdin).
CLI::Option *inputFile(CLI::App *app, std::string &variable, const std::string &what);

/// --db CONNINFO and --json, read through CommandContext (conninfo(), json()).
void db(CLI::App *app);
void json(CLI::App *app);

/// "the reason code: customer_request, ..." for --reason.
std::string reasonHelp();
/// "stripe, paddle, chargebee, recurly or lemonsqueezy", from the provider-kind table.
std::string kindChoices();

} // namespace rd::cli
