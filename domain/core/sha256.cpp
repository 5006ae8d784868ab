#include "domain/core/sha256.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace rd {

namespace {

// First 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4
// section 4.2.2).
constexpr std::array<std::uint32_t, 64> kRound = {0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
    0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
    0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
    0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
    0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::uint32_t rotr(std::uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

class Sha256
{
public:
    void update(const unsigned char *p, std::size_t n)
    {
        m_bitLength += static_cast<std::uint64_t>(n) * 8;
        while (n > 0) {
            const std::size_t take = std::min(n, m_block.size() - m_used);
            std::copy(p, p + take, m_block.begin() + static_cast<std::ptrdiff_t>(m_used));
            m_used += take;
            p += take;
            n -= take;
            if (m_used == m_block.size()) {
                compress();
                m_used = 0;
            }
        }
    }

    std::array<std::uint32_t, 8> finish()
    {
        // Padding: a single 1 bit, zeros up to 56 bytes mod 64, then the big-endian bit length.
        const std::uint64_t bits = m_bitLength;
        const unsigned char one = 0x80;
        update(&one, 1);
        const unsigned char zero = 0;
        while (m_used != 56)
            update(&zero, 1);
        std::array<unsigned char, 8> len {};
        for (int i = 0; i < 8; ++i)
            len[static_cast<std::size_t>(i)] = static_cast<unsigned char>(bits >> (56 - 8 * i));
        update(len.data(), len.size());
        return m_state;
    }

private:
    void compress()
    {
        std::array<std::uint32_t, 64> w {};
        for (std::size_t i = 0; i < 16; ++i)
            w[i] = static_cast<std::uint32_t>(m_block[4 * i]) << 24
                | static_cast<std::uint32_t>(m_block[4 * i + 1]) << 16
                | static_cast<std::uint32_t>(m_block[4 * i + 2]) << 8
                | static_cast<std::uint32_t>(m_block[4 * i + 3]);
        for (std::size_t i = 16; i < 64; ++i) {
            const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
            const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        auto [a, b, c, d, e, f, g, h] = m_state;
        for (std::size_t i = 0; i < 64; ++i) {
            const std::uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
            const std::uint32_t ch = (e & f) ^ (~e & g);
            const std::uint32_t t1 = h + s1 + ch + kRound[i] + w[i];
            const std::uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
            const std::uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
            const std::uint32_t t2 = s0 + maj;
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        m_state[0] += a;
        m_state[1] += b;
        m_state[2] += c;
        m_state[3] += d;
        m_state[4] += e;
        m_state[5] += f;
        m_state[6] += g;
        m_state[7] += h;
    }

    // Initial hash value: fractional parts of the square roots of the first 8 primes.
    std::array<std::uint32_t, 8> m_state = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    std::array<unsigned char, 64> m_block {};
    std::size_t m_used = 0;
    std::uint64_t m_bitLength = 0;
};

} // namespace

std::string sha256Hex(std::string_view data)
{
    Sha256 h;
    h.update(reinterpret_cast<const unsigned char *>(data.data()), data.size());
    const auto state = h.finish();
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(64);
    for (const std::uint32_t word : state)
        for (int shift = 28; shift >= 0; shift -= 4)
            out += kHex[(word >> shift) & 0xf];
    return out;
}

} // namespace rd
