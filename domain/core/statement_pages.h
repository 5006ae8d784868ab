#pragma once

// What proves that a statement holds every page of the provider's list for its days (#39):
// the manifest `renewalctl statement fetch --save DIR` writes beside the pages, and its check.
// A page names the link to the page after it, but never the request it answered itself, so a
// missing page cannot be seen from the pages alone: the manifest records each page's request
// and hash, and the pages' own chain (each page's link to the next) must run through them.
//
//   {"format": "renewal-desk statement pages/1", "provider": KEY, "kind": "stripe",
//    "from": "YYYY-MM-DD", "to": "YYYY-MM-DD",
//    "pages": [{"file": "stripe-0001.json", "request": null, "sha256": HEX,
//               "list": "/v1/invoices"}, ...],
//    "complete": true}
//
// "request" is requestText of the page before (null for the first): "starting_after=in_..."
// for Stripe, "offset=..." for Chargebee, the provider's next link for Paddle, Recurly and
// Lemon Squeezy. "list" names the list the page answers (ListRequest::path): a fetch reads the
// renewals' list, then the money back's (#40), one after the other; each next list's first
// page has request null, after the last page of the list before. A manifest written before
// has no "list": its pages are one list.

#include "domain/core/adapters/provider_kinds.h"
#include "domain/core/statement.h"

#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rd {

inline constexpr std::string_view kPagesManifestFormat = "renewal-desk statement pages/1";

/// The manifest's name in a --save directory.
inline constexpr std::string_view kPagesManifestName = "manifest.json";

/// How a statement's completeness is known (statement_runs.completeness, migration 0041).
enum class PagesProof {
    Unproven, ///< hand-given pages or JSON lines: no not_in_statement, no month close
    Fetched, ///< read from the API in this run, followed to the last page
    Manifest, ///< checked against the manifest a fetch wrote
    Stated ///< the operator said so (--pages-complete)
};

/// "unproven", "fetched", "manifest", "stated": the column's words.
std::string_view toString(PagesProof proof);

struct PagesManifest
{
    struct Page
    {
        std::string file;
        std::optional<std::string> request;
        std::string sha256;
        /// The list the page answers (ListRequest::path); empty in a manifest written before
        /// #40, whose pages are one list.
        std::string list;
    };
    std::string provider;
    std::string kind;
    std::string from;
    std::string to;
    std::vector<Page> pages;
    bool complete = false;

    /// The lists its pages answer.
    std::set<std::string> lists() const;
};

/// Whether `lists` (a fetch's or a manifest's) hold each list of the kind's money back
/// (ListRequest::moneyBack): only then may a statement say that a movement it lacks is not
/// in it. False for a kind that lists none.
bool listsEveryMoneyBackList(ProviderKind kind, const std::set<std::string> &lists);

/// The manifest of `pages` (fetched in this order, each the answer to its predecessor's link)
/// as JSON text. Throws InputError when a page is not the kind's list.
std::string pagesManifestJson(ProviderKind kind, std::string_view providerKey,
    std::string_view from, std::string_view to, std::span<const StatementFile> pages);

/// Whether `file` is a manifest (a JSON object whose "format" starts with "renewal-desk
/// statement pages/"): its content read, or nullopt for any other file. Throws InputError
/// naming the file for a manifest of another version or of a broken shape.
std::optional<PagesManifest> readPagesManifest(const StatementFile &file);

/// Checks `statement` (read from the pages given) against `manifest`: the manifest is complete
/// and of this provider and kind; every page it lists is given with its hash (missing or
/// altered: refused, naming it); no page is given that it does not list; the first page was
/// asked with no request, each next one with the link of the page before it, and the last
/// names none (a gap: refused, naming the missing link). Throws InputError (field "manifest").
void checkPagesAgainstManifest(
    const PagesManifest &manifest, const Statement &statement, std::string_view providerKey);

} // namespace rd
