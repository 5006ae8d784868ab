#include "domain/core/statement_pages.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/providers/provider.h"
#include "domain/core/sha256.h"

#include <nlohmann/json.hpp>

#include <map>

namespace rd {
namespace {

using nlohmann::json;

constexpr std::string_view kFormatFamily = "renewal-desk statement pages/";

// A manifest lists file names and hashes: a few hundred bytes a page, far below this even
// for the fetch's page limit.
constexpr JsonLimits kManifestLimits {std::size_t {64} * 1024 * 1024, 8};
// A page as the statement reader takes it (statement.cpp).
constexpr JsonLimits kPageLimits {std::size_t {512} * 1024 * 1024, JsonLimits {}.maxDepth};

[[noreturn]] void refuse(const std::string &message)
{
    throw InputError("manifest", message);
}

std::string textAt(const json &object, const char *key, const std::string &where)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string())
        throw InputError(where, std::string("\"") + key + "\" is missing or not a string");
    return it->get<std::string>();
}

std::string shown(const std::optional<std::string> &request)
{
    return request ? "\"" + printableAscii(*request) + "\"" : "no request (the first page)";
}

} // namespace

std::string_view toString(PagesProof proof)
{
    switch (proof) {
    case PagesProof::Unproven:
        return "unproven";
    case PagesProof::Fetched:
        return "fetched";
    case PagesProof::Manifest:
        return "manifest";
    case PagesProof::Stated:
        return "stated";
    }
    return "unproven";
}

std::string pagesManifestJson(ProviderKind kind, std::string_view providerKey,
    std::string_view from, std::string_view to, std::span<const StatementFile> pages)
{
    const ProviderDefinition &provider = providerDefinition(kind);
    json list = json::array();
    std::optional<std::string> request;
    for (const auto &page : pages) {
        // The first page of each next list has no request: the list before it ended.
        json entry {{"file", page.name}, {"request", request ? json(*request) : json()},
            {"sha256", sha256Hex(page.bytes)}};
        if (!page.list.empty())
            entry["list"] = page.list;
        list.push_back(std::move(entry));
        try {
            request
                = requestText(provider.nextListPage(parseUntrustedJson(page.bytes, kPageLimits)));
        } catch (const BadListPage &e) {
            throw InputError(page.name, e.what());
        }
    }
    const json manifest {{"format", kPagesManifestFormat}, {"provider", providerKey},
        {"kind", toString(kind)}, {"from", from}, {"to", to}, {"pages", std::move(list)},
        {"complete", true}};
    return manifest.dump(2) + "\n";
}

std::optional<PagesManifest> readPagesManifest(const StatementFile &file)
{
    // Cheap first: a page or JSON lines never carries the format's words.
    if (file.bytes.find(kFormatFamily) == std::string::npos)
        return std::nullopt;
    json doc;
    try {
        doc = parseUntrustedJson(file.bytes, kManifestLimits);
    } catch (const InputError &) {
        return std::nullopt; // JSON lines that mention the words: not a manifest
    }
    if (!doc.is_object())
        return std::nullopt;
    const auto format = doc.find("format");
    if (format == doc.end() || !format->is_string()
        || format->get<std::string>().rfind(kFormatFamily, 0) != 0)
        return std::nullopt;
    const std::string &where = file.name;
    if (format->get<std::string>() != kPagesManifestFormat)
        throw InputError(where,
            "a manifest of format \"" + printableAscii(format->get<std::string>())
                + "\", which this version does not read (it reads \""
                + std::string(kPagesManifestFormat) + "\")");
    PagesManifest m;
    m.provider = textAt(doc, "provider", where);
    m.kind = textAt(doc, "kind", where);
    m.from = textAt(doc, "from", where);
    m.to = textAt(doc, "to", where);
    const auto complete = doc.find("complete");
    m.complete = complete != doc.end() && complete->is_boolean() && complete->get<bool>();
    const auto pages = doc.find("pages");
    if (pages == doc.end() || !pages->is_array() || pages->empty())
        throw InputError(where, "\"pages\" is missing, empty or not an array");
    for (std::size_t i = 0; i < pages->size(); ++i) {
        const json &p = (*pages)[i];
        const std::string at = where + " pages[" + std::to_string(i) + "]";
        if (!p.is_object())
            throw InputError(at, "is not an object");
        PagesManifest::Page page;
        page.file = textAt(p, "file", at);
        page.sha256 = textAt(p, "sha256", at);
        const auto request = p.find("request");
        if (request == p.end() || !(request->is_null() || request->is_string()))
            throw InputError(at, "\"request\" is missing, or neither null nor a string");
        if (request->is_string())
            page.request = request->get<std::string>();
        // Since #40 a fetch reads several lists (renewals, then money back); a manifest
        // written before names none, its pages being one list.
        const auto listName = p.find("list");
        if (listName != p.end() && !listName->is_string())
            throw InputError(at, "\"list\" is not a string");
        if (listName != p.end())
            page.list = listName->get<std::string>();
        m.pages.push_back(std::move(page));
    }
    return m;
}

void checkPagesAgainstManifest(
    const PagesManifest &manifest, const Statement &statement, std::string_view providerKey)
{
    if (!manifest.complete)
        refuse("it does not say the fetch was complete (\"complete\": true): the fetch that "
               "wrote it stopped before the last page");
    if (manifest.provider != providerKey)
        refuse("it is of provider " + printableAscii(manifest.provider) + ", not "
            + std::string(providerKey));
    if (manifest.kind != toString(statement.kind))
        refuse("it is of kind " + printableAscii(manifest.kind) + ", the provider's is "
            + toString(statement.kind));

    // The given files by their bytes' hash: a name may differ (a copy, a path), the bytes not.
    std::map<std::string, const StatementFileInfo *> given;
    for (const auto &f : statement.files)
        given.emplace(f.sha256, &f);
    std::map<std::string, const PagesManifest::Page *> listed;
    for (const auto &p : manifest.pages)
        listed.emplace(p.sha256, &p);
    for (const auto &f : statement.files) {
        if (listed.contains(f.sha256))
            continue;
        // A listed page's name with other bytes: the page was changed after the fetch.
        const auto slash = f.name.find_last_of('/');
        const std::string base = slash == std::string::npos ? f.name : f.name.substr(slash + 1);
        for (const auto &p : manifest.pages) {
            if (p.file == base)
                refuse("page " + printableAscii(p.file)
                    + " was altered: its bytes are not those the manifest lists (sha256 "
                    + printableAscii(p.sha256) + ", given " + f.sha256 + ")");
        }
        refuse(f.name + " is not a page the manifest lists (no page of it has its sha256 "
            + f.sha256 + ")");
    }
    std::vector<const StatementFileInfo *> chain;
    for (const auto &p : manifest.pages) {
        const auto it = given.find(p.sha256);
        if (it == given.end())
            refuse("page " + printableAscii(p.file)
                + " is missing: no file given has the bytes the manifest lists (sha256 "
                + printableAscii(p.sha256) + ")");
        chain.push_back(it->second);
    }

    // The pages' own chain, through the requests the manifest names.
    if (manifest.pages.front().request)
        refuse("its first page, " + printableAscii(manifest.pages.front().file)
            + ", was asked with " + shown(manifest.pages.front().request)
            + ": the pages before it are missing");
    for (std::size_t i = 0; i < chain.size(); ++i) {
        const StatementFileInfo &page = *chain[i];
        if (!page.paged)
            refuse(page.name + " is not a list page");
        if (!page.chainError.empty())
            refuse(page.name + ": its link to the next page cannot be read: " + page.chainError);
        const bool last = i + 1 == chain.size();
        if (last) {
            if (page.nextRequest)
                refuse("the last page listed, " + printableAscii(manifest.pages[i].file)
                    + ", links to a next page, " + shown(page.nextRequest) + ", which is missing");
            break;
        }
        // The next list's first page, asked with no request, after this list's last.
        const PagesManifest::Page &next = manifest.pages[i + 1];
        if (!next.request && !page.nextRequest && !next.list.empty()
            && next.list != manifest.pages[i].list)
            continue;
        if (next.request && next.list != manifest.pages[i].list)
            refuse("page " + printableAscii(next.file) + " of list " + printableAscii(next.list)
                + " was asked with " + shown(next.request)
                + ": the first page of that list is missing");
        if (page.nextRequest != manifest.pages[i + 1].request)
            refuse("the chain breaks after " + printableAscii(manifest.pages[i].file)
                + ": it links to " + shown(page.nextRequest) + ", but the next page listed, "
                + printableAscii(manifest.pages[i + 1].file) + ", was asked with "
                + shown(manifest.pages[i + 1].request) + ": the page at " + shown(page.nextRequest)
                + " is missing");
    }
}

std::set<std::string> PagesManifest::lists() const
{
    std::set<std::string> out;
    for (const auto &p : pages)
        out.insert(p.list);
    return out;
}

bool listsEveryMoneyBackList(ProviderKind kind, const std::set<std::string> &lists)
{
    bool any = false;
    for (const ListRequest &list : providerDefinition(kind).listRequests({}, 1)) {
        if (!list.moneyBack)
            continue;
        if (!lists.contains(list.path))
            return false;
        any = true;
    }
    return any;
}

} // namespace rd
