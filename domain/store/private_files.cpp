#include "domain/store/private_files.h"

#include "domain/core/errors.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace rd {
namespace {

int openPrivate(const fs::path &path)
{
    return ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
}

std::string modeText(mode_t mode)
{
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return text;
}

} // namespace

void createPrivateFile(const fs::path &path)
{
    int fd = openPrivate(path);
    if (fd < 0 && errno == EEXIST) {
        ::unlink(path.c_str());
        fd = openPrivate(path);
    }
    if (fd < 0)
        throw InputError(path.string(), std::string("cannot be created: ") + std::strerror(errno));
    ::close(fd);
}

void writePrivateFile(const fs::path &path, std::string_view bytes)
{
    createPrivateFile(path);
    // Truncating the file just created keeps its mode.
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush())
        throw InputError(path.string(), "cannot be written");
}

void createPrivateDirectory(const fs::path &dir)
{
    std::error_code ec;
    if (dir.has_parent_path() && !dir.parent_path().empty())
        fs::create_directories(dir.parent_path(), ec);
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        throw InputError(dir.string(), std::string("cannot be created: ") + std::strerror(errno));
    // The umask may have taken bits from 0700 too; nothing else may be added.
    if (::chmod(dir.c_str(), 0700) != 0)
        throw InputError(
            dir.string(), std::string("cannot be made private: ") + std::strerror(errno));
}

void requirePrivateDirectory(const fs::path &dir)
{
    struct stat st
    {
    };
    if (::lstat(dir.c_str(), &st) != 0) {
        if (errno != ENOENT)
            throw InputError(dir.string(), std::string("cannot be read: ") + std::strerror(errno));
        createPrivateDirectory(dir);
        if (::lstat(dir.c_str(), &st) != 0)
            throw InputError(dir.string(), std::string("cannot be read: ") + std::strerror(errno));
    }
    if (!S_ISDIR(st.st_mode))
        throw UnsafeDirectory(dir.string() + " is not a directory (a link to one is not taken)");
    if (st.st_uid != ::geteuid())
        throw UnsafeDirectory(dir.string() + " belongs to another account (uid "
            + std::to_string(st.st_uid) + "); give a folder of your own");
    if ((st.st_mode & 077) != 0)
        throw UnsafeDirectory(dir.string() + " is open to other accounts (mode "
            + modeText(st.st_mode) + "); give a new folder, or make it private: chmod 700 "
            + dir.string());
}

} // namespace rd
