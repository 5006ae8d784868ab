#pragma once

// What the receiver answers: a fixed set of codes and sentences. An answer carries nothing
// derived from the request, the configuration, the database or an exception; what happened is
// logged instead. The table (status, code, sentence) is in receiver_answers.cpp, one function
// per row; tst_receiver_routing checks it.

#include "domain/core/webhook_signature.h"

#include <boost/beast/http/field.hpp>
#include <boost/beast/http/status.hpp>
#include <nlohmann/json.hpp>

#include <exception>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rd {

struct IngestResult;

/// What a request is answered with.
struct Answer
{
    boost::beast::http::status status = boost::beast::http::status::ok;
    std::string body;
    std::string contentType = "application/json";
    std::vector<std::pair<boost::beast::http::field, std::string>> headers;
    bool close = false; ///< close the connection after this answer
};

Answer jsonAnswer(boost::beast::http::status status, const nlohmann::json &body);

// The error answers, {"error": CODE, "detail": SENTENCE}.
Answer notFound(); ///< 404 not_found: a path other than /webhooks/{key}, /healthz, /metrics
Answer unknownProviderKey(); ///< 404 unknown_provider_key
Answer methodNotAllowed(std::string_view allowed); ///< 405, with Allow ("GET" or "POST")
Answer bodyTooLarge(); ///< 413 body_too_large
Answer headerTooLarge(); ///< 431 header_too_large
Answer tooManyHeaderFields(); ///< 431 too_many_header_fields
Answer badRequest(); ///< 400 bad_request: not valid HTTP/1.1
/// 400 signature_<verdict>, or 401 with WWW-Authenticate for a missing or wrong basic auth.
Answer signatureRefused(SignatureVerdict verdict, bool basicAuth);
Answer databaseUnavailable(); ///< 503 database_unavailable, Retry-After: 5
Answer saturated(); ///< 503 saturated, Retry-After: 1
Answer receiverMisconfigured(); ///< 500 receiver_setup_error
Answer internalError(); ///< 500 internal_error

/// 200 {"status": "ok"} for /healthz.
Answer healthy();
/// 200 with the ingest result line, its "error" held to fixed words: a rejection's code as
/// the core names it, a fixed sentence for a value the database refused, else null (why a
/// payload is invalid is in the inbox and the log, not in the answer).
Answer deliveryAnswer(const IngestResult &result);

/// What a failure on a database worker (a delivery or a health check) is answered with, and
/// what the receiver does about it.
struct FailureAnswer
{
    Answer answer;
    std::string code; ///< the log line's "error"
    std::string detail; ///< the log line's "detail": the exception's text, or our own words
    bool dropConnection = false; ///< the worker's connection is suspect: reconnect next time
    /// A setup error: retrying will not heal it, an operator must. The receiver then reports
    /// itself not ready (/healthz 500) until a SIGHUP reload or a restart succeeds.
    bool misconfigured = false;
};

/// The one mapping of what a worker may throw to an answer:
/// - UnknownProvider (the provider was removed since the keys were loaded): 404
///   unknown_provider_key;
/// - SetupError, and a database refusal of SQLSTATE class 42 (an undefined function, table or
///   column, a missing privilege: the database is not the one this program was built for, as
///   rd::DatabaseFailure reports it; the store translates libpqxx's exceptions at its edge,
///   database_errors.h): 500 receiver_setup_error;
/// - DatabaseUnavailable, a lost connection, any other DatabaseFailure or database error, and
///   anything unexpected: 503 database_unavailable, for the provider to deliver again;
/// - any other InputError (a bug: the program refused its own data): 500 internal_error.
FailureAnswer answerForFailure(std::exception_ptr failure);

} // namespace rd
