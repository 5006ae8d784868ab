#include "domain/store/outbox_sinks.h"

#include "domain/store/process.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>

namespace rd {
namespace {

std::string errnoText(const std::string &what)
{
    return what + ": " + std::strerror(errno);
}

bool writeAll(int fd, const char *data, std::size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace

nlohmann::json OutboxIntent::toJson() const
{
    return {{"id", id}, {"eventType", eventType}, {"subscriptionId", subscriptionId},
        {"billingPeriodId",
            billingPeriodId.empty() ? nlohmann::json() : nlohmann::json(billingPeriodId)},
        {"payload", payload}, {"attempt", attempt}, {"createdAt", createdAt}};
}

JsonLinesSink::JsonLinesSink(const std::string &path)
{
    if (path == "-") {
        m_fd = STDOUT_FILENO;
        return;
    }
    m_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (m_fd < 0)
        throw std::runtime_error(errnoText("cannot open " + path));
    m_owned = true;
}

JsonLinesSink::~JsonLinesSink()
{
    if (m_owned)
        ::close(m_fd);
}

std::optional<std::string> JsonLinesSink::deliver(const OutboxIntent &intent)
{
    m_pending += intent.toJson().dump() + "\n";
    return std::nullopt;
}

std::optional<std::string> JsonLinesSink::flush()
{
    // One write for the batch (O_APPEND: lines of concurrent writers never interleave within
    // a write), then fsync: the lines are on disk before the intents are marked published.
    const std::string data = std::move(m_pending);
    m_pending.clear();
    if (!writeAll(m_fd, data.data(), data.size()))
        return errnoText("write");
    if (::fsync(m_fd) != 0 && errno != EINVAL && errno != EROFS && errno != ENOTSUP)
        return errnoText("fsync");
    return std::nullopt;
}

ExecSink::ExecSink(std::string command, std::chrono::milliseconds timeout)
    : m_command(std::move(command)), m_timeout(timeout)
{
    // A command that exits without reading its input must not kill the publisher.
    std::signal(SIGPIPE, SIG_IGN);
}

namespace {

// Waits for `pid` at most `timeout`; false when it is still running then.
bool waitWithTimeout(pid_t pid, std::chrono::milliseconds timeout, int &status)
{
    // A pidfd becomes readable when the process exits: poll() gives the timeout for free.
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    if (pidfd >= 0) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            pollfd pfd {pidfd, POLLIN, 0};
            const int n = ::poll(&pfd, 1, static_cast<int>(std::max<long long>(0, left.count())));
            if (n < 0 && errno == EINTR)
                continue;
            if (n == 0) {
                ::close(pidfd);
                return false;
            }
            break;
        }
        ::close(pidfd);
    }
    // Without pidfds (old kernels) the wait is unbounded.
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            throw std::runtime_error(errnoText("waitpid"));
    }
    return true;
}

} // namespace

std::optional<std::string> ExecSink::deliver(const OutboxIntent &intent)
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return errnoText("pipe");
    pid_t pid = -1;
    try {
        // Its own process group: a timeout kills the command and its children. The
        // environment is built here, not in the child: RD_OUTBOX_ID is the intent's id.
        SpawnOptions options;
        options.stdinFd = fds[0];
        options.stdoutFd = STDERR_FILENO;
        options.environment = {"RD_OUTBOX_ID=" + intent.id};
        pid = spawnProcess({"/bin/sh", "-c", m_command}, options);
    } catch (const std::system_error &e) {
        ::close(fds[0]);
        ::close(fds[1]);
        return std::string("cannot start the command: ") + e.what();
    }
    ::close(fds[0]);
    const std::string input = intent.toJson().dump() + "\n";
    writeAll(fds[1], input.data(), input.size()); // EPIPE: the command decides by its status
    ::close(fds[1]);
    int status = 0;
    if (!waitWithTimeout(pid, m_timeout, status)) {
        ::kill(-pid, SIGKILL);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
        return "command timed out after " + std::to_string(m_timeout.count()) + " ms";
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return std::nullopt;
    if (WIFEXITED(status))
        return "command exited with status " + std::to_string(WEXITSTATUS(status));
    return "command killed by signal " + std::to_string(WTERMSIG(status));
}

} // namespace rd
