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

/// How spawnProcess wires up a child.
struct SpawnOptions
{
    int stdinFd = -1; ///< becomes the child's standard input; -1: /dev/null
    int stdoutFd = -1; ///< becomes its standard output; -1: ours
    int stderrFd = -1; ///< becomes its standard error; -1: ours
    /// "NAME=value" entries set in the child's environment; the rest of ours it gets as is.
    std::vector<std::string> environment;
    /// Drop to this account (its uid and gid, no supplementary groups) before the program runs.
    std::optional<RunAs> runAs;
};

/// Starts `argv` (argv[0] is a path or a name found on PATH) with posix_spawn in a process
/// group of its own, so that a Ctrl+C meant for us does not reach it and a kill(-pid) reaches
/// it and its children. Returns its pid without waiting. Throws std::system_error when it
/// cannot be started (std::errc::no_such_file_or_directory: no such program).
pid_t spawnProcess(const std::vector<std::string> &argv, const SpawnOptions &options);

/// Waits for child `pid` to end: its exit status, 128 + the signal that ended it, or -1.
int waitForExit(pid_t pid);

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
