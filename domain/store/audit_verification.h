#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rd {

/// One place where an audit chain does not hold.
struct ChainBreak
{
    std::string chain; ///< "subscription_transition_audits" or "reconciliation_case_history"
    std::string chainId; ///< the subscription id or case id the chain belongs to
    std::int64_t rowId = 0;
    std::int64_t seq = 0;
    std::string problem;
    /// Whose chain it is, in the words people search by: the subscription's provider and the
    /// provider's id for it (a case's chain: its case's). Empty when the subscription or case
    /// is gone. Filled by the verification and the anchor check.
    std::string provider;
    std::string subscription;
    /// The broken state, for the breaks a walk of the chains finds (empty for the anchor's and
    /// the billing periods'): the row's stored hash, the SHA-256 of its content as found, and
    /// the stored hash of the row before it in its chain (empty for a chain's first row). A
    /// backup of a database whose chains are broken records them, and its restore accepts
    /// that very state only (#42, item 6): the broken row altered again, or the row before it,
    /// no longer matches.
    std::string rowHash {};
    std::string contentHash {};
    std::string previousRowHash {};
};

/// What is wrong at a break, as ChainBreak::problem says it (the anchor's and the billing
/// periods' checks add theirs: kAnchoredRowGone, kAnchoredRowRewritten, and
/// audit_billing_period_breaks()'s sentences, which name the renewal).
namespace chain_problem {
inline constexpr std::string_view kAltered = "row content does not match its hash (altered)";
inline constexpr std::string_view kRowsBeforeMissing = "rows before this one are missing (removed)";
inline constexpr std::string_view kPreviousHash
    = "the previous row's hash does not match (altered or removed)";
inline constexpr std::string_view kRowBeforeMissing
    = "the row before this one is missing (removed)";
inline constexpr std::string_view kAnchoredRowGone
    = "the anchored row is gone (removed since the anchor was exported)";
inline constexpr std::string_view kAnchoredRowRewritten
    = "the anchored row's hash changed (rewritten since the anchor was exported)";
} // namespace chain_problem

/// A break named for people: "subscription stripe-main sub_123 (chain 1f…), audit row 12 at
/// position 3: row content does not match its hash (altered)"; a case's chain says "case 7 of
/// subscription …". An anchor's mismatch (no row id) names the position only.
std::string describeChainBreak(const ChainBreak &b);

/// What a verification covered: the rows and chains checked (subscription audits and case
/// histories together) and the breaks found, all from one snapshot of the database.
struct AuditVerification
{
    long long rows = 0;
    long long chains = 0;
    std::vector<ChainBreak> breaks;
    /// More breaks were found than AuditVerifyOptions::maxBreaks kept.
    bool moreBreaks = false;
    /// The most rows one fetch brought (at most AuditVerifyOptions::batchRows): what bounds the
    /// client's memory.
    long long largestBatch = 0;
    /// When the snapshot was taken (RFC 3339, UTC).
    std::string at;
    bool intact() const { return breaks.empty(); }
};

/// Where a streamed verification is: rows and chains checked so far of about `expectedRows`
/// (the planner's estimate, pg_class.reltuples: a guide for a progress bar, not a count).
struct AuditVerifyProgress
{
    long long rows = 0;
    long long chains = 0;
    long long expectedRows = 0;
    long long batches = 0;
};

struct AuditVerifyOptions
{
    /// Rows fetched from the server-side cursor at a time: what the client holds at once.
    int batchRows = 20000;
    /// 2: the subscription chains as two halves of the uuid range, on two connections in one
    /// snapshot (two backends share the server's side of the work).
    int streams = 1;
    /// Breaks kept (a tampered database may break every row); the count of rows still covers all.
    std::size_t maxBreaks = 1000;
    /// Called after every batch, on the verifying thread.
    std::function<void(const AuditVerifyProgress &)> onProgress;
    /// Checked after every batch: set, the verification stops with AuditVerificationCanceled.
    const std::atomic<bool> *cancel = nullptr;
    /// An exported snapshot (pg_export_snapshot) to verify instead of taking one: a backup
    /// verifies the very rows its pg_dump reads (#42, item 6). Empty: a snapshot of its own.
    std::string snapshot {};
};

class AuditVerificationCanceled : public std::runtime_error
{
public:
    AuditVerificationCanceled() : std::runtime_error("audit verification canceled") { }
};

/// Verifies every chain as verifyAuditChainsStreamed (audit_chains.h) does, over a connection
/// of its own to `conninfo` (for programs without libpqxx: the desk).
AuditVerification verifyAuditChains(const std::string &conninfo, const AuditVerifyOptions &options);
/// How an exported anchor is laid out: one head field a line (for people) or one line.
enum class AnchorLayout { Indented, Compact };

/// What an anchor file held and, when checked against a database, which heads did not match.
struct AuditAnchorCheck
{
    long long heads = 0;
    /// The file's "createdAt", when it is a string.
    std::optional<std::string> createdAt;
    /// The file's "digest" (lower-case hex), found to be the SHA-256 of its heads.
    std::string digest;
    /// The first mismatches (a head gone or rewritten), at most the check's maxMismatches.
    std::vector<ChainBreak> mismatches;
    long long mismatchCount = 0;
    bool matches() const { return mismatchCount == 0; }
};

/// exportAuditAnchor (audit_chains.h) over a connection of its own; returns the heads written
/// and, when `digest` is given, the digest written.
long long exportAuditAnchor(const std::string &conninfo, std::ostream &out,
    AnchorLayout layout = AnchorLayout::Indented, std::string *digest = nullptr);
/// checkAuditAnchor (audit_chains.h) over a connection of its own.
AuditAnchorCheck checkAuditAnchor(
    const std::string &conninfo, std::istream &anchor, std::size_t maxMismatches = 1000);
/// Reads an anchor without a database: its heads are counted and checked for form and against
/// its digest (an InputError names the first thing wrong), as checkAuditAnchor does.
AuditAnchorCheck readAuditAnchor(std::istream &anchor);

} // namespace rd
