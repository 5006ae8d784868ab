#pragma once

#include "app/renewalctl/command_line.h"
#include "app/renewalctl/usage_error.h"
#include "domain/core/timestamp.h"
#include "domain/store/db_session.h"

#include <nlohmann/json_fwd.hpp>

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

namespace rd::cli {

/// Exit codes, from sysexits.h, plus 3 for "some renewals were rejected".
enum ExitCode : int {
    ExitOk = 0,
    ExitRejected = 3,
    ExitRefused = 4, ///< an operator action was refused (already resolved, stale snapshot, ...)
    ExitUsage = 64,
    ExitDataError = 65,
    ExitUnavailable = 69,
    ExitInternal = 70,
    ExitTempFail = 75, ///< a temporary failure: outbox deliveries to retry, busy work, ...
    ExitConfig = 78, ///< the database refuses our schema history (a changed migration)
};

struct CommandContext
{
    const ParsedArgs &args;
    std::istream &in;
    std::ostream &out;
    std::ostream &err;

    bool json() const { return args.flag("json"); }
    /// The connection string of the chosen database (`--db`, PG* environment, or the embedded
    /// cluster, started and migrated on demand).
    std::string conninfo() const;
    std::unique_ptr<DbSession> connect() const;
};

/// Opens FILE for reading, or returns the context's stdin for "-". A file that cannot be opened
/// is an InputFileError saying why ("cannot open 'x.jsonl': No such file or directory").
class InputFile
{
public:
    InputFile(const std::string &path, std::istream &stdinStream);
    ~InputFile();
    std::istream &stream() { return *m_stream; }

private:
    std::unique_ptr<std::istream> m_owned;
    std::istream *m_stream;
};

/// Reports an operator action the database refused (one line on stderr, and a JSON line on
/// stdout with --json) and returns ExitRefused.
int reportRefusal(const CommandContext &ctx, const std::string &code, const std::string &message);

/// The fold's retention sweep: the configured retention, else RENEWAL_DESK_RETENTION_DAYS.
/// Its report goes to ctx.out as text and into `report` (null when no retention applies, the
/// refusal's code and message when refused, which is also said on ctx.err).
int purgeForFold(const CommandContext &ctx, DbRef conn, nlohmann::json &report);
/// The present of generated demo data: --now (RFC 3339, checked as it was parsed), else the
/// clock (demo, simulate).
Timestamp presentOf(const std::optional<std::string> &now);

} // namespace rd::cli
