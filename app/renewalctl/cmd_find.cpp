// renewalctl find TEXT (#42): Find anything for scripts and support tools. The search is the
// database's find_anything, the one the desk's Ctrl+K runs, so the two answer alike: an id of
// any kind, a case or delivery number, our uuid, or a customer's e-mail address.

#include "app/renewalctl/command_context.h"
#include "app/renewalctl/commands.h"
#include "app/renewalctl/option_checks.h"
#include "domain/store/find_anything.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace rd::cli {
namespace {

struct FindOptions
{
    std::string text;
    int limit = 50;
};

int runFind(const CommandContext &ctx, const FindOptions &o)
{
    auto conn = ctx.connect();
    const nlohmann::json hits = findAnything(*conn, o.text, o.limit);
    if (ctx.json()) {
        ctx.out << hits.dump() << "\n";
    } else {
        for (const auto &hit : hits)
            ctx.out << hit.value("label", "") << "   (found by " << hit.value("matchedBy", "")
                    << ")\n";
    }
    if (hits.empty()) {
        // Exit 3 tells a script that nothing is known by it.
        ctx.err << "renewalctl: nothing has the id or e-mail address '" << o.text
                << "': no subscription, renewal, failed payment, case or inbox delivery\n";
        return ExitRejected;
    }
    return ExitOk;
}

} // namespace

void registerFindCommand(CommandTree &tree, CLI::App &root)
{
    auto o = std::make_shared<FindOptions>();
    auto *find = tree.command(
        root, "find",
        "what an id names, as the desk's Find anything: a subscription, invoice or transaction, "
        "provider event, case number, inbox delivery or a customer's e-mail address; exit 3 "
        "when nothing has it",
        [o](const CommandContext &ctx) { return runFind(ctx, *o); }, commandGroups::kRenewals);
    positional(find, "TEXT", o->text, "the id or e-mail address, as pasted", true);
    option(find, "limit", o->limit, "N", "at most N things (default 50)")
        ->transform(wholeNumber("--limit", 1, kMaxFindLimit));
    db(find);
    json(find);
}

} // namespace rd::cli
