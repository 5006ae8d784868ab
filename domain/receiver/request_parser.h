#pragma once

// The receiver's HTTP request parser: Beast's framing, with the receiver's own bookkeeping of
// what it keeps. Beast's request_parser stores chunked trailer fields among the header fields
// (where a signature header could then be read from a trailer), counts no trailer against the
// header limit, and throws from inside a parse on a field name or value of 64 KiB or more. This
// one keeps the header section only, counts header and trailer fields and bytes together
// against the limits, and turns every refusal, thrown or not, into an error code of the parse.

#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/fields.hpp>
#include <boost/beast/http/verb.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace rd {

/// Why a parse was refused, beyond Beast's own error codes.
enum class ParseRefusal {
    None,
    HeaderTooLarge, ///< header section and trailer over maxHeaderBytes, or one field too long
    TooManyFields, ///< header and trailer fields over maxHeaderFields
    BodyTooLarge,
    Internal, ///< something threw while storing a part of the request (out of memory)
};

class RequestParser : public boost::beast::http::basic_parser<true>
{
public:
    /// `maxHeaderBytes` bounds the request line, the header fields and the trailer fields
    /// together (each field counted as "name: value\r\n"); `maxHeaderFields` the fields of
    /// both; `maxBodyBytes` the body.
    RequestParser(
        std::size_t maxHeaderBytes, std::size_t maxHeaderFields, std::size_t maxBodyBytes);

    boost::beast::http::verb method() const { return m_method; }
    const std::string &target() const { return m_target; }
    unsigned version() const { return m_version; }
    /// The header section's fields; trailer fields are counted, never kept.
    const boost::beast::http::fields &headers() const { return m_headers; }
    std::string &body() { return m_body; }
    ParseRefusal refusal() const { return m_refusal; }

    /// The longest field name or value stored: Beast's fields hold at most 64 KiB - 3 bytes
    /// and throw beyond that, whatever the configured header limit.
    static constexpr std::size_t kMaxFieldPartBytes = 65535 - 2;

private:
    using error_code = boost::beast::error_code;
    using string_view = boost::beast::string_view;

    void on_request_impl(boost::beast::http::verb method, string_view methodText,
        string_view target, int version, error_code &ec) override;
    void on_response_impl(int, string_view, int, error_code &ec) override;
    void on_field_impl(boost::beast::http::field name, string_view nameText, string_view value,
        error_code &ec) override;
    void on_header_impl(error_code &ec) override;
    void on_body_init_impl(
        const boost::optional<std::uint64_t> &contentLength, error_code &ec) override;
    std::size_t on_body_impl(string_view body, error_code &ec) override;
    void on_chunk_header_impl(std::uint64_t size, string_view extensions, error_code &ec) override;
    std::size_t on_chunk_body_impl(std::uint64_t remain, string_view body, error_code &ec) override;
    void on_finish_impl(error_code &ec) override;

    void refuse(ParseRefusal why, error_code &ec);
    std::size_t append(string_view body, error_code &ec);

    const std::size_t m_maxHeaderBytes;
    const std::size_t m_maxHeaderFields;
    const std::size_t m_maxBodyBytes;
    boost::beast::http::verb m_method = boost::beast::http::verb::unknown;
    std::string m_target;
    unsigned m_version = 11;
    boost::beast::http::fields m_headers;
    bool m_inTrailer = false;
    std::size_t m_fieldCount = 0;
    std::size_t m_headerBytes = 0;
    std::string m_body;
    ParseRefusal m_refusal = ParseRefusal::None;
};

} // namespace rd
