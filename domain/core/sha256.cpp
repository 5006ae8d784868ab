#include "domain/core/sha256.h"

#include "domain/core/encoding.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace rd {
namespace {

// The EVP calls fail only when libcrypto cannot allocate or fetch the algorithm.
void require(int ok, const char *what)
{
    if (ok != 1)
        throw std::runtime_error(std::string("SHA-256: libcrypto's ") + what + " failed");
}

} // namespace

std::string sha256Hex(std::string_view data)
{
    Sha256 hash;
    hash.update(data);
    return hash.hexDigest();
}

void Sha256::Free::operator()(evp_md_ctx_st *ctx) const
{
    EVP_MD_CTX_free(ctx);
}

Sha256::Sha256() : m_ctx(EVP_MD_CTX_new())
{
    if (!m_ctx)
        throw std::runtime_error("SHA-256: libcrypto's EVP_MD_CTX_new failed");
    require(EVP_DigestInit_ex(m_ctx.get(), EVP_sha256(), nullptr), "EVP_DigestInit_ex");
}

Sha256::~Sha256() = default;

void Sha256::update(std::string_view data)
{
    require(EVP_DigestUpdate(m_ctx.get(), data.data(), data.size()), "EVP_DigestUpdate");
}

std::string Sha256::hexDigest()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    require(EVP_DigestFinal_ex(m_ctx.get(), digest, &length), "EVP_DigestFinal_ex");
    require(EVP_DigestInit_ex(m_ctx.get(), EVP_sha256(), nullptr), "EVP_DigestInit_ex");
    return toHex(std::string_view(reinterpret_cast<const char *>(digest), length));
}

} // namespace rd
