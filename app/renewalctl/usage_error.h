#pragma once

#include <stdexcept>
#include <string>

namespace rd::cli {

/// The command line itself is wrong (exit 64, ExitUsage).
class UsageError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// An input file that cannot be opened; what() says which and why (strerror).
class InputFileError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

} // namespace rd::cli
