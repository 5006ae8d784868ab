#pragma once

// Hex, base64 and ASCII case, once for the whole program. Base64 is libcrypto's
// (EVP_EncodeBlock, EVP_DecodeBlock), wrapped so that callers get exactly the bytes and strict
// input checks.

#include <optional>
#include <string>
#include <string_view>

namespace rd {

/// `bytes` as lower-case hex digits, two per byte.
std::string toHex(std::string_view bytes);
/// The bytes `text` spells in hex (either case), or std::nullopt when it has an odd length
/// or a character that is not a hex digit.
std::optional<std::string> fromHex(std::string_view text);

/// Standard base64 (RFC 4648 section 4) with padding, on one line.
std::string base64Encode(std::string_view bytes);
/// Strict standard base64 with padding: std::nullopt for a length that is not a multiple of
/// four, a character outside the alphabet (whitespace included), or '=' anywhere but as the
/// last one or two characters. "" decodes to "".
std::optional<std::string> base64Decode(std::string_view text);

/// Whether `a` and `b` are equal but for the case of ASCII letters (HTTP header names, the
/// "Basic" scheme), whatever the locale: bytes outside A-Z and a-z compare as they are.
bool asciiIEquals(std::string_view a, std::string_view b);

} // namespace rd
