#pragma once

// A provider's statement: its own list output (the pages its list API returned, or JSON lines
// of the listed objects), each object normalized by the same classification the webhook
// adapters use (ProviderDefinition::classifyListed), so that a renewal reads the same from either
// source. The accepted page shapes are described in each kind's
// domain/core/providers/<kind>/adapter.cpp and in docs/providers.md.

#include "domain/core/adapters/normalization.h"
#include "domain/core/adapters/provider_kinds.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rd {

struct StatementFile
{
    StatementFile() = default;
    StatementFile(std::string name_, std::string bytes_, std::string list_ = {})
        : name(std::move(name_)), bytes(std::move(bytes_)), list(std::move(list_))
    { }

    std::string name;
    std::string bytes;
    /// The list the page answers (ListRequest::path: "/v1/refunds"), as a fetch knows it and
    /// its manifest records it; empty for a file given by hand.
    std::string list;
}; // one file as given

struct StatementFileInfo
{
    std::string name;
    std::string sha256;
    std::uint64_t bytes = 0;
    std::size_t objects = 0;
    bool saysMoreFollows = false;
    /// A list page (not a JSON-lines file or one object).
    bool paged = false;
    /// A page's link to the page after it, as requestText writes it (nullopt: none follows, or
    /// not a page); `chainError` says why it could not be read, when it could not.
    std::optional<std::string> nextRequest;
    std::string chainError;
};

/// Why one listed object could not be read: where (file, object, JSON path) and what.
struct UnreadableObject
{
    std::string where;
    std::string problem;
};

struct StatementEntry
{
    std::string file;
    std::size_t index = 0; // where the object was (file name, 0-based index in it)
    /// The provider's object id (in_..., txn_..., invoice id); for an unreadable object the id
    /// it names where it names one, else "sha256:<objectSha256>".
    std::string objectId;
    std::string objectSha256; // hex sha256 of the object's canonical JSON dump (a line's text)
    /// Renewal, NeedsSnapshot or NotARenewal; Invalid only with `unreadable`.
    NormalizeResult normalization;
    /// Set for an object the kind's reader refused (#39, item 15): the import keeps it as a
    /// finding with a case (statement_object_unreadable) instead of refusing every other object.
    std::optional<UnreadableObject> unreadable;
};

struct Statement
{
    ProviderKind kind;
    std::vector<StatementFileInfo> files;
    std::vector<StatementEntry> entries;
};

/// Throws InputError naming the file (and where in it) for an unreadable file, and InputError
/// (field "statement") for a partial statement, one that contradicts itself, or one where
/// more than kMaxUnreadableObjects objects, or every object, cannot be read (the kind is then
/// more likely wrong than the objects odd). A listed object that cannot be read is an entry
/// with `unreadable` set. Never crashes on any input.
Statement readStatement(
    ProviderKind kind, std::string_view providerKey, std::span<const StatementFile> files);

/// More unreadable objects than this refuse the statement: as many cases would bury the queue.
inline constexpr std::size_t kMaxUnreadableObjects = 50;

struct NextPage;

/// How a page was asked for, as the page before it names it: "parameter=value" (Stripe's
/// starting_after, Chargebee's offset) or the link the provider gave (Paddle, Recurly, Lemon
/// Squeezy); nullopt for None (the last page). The manifest's "request" (statement_pages.h).
std::optional<std::string> requestText(const NextPage &next);

/// sha256 over the files' sha256s sorted (order of files given does not matter): the
/// statement's identity.
std::string statementDigest(const Statement &);

} // namespace rd
