#include "domain/store/action_refused.h"

#include <array>

namespace rd {
namespace {

struct RefusalEntry
{
    Refusal refusal;
    std::string_view sqlstate;
    std::string_view code;
};

// The one mapping between the database's refusal codes and the programs' (0009, 0027, 0029, 0031,
// 0033, 0034, 0037, 0045, 0053).
constexpr std::array kRefusals {
    RefusalEntry {Refusal::CaseNotFound, "RD001", "case_not_found"},
    RefusalEntry {Refusal::CaseAlreadyClosed, "RD002", "case_already_closed"},
    RefusalEntry {Refusal::CaseNotReapplicable, "RD003", "case_not_reapplicable"},
    RefusalEntry {Refusal::NoteRequired, "RD004", "note_required"},
    RefusalEntry {Refusal::InvalidReason, "RD005", "invalid_reason"},
    RefusalEntry {Refusal::StaleSnapshot, "RD006", "stale_snapshot"},
    RefusalEntry {
        Refusal::RenewalKeyPayloadConflict, "RD007", "provider_renewal_key_payload_conflict"},
    RefusalEntry {Refusal::SnapshotRewindsPeriod, "RD008", "snapshot_rewinds_period"},
    RefusalEntry {Refusal::SnapshotCaseMismatch, "RD009", "snapshot_case_mismatch"},
    RefusalEntry {Refusal::SnapshotRenewalMismatch, "RD010", "snapshot_renewal_mismatch"},
    RefusalEntry {Refusal::ProviderExists, "RD011", "provider_exists"},
    RefusalEntry {Refusal::SnapshotFromTheFuture, "RD012", "snapshot_from_the_future"},
    RefusalEntry {Refusal::ProviderNotRegistered, "RD013", "provider_not_registered"},
    RefusalEntry {Refusal::StatementRunClosed, "RD014", "statement_run_closed"},
    RefusalEntry {Refusal::MonthCloseRefused, "RD015", "month_close_refused"},
    RefusalEntry {Refusal::CaseNotReopenable, "RD016", "case_not_reopenable"},
    // 0034: reviewing an invalid delivery.
    RefusalEntry {Refusal::DeliveryNotFound, "RD017", "delivery_not_found"},
    RefusalEntry {Refusal::DeliveryNotInvalid, "RD018", "delivery_not_invalid"},
    RefusalEntry {Refusal::DeliveryAlreadyReviewed, "RD019", "delivery_already_reviewed"},
    // 0037: removing delivery bodies.
    RefusalEntry {Refusal::RetentionNotConfigured, "RD020", "retention_not_configured"},
    RefusalEntry {Refusal::PurgeNeedsOperator, "RD021", "purge_needs_operator"},
    // 0045: work that runs one at a time, busy past the lock timeout.
    RefusalEntry {Refusal::WorkBusy, "RD022", "work_busy"},
    // 0053: payment trouble and access.
    RefusalEntry {Refusal::SubscriptionNotFound, "RD023", "subscription_not_found"},
    RefusalEntry {Refusal::AccessExtensionRefused, "RD024", "access_extension_refused"},
};

// "ERROR:  the sentence\nCONTEXT:  PL/pgSQL function ..." -> "the sentence".
std::string primaryMessage(std::string_view text)
{
    if (const auto p = text.find("ERROR:"); p != std::string_view::npos)
        text.remove_prefix(p + 6);
    if (const auto nl = text.find('\n'); nl != std::string_view::npos)
        text = text.substr(0, nl);
    const auto start = text.find_first_not_of(' ');
    return start == std::string_view::npos ? std::string() : std::string(text.substr(start));
}

} // namespace

std::string_view toString(Refusal refusal)
{
    for (const auto &e : kRefusals) {
        if (e.refusal == refusal)
            return e.code;
    }
    return "refused";
}

std::optional<Refusal> refusalFromSqlstate(std::string_view sqlstate)
{
    for (const auto &e : kRefusals) {
        if (e.sqlstate == sqlstate)
            return e.refusal;
    }
    return std::nullopt;
}

std::optional<ActionRefused> refusalFromError(std::string_view sqlstate, std::string_view message)
{
    const auto refusal = refusalFromSqlstate(sqlstate);
    if (!refusal)
        return std::nullopt;
    return ActionRefused(*refusal, primaryMessage(message));
}

} // namespace rd
