#include "domain/store/tool_run.h"

#include "domain/store/process.h"

#include <cerrno>
#include <csignal>
#include <exception>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>

namespace rd {
namespace {

constexpr std::size_t kChunk = 256 * 1024;
constexpr std::size_t kMaxErrors = 64 * 1024;
constexpr int kTickMs = 200;

class Fd
{
public:
    Fd() = default;
    explicit Fd(int fd) : m_fd(fd) { }
    ~Fd() { reset(); }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    int get() const { return m_fd; }
    void reset()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }
    int *out() { return &m_fd; }

private:
    int m_fd = -1;
};

void nonBlocking(int fd)
{
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

std::system_error lastError(const char *what)
{
    return std::system_error(errno, std::generic_category(), what);
}

int waitFor(pid_t pid)
{
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return -1;
}

} // namespace

ToolResult runTool(const ToolRun &run)
{
    // Input through a socket pair rather than a pipe: send(MSG_NOSIGNAL) reports a reader
    // that has gone as EPIPE instead of raising SIGPIPE in a process (the desk) that has not
    // asked for it to be ignored.
    Fd inOurs, inTheirs, outOurs, outTheirs, errOurs, errTheirs;
    if (run.input) {
        int sv[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
            throw lastError("socketpair");
        *inOurs.out() = sv[0];
        *inTheirs.out() = sv[1];
        ::shutdown(sv[0], SHUT_RD);
    }
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0)
        throw lastError("pipe");
    *outOurs.out() = p[0];
    *outTheirs.out() = p[1];
    if (::pipe2(p, O_CLOEXEC) != 0)
        throw lastError("pipe");
    *errOurs.out() = p[0];
    *errTheirs.out() = p[1];

    SpawnOptions options;
    options.stdinFd = inTheirs.get();
    options.stdoutFd = outTheirs.get();
    options.stderrFd = errTheirs.get();
    options.environment = run.environment;
    pid_t pid = -1;
    try {
        pid = spawnProcess(run.argv, options);
    } catch (const std::system_error &e) {
        if (e.code() == std::errc::no_such_file_or_directory)
            throw std::runtime_error("cannot run " + run.argv.front() + ": program not found");
        throw std::runtime_error("cannot run " + run.argv.front() + ": " + e.what());
    }
    inTheirs.reset();
    outTheirs.reset();
    errTheirs.reset();
    for (const Fd *fd : {&inOurs, &outOurs, &errOurs})
        if (fd->get() >= 0)
            nonBlocking(fd->get());

    ToolResult result;
    std::exception_ptr failure;
    std::string pending; // input read from run.input, not yet taken by the program
    std::size_t pendingAt = 0;
    bool inputEnded = !run.input;
    std::string buffer(kChunk, '\0');
    auto kill = [&] { ::kill(-pid, SIGTERM); };

    while (outOurs.get() >= 0 || errOurs.get() >= 0) {
        if (!failure && run.cancel && run.cancel->load()) {
            result.canceled = true;
            kill();
            inOurs.reset();
        }
        // Top up the input when what was read has been sent.
        if (inOurs.get() >= 0 && pendingAt == pending.size() && !inputEnded && !failure) {
            try {
                pending.resize(kChunk);
                pending.resize(run.input(pending.data(), pending.size()));
                pendingAt = 0;
                if (pending.empty())
                    inputEnded = true;
            } catch (...) {
                failure = std::current_exception();
                kill();
            }
        }
        if (inOurs.get() >= 0 && (inputEnded || failure) && pendingAt == pending.size())
            inOurs.reset(); // end of input: the program sees EOF

        pollfd fds[3];
        nfds_t n = 0;
        int inIx = -1, outIx = -1, errIx = -1;
        if (inOurs.get() >= 0) {
            inIx = int(n);
            fds[n++] = {inOurs.get(), POLLOUT, 0};
        }
        if (outOurs.get() >= 0) {
            outIx = int(n);
            fds[n++] = {outOurs.get(), POLLIN, 0};
        }
        if (errOurs.get() >= 0) {
            errIx = int(n);
            fds[n++] = {errOurs.get(), POLLIN, 0};
        }
        const int ready = ::poll(fds, n, kTickMs);
        if (ready < 0 && errno != EINTR) {
            failure = std::make_exception_ptr(lastError("poll"));
            kill();
            break;
        }
        if (inIx >= 0 && fds[inIx].revents) {
            const ssize_t sent = ::send(
                inOurs.get(), pending.data() + pendingAt, pending.size() - pendingAt, MSG_NOSIGNAL);
            if (sent > 0)
                pendingAt += std::size_t(sent);
            else if (sent < 0 && errno != EAGAIN && errno != EINTR)
                inOurs.reset(); // EPIPE: it has read all it wanted
        }
        if (outIx >= 0 && fds[outIx].revents) {
            const ssize_t got = ::read(outOurs.get(), buffer.data(), buffer.size());
            if (got > 0) {
                if (!run.output) {
                    result.output.append(buffer.data(), std::size_t(got));
                } else if (!failure) {
                    try {
                        run.output(std::string_view(buffer.data(), std::size_t(got)));
                    } catch (...) {
                        failure = std::current_exception();
                        kill();
                    }
                }
            } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                outOurs.reset();
            }
        }
        if (errIx >= 0 && fds[errIx].revents) {
            const ssize_t got = ::read(errOurs.get(), buffer.data(), buffer.size());
            if (got > 0) {
                result.errors.append(buffer.data(), std::size_t(got));
                if (result.errors.size() > kMaxErrors)
                    result.errors.erase(0, result.errors.size() - kMaxErrors);
            } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                errOurs.reset();
            }
        }
        if (run.onTick && !failure) {
            try {
                run.onTick();
            } catch (...) {
                failure = std::current_exception();
                kill();
            }
        }
    }
    inOurs.reset();
    result.exitCode = waitFor(pid);
    if (failure)
        std::rethrow_exception(failure);
    return result;
}

} // namespace rd
