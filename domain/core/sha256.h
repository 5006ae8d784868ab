#pragma once

#include <memory>
#include <string>
#include <string_view>

struct evp_md_ctx_st;

namespace rd {

/// SHA-256 (FIPS 180-4, computed by OpenSSL's libcrypto) of `data`, as 64 lower-case hex digits.
/// Used to derive a stable delivery id for providers whose payloads carry none (Recurly's
/// fetched invoices, Lemon Squeezy): the same bytes always give the same id. Not a MAC: it
/// proves nothing about who sent the bytes.
std::string sha256Hex(std::string_view data);

/// SHA-256 over data that arrives in pieces (an audit anchor's digest over a million heads):
/// the pieces' concatenation gives sha256Hex's digest without ever being held at once.
class Sha256
{
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;

    void update(std::string_view data);
    /// The digest of everything given so far; the hash then starts again, empty.
    std::string hexDigest();

private:
    struct Free
    {
        void operator()(evp_md_ctx_st *ctx) const;
    };
    std::unique_ptr<evp_md_ctx_st, Free> m_ctx;
};

} // namespace rd
