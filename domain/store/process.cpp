#include "domain/store/process.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <pwd.h>
#include <spawn.h>
#include <stdexcept>
#include <string_view>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>

extern char **environ;

namespace rd {
namespace {

// posix_spawn cannot change the child's user, and a forked child may only make
// async-signal-safe calls before exec (no allocation, no locale, no setenv), which is easy to
// get wrong in a process with threads. So a program that must run as another account is
// started through util-linux's setpriv (Debian: essential, always installed), which sets the
// groups, gid and uid and then execs it: every process we start is spawned the same way.
constexpr const char *kSetpriv = "/usr/bin/setpriv";

void check(int error, const char *what)
{
    if (error != 0)
        throw std::system_error(error, std::generic_category(), what);
}

class FileActions
{
public:
    FileActions() { check(posix_spawn_file_actions_init(&m_actions), "file actions"); }
    ~FileActions() { posix_spawn_file_actions_destroy(&m_actions); }
    FileActions(const FileActions &) = delete;
    FileActions &operator=(const FileActions &) = delete;
    // A dup2 onto the target clears its close-on-exec flag, as dup2 does.
    void dup(int fd, int target)
    {
        check(posix_spawn_file_actions_adddup2(&m_actions, fd, target), "dup2");
    }
    void open(int target, const char *path, int flags)
    {
        check(posix_spawn_file_actions_addopen(&m_actions, target, path, flags, 0), "open");
    }
    const posix_spawn_file_actions_t *get() const { return &m_actions; }

private:
    posix_spawn_file_actions_t m_actions;
};

class Attributes
{
public:
    Attributes() { check(posix_spawnattr_init(&m_attr), "spawn attributes"); }
    ~Attributes() { posix_spawnattr_destroy(&m_attr); }
    Attributes(const Attributes &) = delete;
    Attributes &operator=(const Attributes &) = delete;
    posix_spawnattr_t *get() { return &m_attr; }

private:
    posix_spawnattr_t m_attr;
};

// Ours, with `overrides` ("NAME=value") replacing or adding entries.
std::vector<std::string> childEnvironment(const std::vector<std::string> &overrides)
{
    std::vector<std::string> env;
    for (char **e = environ; e && *e; ++e) {
        const std::string_view entry(*e);
        const auto name = entry.substr(0, entry.find('='));
        const bool replaced
            = std::any_of(overrides.begin(), overrides.end(), [&](const std::string &o) {
                  return o.size() > name.size() && o.starts_with(name) && o[name.size()] == '=';
              });
        if (!replaced)
            env.emplace_back(entry);
    }
    env.insert(env.end(), overrides.begin(), overrides.end());
    return env;
}

std::vector<char *> nullTerminated(std::vector<std::string> &strings)
{
    std::vector<char *> pointers;
    pointers.reserve(strings.size() + 1);
    for (auto &s : strings)
        pointers.push_back(s.data());
    pointers.push_back(nullptr);
    return pointers;
}

} // namespace

int waitForExit(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return -1;
}

std::optional<RunAs> lookupAccount(const std::string &name)
{
    struct passwd pw;
    struct passwd *result = nullptr;
    std::vector<char> buffer(16384);
    if (getpwnam_r(name.c_str(), &pw, buffer.data(), buffer.size(), &result) != 0 || !result)
        return std::nullopt;
    return RunAs {name, pw.pw_uid, pw.pw_gid};
}

pid_t spawnProcess(const std::vector<std::string> &argv, const SpawnOptions &options)
{
    if (argv.empty())
        throw std::invalid_argument("spawnProcess: empty argv");
    std::vector<std::string> args;
    if (options.runAs) {
        args = {kSetpriv, "--reuid=" + std::to_string(options.runAs->uid),
            "--regid=" + std::to_string(options.runAs->gid), "--clear-groups", "--"};
    }
    args.insert(args.end(), argv.begin(), argv.end());
    std::vector<std::string> env = childEnvironment(options.environment);
    const std::vector<char *> cargv = nullTerminated(args);
    const std::vector<char *> cenv = nullTerminated(env);

    FileActions actions;
    if (options.stdinFd >= 0)
        actions.dup(options.stdinFd, STDIN_FILENO);
    else
        actions.open(STDIN_FILENO, "/dev/null", O_RDONLY);
    if (options.stdoutFd >= 0)
        actions.dup(options.stdoutFd, STDOUT_FILENO);
    if (options.stderrFd >= 0)
        actions.dup(options.stderrFd, STDERR_FILENO);
    Attributes attr;
    // Process group 0: one of its own, led by the child. glibc's posix_spawn returns once the
    // child has exec'd (or failed to), so the group exists before anyone may kill(-pid) it.
    check(posix_spawnattr_setflags(attr.get(), POSIX_SPAWN_SETPGROUP), "spawn flags");
    check(posix_spawnattr_setpgroup(attr.get(), 0), "process group");

    pid_t pid = -1;
    check(posix_spawnp(&pid, cargv[0], actions.get(), attr.get(), cargv.data(), cenv.data()),
        args[0].c_str());
    return pid;
}

ProcessResult runProcess(const std::vector<std::string> &argv, const std::optional<RunAs> &runAs)
{
    if (argv.empty())
        throw std::invalid_argument("runProcess: empty argv");
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        throw std::runtime_error("cannot create a pipe: " + std::generic_category().message(errno));
    pid_t pid = -1;
    try {
        SpawnOptions options;
        options.stdoutFd = fds[1];
        options.stderrFd = fds[1];
        options.runAs = runAs;
        // Its own process group: a Ctrl+C meant for renewalctl does not take down a server
        // started from here (pg_ctl also puts the postmaster in a session of its own).
        pid = spawnProcess(argv, options);
    } catch (const std::system_error &e) {
        close(fds[0]);
        close(fds[1]);
        if (e.code() == std::errc::no_such_file_or_directory && !runAs)
            throw std::runtime_error("cannot run " + argv[0] + ": program not found");
        throw std::runtime_error("cannot run " + argv[0] + ": " + e.what()); // names setpriv
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
    result.exitCode = waitForExit(pid);
    // Through setpriv, a program that cannot be executed is reported by setpriv (126 or 127,
    // "setpriv: failed to execute ...") rather than by posix_spawn.
    if (runAs && (result.exitCode == 126 || result.exitCode == 127)
        && result.output.starts_with("setpriv: failed to execute"))
        throw std::runtime_error("cannot run " + argv[0] + ": " + result.output);
    return result;
}

bool accountCanTraverse(const RunAs &account, const std::string &path)
{
    // test(1) asks access(2) as the account setpriv made it, as the server will be.
    SpawnOptions options;
    options.runAs = account;
    try {
        return waitForExit(spawnProcess({"/usr/bin/test", "-x", path}, options)) == 0;
    } catch (const std::system_error &) {
        return false;
    }
}

} // namespace rd
