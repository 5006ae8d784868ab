#pragma once

// The payload files under tests/fixtures, byte for byte. A test that includes this defines
// RD_FIXTURES_DIR (tests/CMakeLists.txt).
#ifndef RD_FIXTURES_DIR
#error "fixture_files.h needs RD_FIXTURES_DIR: add it to the test's compile definitions"
#endif

#include <cstddef>
#include <cstdint>
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

/// `s` with every `from` replaced by `to`.
inline std::string replaceAll(std::string s, const std::string &from, const std::string &to)
{
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

/// An id of `bytes` bytes (letters and digits) that does not compress: PostgreSQL compresses
/// a long index entry before it judges its size, so "xxx…" fits a B-tree where a real
/// provider's 4,000-byte id does not. Deterministic (a fixed linear congruential sequence).
inline std::string incompressibleId(const std::string &prefix, std::size_t bytes)
{
    static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::string id = prefix;
    std::uint32_t x = 12345;
    while (id.size() < bytes) {
        x = x * 1664525u + 1013904223u;
        id += kAlphabet[(x >> 16) % 36];
    }
    return id;
}

/// The Stripe renewal fixture (sub_1QxSub0001 renewed from December 2025 into January 2026) as
/// the delivery of another subscription's renewal: its own event id, invoice and subscription
/// ("evt_<tag>", "in_<tag>", "sub_<tag>").
inline std::string stripeRenewalOf(const std::string &tag)
{
    std::string body = fixtureFile("stripe/renewal_pre_basil.json");
    body = replaceAll(body, "evt_1QxRenew0001", "evt_" + tag);
    body = replaceAll(body, "in_1QxRenew0001", "in_" + tag);
    return replaceAll(body, "sub_1QxSub0001", "sub_" + tag);
}

} // namespace rdtest
