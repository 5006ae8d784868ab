#include "app/renewalctl/command_line.h"

#include "app/renewalctl/commands.h"
#include "app/renewalctl/usage_error.h"
#include "rd_version.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <ostream>

namespace rd::cli {
namespace {

constexpr const char *kFooter = R"(Common options (on the commands that take them):
  --db CONNINFO   a libpq connection string; default: the PG* environment if it names a
                  server, else the embedded cluster (started on demand)
  --json          machine-readable output
Exit codes: 0 ok, 3 some renewals rejected (subscriptions overdue: some are overdue),
            4 refused (an operator action the database refused, or bench on a database
            holding other data), 64 usage, 65 bad input data, 69 database unavailable,
            70 internal error, 75 outbox deliveries failed (retried later), 78 schema
            history refused.
Every command has its own help: renewalctl COMMAND [SUBCOMMAND] --help)";

std::string joined(const std::vector<std::string> &words, const std::string &last = " or ",
    const std::string &separator = ", ")
{
    std::string s;
    for (std::size_t i = 0; i < words.size(); ++i)
        s += (i == 0 ? "" : i + 1 == words.size() ? last : separator) + words[i];
    return s;
}

/// Every command, in the order of the overview and the manual page.
void assemble(CommandTree &tree)
{
    using namespace commandGroups;
    CLI::App &root = tree.root();
    auto *dbGroup = tree.commandGroup(root, "db",
        "start|stop|status|url|backup|restore|move: the embedded PostgreSQL cluster; backups",
        kDatabase);
    registerDbClusterCommands(tree, *dbGroup);
    registerDbBackupCommands(tree, *dbGroup);
    registerDbMoveCommand(tree, *dbGroup);
    registerMigrateCommand(tree, root);
    registerSubscriptionsCommands(tree, root);
    registerApplyCommand(tree, root);
    registerLedgerCommands(tree, root);
    registerBenchCommand(tree, root);
    registerProvidersCommands(tree, root);
    registerIngestCommand(tree, root);
    registerServeCommand(tree, root);
    registerReplayCommand(tree, root);
    registerNormalizeCommand(tree, root);
    registerOutboxCommands(tree, root);
    registerDemoCommand(tree, root);
    registerSimulateCommand(tree, root);
    registerStatementCommands(tree, root);
    registerCasesCommands(tree, root);
    registerSnapshotCommands(tree, root);
    registerCloseCommand(tree, root);
    registerAuditCommands(tree, root);
    registerFoldCommand(tree, root);
    registerInboxCommands(tree, root);
    registerAccessCommands(tree, root);
    registerFindCommand(tree, root);
    auto *rolesGroup = tree.commandGroup(root, "roles",
        "grant|check: give a login role viewer, operator, ingest, payload_reader or owner; "
        "check the group roles on a server",
        kReconciliation);
    registerRolesGrantCommand(tree, *rolesGroup);
    registerRolesCheckCommand(tree, *rolesGroup);
}

/// The chosen commands, from the root down to the one that runs.
std::vector<CLI::App *> chosenPath(CLI::App &root)
{
    std::vector<CLI::App *> path {&root};
    while (!path.back()->get_subcommands().empty())
        path.push_back(path.back()->get_subcommands().front());
    return path;
}

std::string commandName(const std::vector<CLI::App *> &path)
{
    std::string name;
    for (std::size_t i = 1; i < path.size(); ++i)
        name += (i > 1 ? " " : "") + path[i]->get_name();
    return name;
}

std::string seeHelp(const std::vector<CLI::App *> &path)
{
    const auto name = commandName(path);
    return " (see renewalctl " + (name.empty() ? "" : name + " ") + "--help)";
}

std::vector<std::string> subcommandNames(CLI::App *app)
{
    std::vector<std::string> names;
    for (const auto *sub : app->get_subcommands([](CLI::App *) { return true; }))
        names.push_back(sub->get_name());
    return names;
}

std::vector<std::string> optionNames(CLI::App *app)
{
    std::vector<std::string> names;
    for (const auto *opt : app->get_options())
        for (const auto &l : opt->get_lnames())
            names.push_back("--" + l);
    return names;
}

[[noreturn]] void reportExtra(
    const std::vector<CLI::App *> &path, std::size_t at, const std::vector<std::string> &extras)
{
    CLI::App *app = path[at];
    const std::vector<CLI::App *> upTo(path.begin(), path.begin() + static_cast<long>(at) + 1);
    const std::string &word = extras.front();
    if (word.size() > 1 && word[0] == '-') {
        const std::string name = word.substr(0, word.find('='));
        std::string message = "unknown option " + name;
        if (const auto near = closestName(name, optionNames(app)))
            message += "; did you mean " + *near + "?";
        throw UsageError(message + seeHelp(upTo));
    }
    const auto commands = subcommandNames(app);
    if (!commands.empty()) {
        const auto name = commandName(upTo);
        std::string message = "unknown " + (name.empty() ? "" : name + " ") + "command '" + word
            + "'" + (name.empty() ? "" : " (" + joined(commands) + ")");
        if (const auto near = closestName(word, commands))
            message += "; did you mean '" + *near + "'?";
        throw UsageError(message + seeHelp(upTo));
    }
    throw UsageError("unexpected argument '" + word + "'" + seeHelp(upTo));
}

/// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`.
std::size_t editDistance(const std::string &a, const std::string &b)
{
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min(
                {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

} // namespace

std::optional<std::string> closestName(
    const std::string &word, const std::vector<std::string> &candidates)
{
    // A typo: at most a third of the word (at least one edit, at most three) is wrong.
    const auto strip = [](const std::string &s) { return s.substr(s.find_first_not_of('-')); };
    if (word.find_first_not_of('-') == std::string::npos)
        return std::nullopt;
    const std::string bare = strip(word);
    const std::size_t limit = std::clamp<std::size_t>(bare.size() / 3, 1, 3);
    std::optional<std::string> best;
    std::size_t bestDistance = limit + 1;
    for (const auto &c : candidates) {
        const auto d = editDistance(bare, strip(c));
        if (d < bestDistance) {
            best = c;
            bestDistance = d;
        }
    }
    return best;
}

std::optional<std::string> ParsedArgs::value(const std::string &name) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return std::nullopt;
    return it->second;
}

CommandLine::CommandLine()
    : m_root(std::make_unique<CLI::App>("Renewal Desk's command line.", "renewalctl"))
{
    m_root->footer(kFooter);
    m_root->allow_extras();
    m_root->require_subcommand(0, 1);
    const std::string versionHelp = "print the version and exit";
    m_root->add_flag("--version", versionHelp);
    m_commands = std::make_unique<CommandTree>(*m_root);
    assemble(*m_commands);
}

CommandLine::~CommandLine() = default;

std::string CommandLine::help() const
{
    return m_root->help();
}

std::optional<ChosenCommand> CommandLine::parse(
    const std::vector<std::string> &words, std::ostream &out)
{
    // What was not declared is said first: a mistyped option is "unknown option --mnth; did you
    // mean --month?", not the "--month is required" or bad value its typo leads to.
    const auto reportExtras = [this] {
        const auto path = chosenPath(*m_root);
        for (std::size_t i = 0; i < path.size(); ++i)
            if (const auto extras = path[i]->remaining(); !extras.empty())
                reportExtra(path, i, extras);
    };
    // CLI11 checks values before it answers --help: a line asking for help gets it whatever
    // else it says.
    const auto helpAsked = [this] {
        for (auto *app : chosenPath(*m_root))
            if (app->get_help_ptr() && app->get_help_ptr()->count() > 0)
                return true;
        return false;
    };
    std::vector<std::string> reversed(words.rbegin(), words.rend());
    try {
        m_root->parse(reversed);
    } catch (const CLI::CallForHelp &) {
        out << m_root->help(); // the chosen command's own help
        return std::nullopt;
    } catch (const CLI::CallForAllHelp &) {
        out << m_root->help();
        return std::nullopt;
    } catch (const CLI::ArgumentMismatch &e) {
        // "--db: 1 required CONNINFO missing" (the words after it were not read)
        const std::string what = e.what();
        const auto colon = what.find(':');
        if (colon != std::string::npos && what.find("missing") != std::string::npos)
            throw UsageError("option " + what.substr(0, colon) + " needs a value"
                + seeHelp(chosenPath(*m_root)));
        throw UsageError(what + seeHelp(chosenPath(*m_root)));
    } catch (const CLI::ParseError &e) {
        // A required option or positional missing, options that exclude each other, ...
        if (helpAsked()) {
            out << m_root->help();
            return std::nullopt;
        }
        reportExtras();
        throw UsageError(e.what() + seeHelp(chosenPath(*m_root)));
    } catch (const UsageError &) {
        // A value the option's check refused (option_checks.h), in a sentence naming it.
        if (helpAsked()) {
            out << m_root->help();
            return std::nullopt;
        }
        reportExtras();
        throw;
    }

    reportExtras();
    const auto path = chosenPath(*m_root);
    if (m_root->get_option("--version")->count() > 0) {
        if (path.size() > 1)
            throw UsageError("--version goes alone: renewalctl --version");
        out << "renewalctl " << RD_VERSION << "\n";
        return std::nullopt;
    }
    if (path.size() == 1)
        throw UsageError("usage: renewalctl COMMAND [options] (see renewalctl --help)");
    if (const auto commands = subcommandNames(path.back()); !commands.empty())
        throw UsageError("usage: renewalctl " + commandName(path) + " " + joined(commands, "|", "|")
            + " ..." + seeHelp(path));

    ChosenCommand chosen;
    chosen.run = *m_commands->runnerOf(path.back());
    ParsedArgs &args = chosen.args;
    for (std::size_t i = 1; i < path.size(); ++i)
        args.m_positionals.push_back(path[i]->get_name());
    for (auto *app : path) {
        for (const auto *opt : app->get_options()) {
            if (opt->count() == 0 || opt == app->get_help_ptr())
                continue;
            if (!opt->nonpositional()) {
                for (const auto &r : opt->results())
                    args.m_positionals.push_back(r);
            } else if (opt->get_expected_max() == 0) {
                args.m_flags.insert(opt->get_lnames().front());
            } else {
                args.m_values[opt->get_lnames().front()] = opt->results().back();
            }
        }
    }
    return chosen;
}

} // namespace rd::cli
