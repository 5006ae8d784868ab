#include "domain/core/statement.h"

#include "domain/core/adapters/adapter_support.h"
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/providers/provider.h"
#include "domain/core/sha256.h"

#include <algorithm>
#include <unordered_map>

namespace rd {
namespace {

using nlohmann::json;

// A statement of 100,000 objects runs to some 200 MB; the webhook path's depth limit stays,
// since it is what keeps a DOM's recursion off the stack.
constexpr JsonLimits kStatementLimits {std::size_t {512} * 1024 * 1024, JsonLimits {}.maxDepth};

bool isBlank(std::string_view text)
{
    return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

class StatementReader
{
public:
    StatementReader(ProviderKind kind, std::string_view providerKey)
        : m_kind(providerDefinition(kind)), m_providerKey(providerKey)
    {
        m_statement.kind = kind;
    }

    void readFile(const StatementFile &file, std::size_t position)
    {
        StatementFileInfo info;
        info.name = file.name.empty() ? "file " + std::to_string(position + 1) : file.name;
        info.sha256 = sha256Hex(file.bytes);
        info.bytes = file.bytes.size();
        const std::string &name = info.name;
        try {
            checkJsonLimits(file.bytes, kStatementLimits);
        } catch (const InputError &e) {
            throw e.locatedAt(name);
        }
        if (isBlank(file.bytes))
            throw InputError(name, "is empty: neither a list page nor JSON lines");
        json doc;
        try {
            doc = parse(file.bytes);
        } catch (const InputError &whole) {
            // Not one JSON value: JSON lines, unless even its first line is no JSON, when the
            // whole file's error says best what is wrong.
            readLines(file.bytes, info, whole.locatedAt(name));
            finishFile(std::move(info), false);
            return;
        }
        if (doc.is_object() && doc.contains(m_kind.listItemsKey())) {
            const std::string key(m_kind.listItemsKey());
            try {
                info.saysMoreFollows = m_kind.listSaysMoreFollows(doc);
                adapters::requireArray(doc, "", key.c_str());
            } catch (const InputError &e) {
                // Said as what it is not (#39, item 17: a Paddle page imported under a Stripe
                // key said only "object: missing"); which kind it is, a permissive reader
                // (Lemon Squeezy's takes any {"data": [...]}) cannot tell.
                throw InputError(e.locatedAt(name).field(),
                    e.message() + ": not a " + toString(m_statement.kind)
                        + " list page; is the provider key the one these pages came from?");
            }
            // The chain is read for a manifest's check (statement_pages.h); a page whose link
            // cannot be read is refused there, not here, where no chain is asked for.
            try {
                info.nextRequest = requestText(m_kind.nextListPage(doc));
            } catch (const BadListPage &e) {
                info.chainError = e.what();
            } catch (const InputError &e) {
                info.chainError = e.what();
            }
            const json &items = doc[key];
            for (std::size_t i = 0; i < items.size(); ++i)
                addObject(name, i, items[i], adapters::indexPath(key, i),
                    name + " object " + std::to_string(i));
            info.objects = items.size();
            finishFile(std::move(info), true);
            return;
        }
        addObject(name, 0, doc, "", name + " object 0");
        info.objects = 1;
        finishFile(std::move(info), false);
    }

    Statement finish()
    {
        if (m_pages > 0 && m_lastPages == 0) {
            std::string pages;
            for (const auto &f : m_statement.files) {
                if (f.saysMoreFollows)
                    pages += (pages.empty() ? "" : ", ") + f.name;
            }
            throw InputError("statement",
                "partial: " + pages + (m_pages == 1 ? " says" : " say")
                    + " more pages follow and the last page is missing (no file says none "
                      "follow); a partial statement would open false \"not in statement\" "
                      "cases");
        }
        std::size_t unreadable = 0;
        const UnreadableObject *first = nullptr;
        for (const auto &e : m_statement.entries) {
            if (!e.unreadable)
                continue;
            ++unreadable;
            if (!first)
                first = &*e.unreadable;
        }
        if (first && unreadable == m_statement.entries.size())
            throw InputError(first->where,
                first->problem + " (no object of the statement could be read as a "
                    + toString(m_statement.kind) + " object)");
        if (unreadable > kMaxUnreadableObjects)
            throw InputError("statement",
                std::to_string(unreadable) + " objects cannot be read, more than the "
                    + std::to_string(kMaxUnreadableObjects) + " an import keeps as cases; is it a "
                    + toString(m_statement.kind) + " statement? The first: " + first->where + ": "
                    + first->problem);
        return std::move(m_statement);
    }

private:
    json parse(std::string_view text) const { return m_kind.parseListed(text); }

    void readLines(std::string_view text, StatementFileInfo &info, const InputError &wholeError)
    {
        std::size_t lineNumber = 0;
        std::size_t objects = 0;
        while (!text.empty()) {
            const auto end = text.find('\n');
            std::string_view line = text.substr(0, end);
            text = end == std::string_view::npos ? std::string_view {} : text.substr(end + 1);
            ++lineNumber;
            if (isBlank(line))
                continue;
            const std::string where = info.name + " object " + std::to_string(objects) + " (line "
                + std::to_string(lineNumber) + ")";
            json object;
            try {
                object = parse(line);
            } catch (const InputError &e) {
                if (objects == 0)
                    throw wholeError;
                // One broken line among readable ones: that object is a finding, the others
                // are still read (#39, item 15).
                const InputError located = e.locatedAt(where);
                addUnreadable(info.name, objects, sha256Hex(line), {}, {},
                    {located.field(), located.message()});
                ++objects;
                continue;
            }
            if (object.is_object() && object.contains(m_kind.listItemsKey()))
                throw InputError(where,
                    "a list page among JSON lines: give each page as a file of its own, so "
                    "that its pagination is read");
            addObject(info.name, objects, object, "", where);
            ++objects;
        }
        info.objects = objects;
    }

    void finishFile(StatementFileInfo info, bool paged)
    {
        info.paged = paged;
        if (paged) {
            ++m_pages;
            if (!info.saysMoreFollows)
                ++m_lastPages;
        }
        m_statement.files.push_back(std::move(info));
    }

    void addObject(const std::string &file, std::size_t index, const json &item, std::string path,
        const std::string &where)
    {
        StatementEntry entry;
        adapters::DeliveryIds ids;
        const json *object = &item;
        std::optional<UnreadableObject> problem;
        try {
            object = &m_kind.unwrapListed(item, path);
            // nlohmann's objects keep their keys sorted: the dump is canonical, whatever the
            // file's key order and spacing. (Recurly's decimals are their text, as strings.)
            entry.objectSha256 = sha256Hex(object->dump());
            ids = {m_providerKey, "statement:" + entry.objectSha256, {}, false, {}};
            entry.normalization
                = adapters::finishedNormalization(m_kind.classifyListed(ids, *object, path));
            if (entry.normalization.outcome == NormalizeOutcome::Invalid)
                problem = UnreadableObject {where, entry.normalization.message};
        } catch (const InputError &e) {
            const InputError located = e.locatedAt(where);
            problem = UnreadableObject {located.field(), located.message()};
        } catch (const json::exception &e) {
            problem = UnreadableObject {where, printableAscii(e.what())};
        }
        if (problem) {
            addUnreadable(file, index,
                entry.objectSha256.empty() ? sha256Hex(object->dump()) : entry.objectSha256,
                ids.objectId.empty() ? idNamedBy(*object) : ids.objectId, ids.subscriptionId,
                std::move(*problem));
            return;
        }
        NormalizeResult &n = entry.normalization;
        n.providerEventId = ids.eventId;
        n.providerSubscriptionId = ids.subscriptionId;
        n.eventIdDerived = false;
        if (n.event)
            n.event->providerEventId = ids.eventId;
        entry.objectId = std::move(ids.objectId);
        add(file, index, where, std::move(entry));
    }

    // An object the kind's reader refused: kept as a finding under the id it names, if any.
    void addUnreadable(const std::string &file, std::size_t index, std::string sha,
        std::string objectId, std::string subscriptionId, UnreadableObject problem)
    {
        // Kept in the case: an adapter's message quotes what it read, bounded here once.
        constexpr std::size_t kMaxProblem = 500;
        for (std::string *text : {&problem.where, &problem.problem}) {
            if (text->size() > kMaxProblem)
                *text = text->substr(0, kMaxProblem) + "...";
            *text = printableAscii(std::move(*text)); // a file's name may be any bytes
        }
        StatementEntry entry;
        entry.objectSha256 = std::move(sha);
        entry.objectId = objectId.empty() ? "sha256:" + entry.objectSha256 : std::move(objectId);
        NormalizeResult &n = entry.normalization;
        n.outcome = NormalizeOutcome::Invalid;
        n.message = problem.where + ": " + problem.problem;
        n.providerEventId = "statement:" + entry.objectSha256;
        n.providerSubscriptionId = std::move(subscriptionId);
        const std::string where = problem.where;
        entry.unreadable = std::move(problem);
        add(file, index, where, std::move(entry));
    }

    // The "id" a refused object names, when it is one an id could be (printable, bounded, as
    // the adapters' identifiers are): what the case is filed under, so that the same object
    // read later (a snapshot, a corrected statement) finds it.
    static std::string idNamedBy(const json &object)
    {
        if (!object.is_object())
            return {};
        const auto id = object.find("id");
        if (id == object.end() || !id->is_string())
            return {};
        const auto &text = id->get_ref<const std::string &>();
        const bool printable
            = std::all_of(text.begin(), text.end(), [](char c) { return c > ' ' && c < 0x7f; });
        return printable && !text.empty() && text.size() <= 255 ? text : std::string();
    }

    void add(
        const std::string &file, std::size_t index, const std::string &where, StatementEntry entry)
    {
        const auto [seen, inserted]
            = m_byId.try_emplace(entry.objectId, m_statement.entries.size());
        if (!inserted) {
            const StatementEntry &first = m_statement.entries[seen->second];
            if (first.objectSha256 == entry.objectSha256)
                return; // listed twice (overlapping pages or files): one object all the same
            throw InputError("statement",
                "object " + printableAscii(entry.objectId) + " is listed in " + first.file
                    + " (object " + std::to_string(first.index) + ") and in " + where
                    + " with different contents: the statement contradicts itself");
        }
        entry.file = file;
        entry.index = index;
        m_statement.entries.push_back(std::move(entry));
    }

    const ProviderDefinition &m_kind;
    std::string m_providerKey;
    Statement m_statement;
    std::unordered_map<std::string, std::size_t> m_byId;
    std::size_t m_pages = 0;
    std::size_t m_lastPages = 0;
};

} // namespace

Statement readStatement(
    ProviderKind kind, std::string_view providerKey, std::span<const StatementFile> files)
{
    if (static_cast<std::size_t>(kind) >= providerKinds().size())
        throw InputError("kind", "unknown provider kind");
    if (providerKey.empty())
        throw InputError("providerKey", "must not be empty");
    if (files.empty())
        throw InputError("statement", "no files given");
    StatementReader reader(kind, providerKey);
    for (std::size_t i = 0; i < files.size(); ++i)
        reader.readFile(files[i], i);
    return reader.finish();
}

std::optional<std::string> requestText(const NextPage &next)
{
    switch (next.kind) {
    case NextPage::Kind::None:
        return std::nullopt;
    case NextPage::Kind::FirstWithParameter:
        return next.parameter + "=" + next.value;
    case NextPage::Kind::Link:
        return next.value;
    }
    return std::nullopt;
}

std::string statementDigest(const Statement &statement)
{
    std::vector<std::string_view> digests;
    digests.reserve(statement.files.size());
    for (const auto &f : statement.files)
        digests.emplace_back(f.sha256);
    std::sort(digests.begin(), digests.end());
    Sha256 hash;
    for (const auto d : digests)
        hash.update(d);
    return hash.hexDigest();
}

} // namespace rd
