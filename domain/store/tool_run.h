#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rd {

/// One run of a PostgreSQL program (pg_dump, pg_restore) whose input and output are streams
/// of any size: the input is fed as the program reads it and the output handed on as it comes,
/// in one loop over poll(), so neither side's buffers can fill and deadlock the other.
struct ToolRun
{
    std::vector<std::string> argv;
    /// "NAME=value" additions to the child's environment (a password: never on argv).
    std::vector<std::string> environment;
    /// Fills a buffer with the next input bytes, returns how many; 0: the input has ended.
    /// Null: the program reads /dev/null. A program that stops reading early (pg_restore -l
    /// reads only the archive's table of contents) ends the feeding, not the run.
    std::function<std::size_t(char *, std::size_t)> input;
    /// Receives standard output as it comes. Null: it is kept in ToolResult::output.
    std::function<void(std::string_view)> output;
    /// Called about five times a second and after each chunk: for progress.
    std::function<void()> onTick;
    /// Checked about five times a second: when set, the program's process group is killed and
    /// the run ends with ToolResult::canceled.
    const std::atomic<bool> *cancel = nullptr;
};

struct ToolResult
{
    int exitCode = -1; ///< the exit status, or 128 + signal number
    std::string output; ///< standard output, when ToolRun::output was null
    std::string errors; ///< standard error (bounded: its last 64 KiB)
    bool canceled = false;
};

/// Runs `run.argv` to the end (or the cancel). Throws std::runtime_error when the program
/// cannot be started, naming it; an exception from `input` or `output` kills the program's
/// process group and is rethrown once it has exited.
ToolResult runTool(const ToolRun &run);

} // namespace rd
