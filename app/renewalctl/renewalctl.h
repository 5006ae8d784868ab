#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace rd::cli {

/// Runs one renewalctl command line (without the program name). Every error is mapped here,
/// once, to one sentence on `err` and a sysexits exit code.
int runRenewalctl(
    const std::vector<std::string> &words, std::istream &in, std::ostream &out, std::ostream &err);

} // namespace rd::cli
