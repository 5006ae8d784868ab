#pragma once

#include "domain/store/db_session.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace rd {

/// What the database keeps of the retention setting (migration 0037, `inbox_retention`).
struct InboxRetention
{
    std::optional<int> days; ///< nullopt: no retention configured
    std::string setBy;
    std::string setAt; ///< RFC 3339
};

InboxRetention readInboxRetention(DbRef db);
/// The owner's (set_inbox_retention): nullopt switches the retention off.
InboxRetention setInboxRetention(DbRef db, std::optional<int> days);

/// RENEWAL_DESK_RETENTION_DAYS as the fold reads it: a whole number of days from 0 to 36500;
/// null, empty or "off" is none. Anything else is an InputError naming the variable.
std::optional<int> retentionDaysFromEnvironment(const char *value);

struct PurgeOptions
{
    /// nullopt: the configured retention (RD020 when there is none); a value is an operator's
    /// choice (RD021 for other roles).
    std::optional<int> olderThanDays;
    bool dryRun = false;
    int batch = 5000; ///< deliveries per transaction
};

/// What a retention sweep removed (or, with dryRun, would remove): summed over its batches.
struct PurgeReport
{
    bool dryRun = false;
    int retentionDays = 0;
    bool configured = false; ///< the configured retention, not --older-than
    std::string receivedBefore; ///< the cutoff, RFC 3339
    std::string run; ///< the run id its removal records share (empty for a dry run)
    long long removed = 0; ///< bodies
    long long bytes = 0; ///< bytes of bodies as stored
    long long batches = 0; ///< removal records written
    std::optional<std::int64_t> firstId;
    std::optional<std::int64_t> lastId;
    std::string firstReceivedAt;
    std::string lastReceivedAt;
    long long kept = 0; ///< old enough but kept: an open case's, an unreviewed invalid delivery's
    nlohmann::json toJson() const;
    std::string text() const;
};

/// Sweeps the inbox's bodies in batches, each its own short transaction
/// (purge_inbox_bodies): a refusal is ActionRefused (RetentionNotConfigured, PurgeNeedsOperator).
PurgeReport purgeInboxBodies(DbRef db, const PurgeOptions &options);

/// What an erasure removed (erase_inbox_bodies).
struct ErasureReport
{
    std::int64_t removalId = 0;
    std::optional<std::string> providerKey;
    std::string providerSubscriptionId;
    long long removed = 0;
    long long bytes = 0;
    long long openCases = 0; ///< erased although their case is open
    long long alreadyRemoved = 0; ///< the subscription's deliveries without a body already
    std::string erasedBy;
    /// By e-mail address (erase_customer_email, #42): how many deliveries' keyed hashes of
    /// the address went; nullopt for an erasure by subscription.
    std::optional<long long> customerEmailHashes;
    nlohmann::json toJson() const;
    std::string text() const;
};

/// Serves a data-subject request: the bodies of one provider subscription's deliveries,
/// whatever their age. The operator's alone; `request` is the note (RD004 without one).
ErasureReport eraseInboxBodies(DbRef db, const std::optional<std::string> &providerKey,
    const std::string &providerSubscriptionId, const std::string &request);

/// Serves a data-subject request by e-mail address (#42): the bodies of every delivery that
/// carried the address, whatever their age, and the keyed hash each kept of it, so that Find
/// anything no longer finds anything by it. The operator's alone; `request` is the note (RD004
/// without one); InputError ("--email") when `email` is no address.
ErasureReport eraseCustomerEmail(DbRef db, const std::string &email, const std::string &request);

} // namespace rd

namespace rd {

/// The newest `limit` removal records (webhook_inbox_removals), newest first, as JSON objects:
/// id, kind, removedBy, removedAt, bodies, bytes, the id and received_at range, and for a
/// retention its days, cutoff and run, for an erasure its request and subscription.
nlohmann::json listInboxRemovals(DbRef db, int limit);

} // namespace rd
