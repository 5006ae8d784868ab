#pragma once

// Files that hold customer data outside the database (backups, saved statement pages): mode
// 0600 in a folder of mode 0700, whatever the umask, so that no other account on the machine
// reads what the database's own roles would not let it read.

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rd {

/// Creates `path` as an empty file of mode 0600, open to no one else from its first moment
/// (O_EXCL: never a file that another process holds open). A file already there is replaced
/// (unlinked first, so its own wider mode, or a link to elsewhere, is not inherited).
/// InputError naming the path when it cannot be created.
void createPrivateFile(const std::filesystem::path &path);

/// createPrivateFile, then `bytes` written and flushed. InputError when the write fails.
void writePrivateFile(const std::filesystem::path &path, std::string_view bytes);

/// Creates the folder `dir` with mode 0700 (missing parents as the umask makes them).
/// InputError naming the folder when it cannot be created.
void createPrivateDirectory(const std::filesystem::path &dir);

/// Makes sure `dir` is a private folder to write private files into: created by
/// createPrivateDirectory when absent; when present, used only if it is a directory (not a
/// link to one) of this account that grants nothing to group or others. A wider one is refused
/// (UnsafeDirectory), not tightened: it may be a folder the user shares on purpose, such as
/// the working directory, and its present contents were readable all along.
void requirePrivateDirectory(const std::filesystem::path &dir);

/// requirePrivateDirectory's refusal: what() says what is wrong and how to fix it.
class UnsafeDirectory : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

} // namespace rd
