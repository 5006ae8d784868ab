#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rd {

/// Why the database refused an operator action. Each refusal is raised in SQL with a SQLSTATE
/// of its own in the class RD (migrations/0009_refusal_sqlstates.sql lists them).
enum class Refusal {
    CaseNotFound,
    CaseAlreadyClosed,
    CaseNotReapplicable,
    NoteRequired,
    InvalidReason,
    StaleSnapshot,
    RenewalKeyPayloadConflict,
    SnapshotRewindsPeriod,
    SnapshotCaseMismatch,
    SnapshotRenewalMismatch,
    ProviderExists,
    SnapshotFromTheFuture,
    ProviderNotRegistered,
    StatementRunClosed,
    MonthCloseRefused,
    /// Reopen: the case is not a dismissed one, its renewal is recorded since, or another case
    /// of the same renewal is open (0033).
    CaseNotReopenable,
    DeliveryNotFound,
    DeliveryNotInvalid,
    DeliveryAlreadyReviewed,
    /// 0037: a retention sweep without an age and no retention configured.
    RetentionNotConfigured,
    /// 0037: a retention sweep of an age the caller chose, by a role that is no operator.
    PurgeNeedsOperator,
    /// 0045: the work lock this action queues on (a provider's statement imports and month
    /// closes, a renewal's reopens) was held by the one running past the lock timeout; waiting
    /// heals it.
    WorkBusy,
    /// 0053: a subscription the database does not know (an extension of its grace).
    SubscriptionNotFound,
    /// 0053: an extension of grace to an instant not after now or more than 90 days ahead, or
    /// of a subscription whose access has ended.
    AccessExtensionRefused,
};

/// The refusal's code as programs and people see it: "case_already_closed", ...
std::string_view toString(Refusal refusal);
/// The refusal a SQLSTATE stands for ("RD002" -> CaseAlreadyClosed); nullopt outside the list.
std::optional<Refusal> refusalFromSqlstate(std::string_view sqlstate);

/// An operator action the database refused, with its typed reason and the database's sentence
/// for people ("case 42 was already resolved (reapplied) by alice at 2026-...").
class ActionRefused : public std::runtime_error
{
public:
    ActionRefused(Refusal refusal, const std::string &sentence)
        : std::runtime_error(sentence), m_refusal(refusal)
    { }
    Refusal refusal() const { return m_refusal; }
    std::string code() const { return std::string(toString(m_refusal)); }

private:
    Refusal m_refusal;
};

/// The refusal a database error stands for, from its SQLSTATE and its message as libpq gives
/// it ("ERROR:  <sentence>\nCONTEXT: ..."): nullopt when the SQLSTATE is not a refusal.
std::optional<ActionRefused> refusalFromError(std::string_view sqlstate, std::string_view message);

} // namespace rd
