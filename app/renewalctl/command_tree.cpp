#include "app/renewalctl/command_tree.h"

#include "domain/core/adapters/provider_kinds.h"
#include "domain/core/operator_note.h"

namespace rd::cli {
namespace {

std::string joined(const std::vector<std::string> &words)
{
    std::string s;
    for (std::size_t i = 0; i < words.size(); ++i)
        s += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    return s;
}

} // namespace

CLI::App *CommandTree::command(CLI::App &parent, const std::string &name,
    const std::string &description, CommandRunner run, const std::string &group)
{
    auto *app = parent.add_subcommand(name, wrapped(description));
    app->footer(""); // the overview's footer is for the overview
    if (!group.empty())
        app->group(group);
    // Extras are not an error of CLI11's: CommandLine::parse reports them, with the closest
    // declared name.
    app->allow_extras();
    if (run)
        m_runners.emplace(app, std::move(run));
    return app;
}

CLI::App *CommandTree::commandGroup(CLI::App &parent, const std::string &name,
    const std::string &description, const std::string &group)
{
    auto *app = command(parent, name, description, nullptr, group);
    app->require_subcommand(0, 1);
    return app;
}

const CommandRunner *CommandTree::runnerOf(const CLI::App *app) const
{
    const auto it = m_runners.find(app);
    return it == m_runners.end() ? nullptr : &it->second;
}

std::string wrapped(const std::string &text)
{
    std::string out;
    std::size_t lineLength = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        auto end = text.find(' ', start);
        if (end == std::string::npos)
            end = text.size();
        const auto word = text.substr(start, end - start);
        if (lineLength > 0 && lineLength + 1 + word.size() > 68) {
            out += "\n";
            lineLength = 0;
        } else if (lineLength > 0) {
            out += " ";
            ++lineLength;
        }
        out += word;
        lineLength += word.size();
        start = end + 1;
    }
    return out;
}

CLI::Option *repeatedOption(CLI::App *app, const std::string &name,
    std::vector<std::string> &variable, const std::string &typeName, const std::string &description)
{
    // One value each time it is given, as for any option: `--listen A B` leaves B over.
    return app->add_option("--" + name, variable, wrapped(description))
        ->type_name(typeName)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->allow_extra_args(false);
}

CLI::Option *flag(
    CLI::App *app, const std::string &name, bool &variable, const std::string &description)
{
    return app->add_flag("--" + name, variable, wrapped(description));
}

CLI::Option *inputFile(CLI::App *app, std::string &variable, const std::string &what)
{
    variable = "-";
    return positional(app, "FILE", variable, what + "; '-' or none: standard input", false);
}

// Declared without a variable (CLI11 then takes the description by const reference).
void db(CLI::App *app)
{
    const std::string description
        = wrapped("a libpq connection string; default: the PG* environment if it names a "
                  "server, else the embedded cluster (started on demand)");
    app->add_option("--db", description)
        ->type_name("CONNINFO")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

void json(CLI::App *app)
{
    const std::string description = wrapped("machine-readable output");
    app->add_flag("--json", description);
}

std::string reasonHelp()
{
    return "the reason code: " + joined(standardReasonCodes())
        + " (the database accepts any lower-case code)";
}

std::string kindChoices()
{
    return joined(providerKindNames());
}

} // namespace rd::cli
