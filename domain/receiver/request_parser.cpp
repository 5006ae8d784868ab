#include "domain/receiver/request_parser.h"

#include <boost/beast/http/error.hpp>

#include <algorithm>
#include <limits>

namespace rd {

namespace http = boost::beast::http;

RequestParser::RequestParser(
    std::size_t maxHeaderBytes, std::size_t maxHeaderFields, std::size_t maxBodyBytes)
    : m_maxHeaderBytes(maxHeaderBytes)
    , m_maxHeaderFields(maxHeaderFields)
    , m_maxBodyBytes(maxBodyBytes)
{
    // Beast's own limit stops a header section that never ends before it is all buffered;
    // the same number also bounds what is counted below, trailer included.
    header_limit(static_cast<std::uint32_t>(
        std::min<std::size_t>(maxHeaderBytes, std::numeric_limits<std::uint32_t>::max())));
    body_limit(maxBodyBytes);
}

void RequestParser::refuse(ParseRefusal why, error_code &ec)
{
    m_refusal = why;
    switch (why) {
    case ParseRefusal::HeaderTooLarge:
    case ParseRefusal::TooManyFields:
        ec = http::error::header_limit;
        break;
    case ParseRefusal::BodyTooLarge:
        ec = http::error::body_limit;
        break;
    case ParseRefusal::Internal:
    case ParseRefusal::None:
        ec = http::error::bad_alloc;
        break;
    }
}

void RequestParser::on_request_impl(
    http::verb method, string_view methodText, string_view target, int version, error_code &ec)
{
    // "METHOD target HTTP/1.1\r\n"
    m_headerBytes = methodText.size() + 1 + target.size() + 11;
    if (target.size() > kMaxFieldPartBytes || m_headerBytes > m_maxHeaderBytes)
        return refuse(ParseRefusal::HeaderTooLarge, ec);
    try {
        m_method = method;
        m_target.assign(target.data(), target.size());
        m_version = static_cast<unsigned>(version);
    } catch (const std::exception &) {
        refuse(ParseRefusal::Internal, ec);
    }
}

void RequestParser::on_response_impl(int, string_view, int, error_code &ec)
{
    ec = http::error::bad_method; // never called: this parses requests
}

void RequestParser::on_field_impl(
    http::field name, string_view nameText, string_view value, error_code &ec)
{
    if (++m_fieldCount > m_maxHeaderFields)
        return refuse(ParseRefusal::TooManyFields, ec);
    m_headerBytes += nameText.size() + value.size() + 4;
    if (nameText.size() > kMaxFieldPartBytes || value.size() > kMaxFieldPartBytes
        || m_headerBytes > m_maxHeaderBytes)
        return refuse(ParseRefusal::HeaderTooLarge, ec);
    // A trailer arrives after the body it would vouch for: nothing reads it.
    if (m_inTrailer)
        return;
    try {
        if (name == http::field::unknown)
            m_headers.insert(nameText, value);
        else
            m_headers.insert(name, value);
    } catch (const std::exception &) {
        refuse(ParseRefusal::Internal, ec);
    }
}

void RequestParser::on_header_impl(error_code &)
{
    m_inTrailer = true;
}

void RequestParser::on_body_init_impl(
    const boost::optional<std::uint64_t> &contentLength, error_code &ec)
{
    if (contentLength && *contentLength > m_maxBodyBytes)
        return refuse(ParseRefusal::BodyTooLarge, ec);
    try {
        if (contentLength)
            m_body.reserve(static_cast<std::size_t>(*contentLength));
    } catch (const std::exception &) {
        refuse(ParseRefusal::Internal, ec);
    }
}

std::size_t RequestParser::append(string_view body, error_code &ec)
{
    if (body.size() > m_maxBodyBytes - std::min(m_body.size(), m_maxBodyBytes)) {
        refuse(ParseRefusal::BodyTooLarge, ec);
        return 0;
    }
    try {
        m_body.append(body.data(), body.size());
    } catch (const std::exception &) {
        refuse(ParseRefusal::Internal, ec);
        return 0;
    }
    return body.size();
}

std::size_t RequestParser::on_body_impl(string_view body, error_code &ec)
{
    return append(body, ec);
}

void RequestParser::on_chunk_header_impl(std::uint64_t, string_view, error_code &)
{
    // Chunk sizes are checked against the body limit by Beast; extensions are ignored.
}

std::size_t RequestParser::on_chunk_body_impl(std::uint64_t, string_view body, error_code &ec)
{
    return append(body, ec);
}

void RequestParser::on_finish_impl(error_code &)
{ }

} // namespace rd
