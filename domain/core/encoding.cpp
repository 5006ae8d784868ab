#include "domain/core/encoding.h"

#include <openssl/evp.h>

#include <limits>
#include <stdexcept>

namespace rd {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool isBase64Letter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+'
        || c == '/';
}

// EVP_EncodeBlock and EVP_DecodeBlock take an int length.
constexpr std::size_t kMaxBlock = static_cast<std::size_t>(std::numeric_limits<int>::max()) / 4 * 3;

} // namespace

std::string toHex(std::string_view bytes)
{
    std::string out;
    out.reserve(2 * bytes.size());
    for (const char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        out += kHexDigits[b >> 4];
        out += kHexDigits[b & 0x0f];
    }
    return out;
}

std::optional<std::string> fromHex(std::string_view text)
{
    if (text.size() % 2 != 0)
        return std::nullopt;
    std::string out;
    out.reserve(text.size() / 2);
    for (std::size_t i = 0; i < text.size(); i += 2) {
        const int high = hexValue(text[i]);
        const int low = hexValue(text[i + 1]);
        if (high < 0 || low < 0)
            return std::nullopt;
        out += static_cast<char>((high << 4) | low);
    }
    return out;
}

std::string base64Encode(std::string_view bytes)
{
    if (bytes.size() > kMaxBlock)
        throw std::length_error("base64Encode: input too large");
    std::string out((bytes.size() + 2) / 3 * 4 + 1, '\0'); // EVP_EncodeBlock adds a NUL
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char *>(out.data()),
        reinterpret_cast<const unsigned char *>(bytes.data()), static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

std::optional<std::string> base64Decode(std::string_view text)
{
    // EVP_DecodeBlock is lenient where this must not be: it skips leading whitespace and
    // trailing line ends, and reads '=' as a zero digit wherever it stands. So the text is
    // checked here first, and the padding counted.
    if (text.size() % 4 != 0 || text.size() / 4 * 3 > kMaxBlock)
        return std::nullopt;
    std::size_t padding = 0;
    if (!text.empty() && text.back() == '=')
        padding = text[text.size() - 2] == '=' ? 2 : 1;
    for (std::size_t i = 0; i + padding < text.size(); ++i) {
        if (!isBase64Letter(text[i]))
            return std::nullopt;
    }
    if (text.empty())
        return std::string();
    std::string out(text.size() / 4 * 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char *>(out.data()),
        reinterpret_cast<const unsigned char *>(text.data()), static_cast<int>(text.size()));
    if (n < 0 || static_cast<std::size_t>(n) != out.size())
        return std::nullopt;
    // The returned length counts a zero byte for each '=' of padding: they are not data.
    out.resize(out.size() - padding);
    return out;
}

bool asciiIEquals(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i]))
            return false;
    return true;
}

} // namespace rd
