#pragma once

#include <string>
#include <string_view>

namespace rd {

/// SHA-256 (FIPS 180-4, computed by OpenSSL's libcrypto) of `data`, as 64 lower-case hex digits.
/// Used to derive a stable delivery id for providers whose payloads carry none (Recurly's
/// fetched invoices, Lemon Squeezy): the same bytes always give the same id. Not a MAC: it
/// proves nothing about who sent the bytes.
std::string sha256Hex(std::string_view data);

} // namespace rd
