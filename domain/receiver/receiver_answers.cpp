#include "domain/receiver/receiver_answers.h"

#include "domain/core/errors.h"
#include "domain/core/rejection_code.h"
#include "domain/store/webhook_ingestor.h"

namespace rd {

namespace http = boost::beast::http;

namespace {

/// An error answer outside trust: a code and a fixed sentence, never anything derived from the
/// request, the configuration or an exception (those go to the log).
Answer errorAnswer(http::status status, std::string_view code, std::string_view sentence)
{
    return jsonAnswer(status, {{"error", code}, {"detail", sentence}});
}

/// 503: the database is unavailable or the receiver is saturated; come back later.
Answer unavailable(std::string_view code, std::string_view sentence, int retryAfterSeconds)
{
    Answer a = errorAnswer(http::status::service_unavailable, code, sentence);
    a.headers.emplace_back(http::field::retry_after, std::to_string(retryAfterSeconds));
    return a;
}

/// The fixed sentence of a signature refusal: the verdict only (the log has the detail).
std::string_view signatureSentence(SignatureVerdict verdict)
{
    switch (verdict) {
    case SignatureVerdict::Missing:
        return "the delivery carries no signature";
    case SignatureVerdict::Malformed:
        return "the signature is not in the provider's format";
    case SignatureVerdict::Mismatch:
        return "the signature does not match";
    case SignatureVerdict::StaleTimestamp:
        return "the signed timestamp is outside the accepted window";
    case SignatureVerdict::NotConfigured:
        return "this provider key cannot verify deliveries";
    case SignatureVerdict::Valid:
        break;
    }
    return "the signature was refused";
}

// SQLSTATE class 42, "syntax error or access rule violation": the program's own statements
// name a function, table or column the database lacks, or one the login may not use. The
// database is not the one this program was built for (a schema older or newer than the
// program, a role without its grants); delivering again will not change that.
bool refusesTheProgramsSetup(const std::string &sqlstate)
{
    return sqlstate.rfind("42", 0) == 0;
}

FailureAnswer setupFailure(std::string detail)
{
    return {receiverMisconfigured(), "receiver_setup_error", std::move(detail), false, true};
}

FailureAnswer unavailableFailure(std::string detail)
{
    // Nothing was acknowledged: the provider delivers again later.
    return {databaseUnavailable(), "database_unavailable", std::move(detail), true, false};
}

} // namespace

Answer jsonAnswer(http::status status, const nlohmann::json &body)
{
    Answer a;
    a.status = status;
    a.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    return a;
}

Answer notFound()
{
    return errorAnswer(
        http::status::not_found, "not_found", "POST deliveries to /webhooks/{providerKey}");
}

Answer unknownProviderKey()
{
    return errorAnswer(
        http::status::not_found, "unknown_provider_key", "no such provider key is served here");
}

Answer methodNotAllowed(std::string_view allowed)
{
    Answer a = errorAnswer(http::status::method_not_allowed, "method_not_allowed",
        allowed == "GET" ? "use GET" : "use POST");
    a.headers.emplace_back(http::field::allow, allowed == "GET" ? "GET" : "POST");
    return a;
}

Answer bodyTooLarge()
{
    return errorAnswer(
        http::status::payload_too_large, "body_too_large", "the body is over the receiver's limit");
}

Answer headerTooLarge()
{
    return errorAnswer(http::status::request_header_fields_too_large, "header_too_large",
        "the request's header section and trailer are over the receiver's limit");
}

Answer tooManyHeaderFields()
{
    return errorAnswer(http::status::request_header_fields_too_large, "too_many_header_fields",
        "the request has more header and trailer fields than the receiver accepts");
}

Answer badRequest()
{
    return errorAnswer(
        http::status::bad_request, "bad_request", "the request is not valid HTTP/1.1");
}

Answer signatureRefused(SignatureVerdict verdict, bool basicAuth)
{
    Answer a = errorAnswer(basicAuth ? http::status::unauthorized : http::status::bad_request,
        "signature_" + std::string(toString(verdict)), signatureSentence(verdict));
    if (basicAuth)
        a.headers.emplace_back(http::field::www_authenticate, "Basic realm=\"webhooks\"");
    return a;
}

Answer databaseUnavailable()
{
    return unavailable("database_unavailable", "the database is unavailable; retry later", 5);
}

Answer saturated()
{
    return unavailable("saturated", "every database worker is busy; retry shortly", 1);
}

Answer receiverMisconfigured()
{
    // No Retry-After: nothing here heals with time; the operator has to act (the log says how).
    return errorAnswer(http::status::internal_server_error, "receiver_setup_error",
        "the receiver is misconfigured; its operator has to fix it");
}

Answer internalError()
{
    return errorAnswer(http::status::internal_server_error, "internal_error",
        "the receiver failed on this delivery; nothing was stored");
}

Answer healthy()
{
    return jsonAnswer(http::status::ok, {{"status", "ok"}});
}

Answer deliveryAnswer(const IngestResult &result)
{
    nlohmann::json j = result.toJson();
    // A redelivery is answered from the inbox row, whose error is the adapter's message for an
    // invalid payload (it may quote the payload or a library's wording): the outcome says as
    // much, so the answer says no more, as the first answer did.
    if (result.errorQuotesTheDatabase())
        j["error"] = "the database refused a value of this renewal";
    else if (!result.error.empty() && !rejectionCodeFromString(result.error))
        j["error"] = nullptr;
    return jsonAnswer(http::status::ok, j);
}

FailureAnswer answerForFailure(std::exception_ptr failure)
{
    try {
        std::rethrow_exception(failure);
    } catch (const UnknownProvider &) {
        // Removed from billing_providers since the keys were loaded. Its message advises the
        // command line; the log gets words for the receiver's operator.
        return {unknownProviderKey(), "unknown_provider_key",
            "the provider key is no longer registered in the database (SIGHUP reloads the "
            "registered providers)",
            false, false};
    } catch (const SetupError &e) {
        return setupFailure(e.what());
    } catch (const DatabaseUnavailable &e) {
        return unavailableFailure(e.what());
    } catch (const DatabaseFailure &e) {
        if (!e.transient() && refusesTheProgramsSetup(e.sqlstate()))
            return setupFailure(e.sqlstate() + ": " + e.what());
        return unavailableFailure(e.what());
    } catch (const InputError &e) {
        return {internalError(), "internal_error", e.what(), false, false};
    } catch (const std::exception &e) {
        return unavailableFailure(e.what());
    } catch (...) {
        return unavailableFailure("an exception of an unknown type");
    }
}

} // namespace rd
