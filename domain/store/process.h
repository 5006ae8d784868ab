#pragma once

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace rd {

/// An unprivileged OS account to run a program as (PostgreSQL refuses to run as root).
struct RunAs
{
    std::string name;
    uid_t uid = 0;
    gid_t gid = 0;
};

/// Looks up an account by name; std::nullopt when there is none.
std::optional<RunAs> lookupAccount(const std::string &name);

struct ProcessResult
{
    int exitCode = -1; ///< the exit status, or 128 + signal number
    std::string output; ///< stdout and stderr, interleaved
};

/// Runs `argv` (argv[0] is a path or a name found on PATH) and waits for it, capturing its
/// output. With `runAs`, the child drops to that account first. Throws std::runtime_error only
/// when the program cannot be started at all.
ProcessResult runProcess(
    const std::vector<std::string> &argv, const std::optional<RunAs> &runAs = std::nullopt);

/// Whether `account` may search (traverse) directory `path`, checked as that account.
bool accountCanTraverse(const RunAs &account, const std::string &path);

} // namespace rd
