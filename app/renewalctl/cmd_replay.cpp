#include "app/renewalctl/command_context.h"
#include "domain/core/errors.h"
#include "domain/store/database_target.h"
#include "domain/store/webhook_ingestor.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <istream>
#include <map>
#include <ostream>
#include <vector>

namespace rd::cli {

// A provider's event export (e.g. a saved page of Stripe's event list), in any order, through
// the same ingest path as live deliveries; then what became of it: applied at once, applied
// when its predecessor arrived (healed), and the cases left for a person.
int runReplay(const CommandContext &ctx)
{
    if (ctx.args.positionals().size() > 2)
        throw UsageError("usage: renewalctl replay --provider-key KEY [FILE|-]");
    const std::string providerKey = ctx.args.requireValue("provider-key");
    InputFile input(ctx.args.inputPath(1), ctx.in);
    WebhookIngestor ingestor(ctx.conninfo());
    ingestor.kindOf(providerKey); // an unknown provider is refused before anything is read

    std::map<std::string, long long> outcomes;
    std::vector<std::int64_t> caseIds;
    long long payloads = 0;
    for (std::string line; std::getline(input.stream(), line);) {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        ++payloads;
        const auto r = ingestor.ingest(providerKey, line);
        ++outcomes[std::string(toString(r.outcome))];
        if (r.caseId)
            caseIds.push_back(*r.caseId);
    }

    // The cases this replay opened, as they stand now that every payload is in.
    long long healed = 0;
    std::vector<std::int64_t> open;
    {
        auto conn = connectTo(ctx.conninfo());
        pqxx::read_transaction tx(*conn);
        std::string ids = "{";
        for (std::size_t i = 0; i < caseIds.size(); ++i)
            ids += (i ? "," : "") + std::to_string(caseIds[i]);
        ids += "}";
        for (const auto &row :
            tx.exec_params("SELECT id, status, resolved_by = 'system' FROM reconciliation_cases "
                           "WHERE id = ANY($1::bigint[]) ORDER BY id",
                ids)) {
            if (row[1].as<std::string>() == "open")
                open.push_back(row[0].as<std::int64_t>());
            else if (!row[2].is_null() && row[2].as<bool>())
                ++healed;
        }
    }

    const long long appliedAtOnce = outcomes["applied"];
    if (ctx.json()) {
        ctx.out << nlohmann::json {{"payloads", payloads}, {"outcomes", outcomes},
            {"appliedAtOnce", appliedAtOnce}, {"healed", healed},
            {"openCases",
                open}}.dump()
                << "\n";
    } else {
        ctx.out << "replayed " << payloads << " payload(s):";
        for (const auto &[outcome, count] : outcomes)
            ctx.out << " " << outcome << " " << count << ";";
        ctx.out << "\n"
                << appliedAtOnce << " renewal(s) applied at once, " << healed
                << " applied when the renewal before them arrived (healed), " << open.size()
                << " case(s) left for a person";
        for (std::size_t i = 0; i < open.size(); ++i)
            ctx.out << (i ? ", " : ": ") << open[i];
        ctx.out << "\n";
    }
    return open.empty() ? ExitOk : ExitRejected;
}

} // namespace rd::cli
