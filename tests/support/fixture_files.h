#pragma once

// The payload files under tests/fixtures, byte for byte. A test that includes this defines
// RD_FIXTURES_DIR (tests/CMakeLists.txt).
#ifndef RD_FIXTURES_DIR
#error "fixture_files.h needs RD_FIXTURES_DIR: add it to the test's compile definitions"
#endif

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace rdtest {

/// The bytes of tests/fixtures/<relative>; a missing file fails the test instead of reading as
/// an empty payload.
inline std::string fixtureFile(const std::string &relative)
{
    const std::string path = std::string(RD_FIXTURES_DIR) + "/" + relative;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("fixture not found: " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace rdtest
