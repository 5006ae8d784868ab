#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rd {

/// A column as PostgreSQL's text output gives it, or SQL NULL.
using SqlText = std::optional<std::string_view>;

/// One `subscription_transition_audits` row in text form, timestamps already in the form of
/// `rd_rfc3339` (see pgTimestampToRfc3339), `details` as `details::text`.
struct AuditRowText
{
    std::string_view subscriptionId, transition;
    SqlText billingPeriodId;
    std::string_view actorType, actorId, dbRole;
    SqlText providerEventId, providerRenewalKey, periodStart, periodEnd, reason, comment;
    std::string_view details, createdAt, chainSeq, prevHash;
};

/// One `reconciliation_case_history` row in text form, as AuditRowText.
struct CaseHistoryRowText
{
    std::string_view caseId, action, outcome;
    SqlText errorCode;
    std::string_view actor;
    SqlText reason, comment;
    std::string_view details, createdAt, chainSeq, prevHash;
};

/// The text `rd_audit_canonical(row)` returns (migration 0003): the row's jsonb object as
/// PostgreSQL prints it, keys ordered as jsonb stores them (shorter first, then bytewise),
/// strings escaped as jsonb's output escapes them. The hash chain is SHA-256 over exactly
/// these bytes, so verification can run outside the server; tst_auditverify checks it
/// against the server's own function.
std::string auditCanonicalText(const AuditRowText &row);
/// The text `rd_case_history_canonical(row)` returns (migration 0003).
std::string caseHistoryCanonicalText(const CaseHistoryRowText &row);

/// A timestamptz printed by a session with `TimeZone = UTC` and `DateStyle = ISO`
/// ("2026-07-01 00:00:00.5+00") in `rd_rfc3339`'s form ("2026-07-01T00:00:00.500000Z");
/// nothing for what that form does not cover simply (years past 9999, BC, infinity): the
/// caller asks the server then.
std::optional<std::string> pgTimestampToRfc3339(std::string_view text);

/// Appends `text` as a JSON string the way jsonb's output writes it.
void appendJsonbString(std::string &out, std::string_view text);

} // namespace rd
