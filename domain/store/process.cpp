#include "domain/store/process.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace rd {
namespace {

// Only async-signal-safe calls between fork and exec.
void becomeOrDie(const std::optional<RunAs> &runAs)
{
    if (runAs && (setgroups(0, nullptr) != 0 || setgid(runAs->gid) != 0 || setuid(runAs->uid) != 0))
        _exit(126);
}

} // namespace

std::optional<RunAs> lookupAccount(const std::string &name)
{
    struct passwd pw;
    struct passwd *result = nullptr;
    std::vector<char> buffer(16384);
    if (getpwnam_r(name.c_str(), &pw, buffer.data(), buffer.size(), &result) != 0 || !result)
        return std::nullopt;
    return RunAs {name, pw.pw_uid, pw.pw_gid};
}

ProcessResult runProcess(const std::vector<std::string> &argv, const std::optional<RunAs> &runAs)
{
    if (argv.empty())
        throw std::invalid_argument("runProcess: empty argv");
    std::vector<char *> cargv;
    cargv.reserve(argv.size() + 1);
    for (const auto &a : argv)
        cargv.push_back(const_cast<char *>(a.c_str()));
    cargv.push_back(nullptr);

    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));

    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        throw std::runtime_error(std::string("cannot fork: ") + std::strerror(errno));
    }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        const int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, STDIN_FILENO);
        becomeOrDie(runAs);
        // A server started from here must not stay in our process group: a Ctrl+C meant for
        // renewalctl should not take the database down with it.
        setsid();
        execvp(cargv[0], cargv.data());
        _exit(127);
    }
    close(fds[1]);
    ProcessResult result;
    char buf[4096];
    for (;;) {
        const ssize_t n = read(fds[0], buf, sizeof buf);
        if (n > 0)
            result.output.append(buf, static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR)
            break;
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    if (WIFEXITED(status))
        result.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        result.exitCode = 128 + WTERMSIG(status);
    if (result.exitCode == 127 && result.output.empty())
        throw std::runtime_error("cannot run " + argv[0] + ": program not found");
    return result;
}

bool accountCanTraverse(const RunAs &account, const std::string &path)
{
    const pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        becomeOrDie(account);
        _exit(access(path.c_str(), X_OK) == 0 ? 0 : 1);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace rd
