// The audit anchor, streamed both ways: a million chains' heads are written as the server's
// cursor yields them and checked a chunk at a time as the file is parsed, so neither side ever
// holds the whole anchor (hundreds of MB at that size).
#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/core/sha256.h"
#include "domain/store/audit_chains.h"
#include "domain/store/internal/audit_chains_tx.h"
#include "domain/store/internal/pqxx_session.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <cctype>
#include <exception>
#include <functional>
#include <istream>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace rd {
namespace {

constexpr const char *kAudits = "subscription_transition_audits";
constexpr const char *kHistory = "reconciliation_case_history";
// Heads looked up per round trip, and fetched from the export's cursor at a time.
constexpr std::size_t kChunk = 5000;
constexpr const char *kFetch = "FETCH FORWARD 10000 FROM rd_anchor_heads";

std::string quoted(std::string_view text)
{
    return nlohmann::json(text).dump();
}

struct AnchorHead
{
    std::string chain, chainId, hash;
    std::int64_t seq = 0;
};

bool isUuid(std::string_view s)
{
    if (s.size() != 36)
        return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !std::isxdigit(static_cast<unsigned char>(s[i])))
            return false;
    }
    return true;
}

bool isCaseId(std::string_view s)
{
    // A bigint: at most 18 digits always fits.
    if (s.empty() || s.size() > 18 || s[0] == '0')
        return false;
    for (const char c : s)
        if (c < '0' || c > '9')
            return false;
    return true;
}

std::string excerpt(const std::string &s)
{
    return printableAscii(s.size() > 64 ? s.substr(0, 64) + "..." : s);
}

/// The digest's input for one head, exactly as the export feeds it: "chain:chainId:seq:hash\n".
void feedDigest(Sha256 &digest, std::string_view chain, std::string_view chainId,
    std::string_view seq, std::string_view hash, std::string &line)
{
    line.clear();
    for (const std::string_view part : {chain, std::string_view(":"), chainId,
             std::string_view(":"), seq, std::string_view(":"), hash, std::string_view("\n")})
        line += part;
    digest.update(line);
}

/// nlohmann's SAX events for {"createdAt", "heads": [{"chain","chainId","seq","hash"}, ...],
/// "digest"} in any key order; other keys and values are skipped. Each complete head is checked
/// and handed on in chunks; what is wrong is named by its path (InputError). The digest is
/// recomputed over the heads as they are read: a file whose heads were edited, removed or added
/// without a new digest, or whose digest is missing, is refused by finish().
class AnchorReader : public nlohmann::json_sax<nlohmann::json>
{
public:
    using Flush = std::function<void(const std::vector<AnchorHead> &)>;
    explicit AnchorReader(Flush flush) : m_flush(std::move(flush)) { m_pending.reserve(kChunk); }

    long long heads() const { return m_index; }
    const std::optional<std::string> &createdAt() const { return m_createdAt; }
    /// The file's digest, once finish() has found it to be the digest of its heads.
    const std::string &digest() const { return m_fileDigest; }
    /// Raises the error the parse stopped at, or the end's (no heads at all).
    void finish(bool parsed)
    {
        if (m_error)
            std::rethrow_exception(m_error);
        if (!parsed || m_level != Level::Done)
            throw InputError("", "not valid JSON (the anchor ends early)");
        if (!m_sawHeads)
            notAnAnchor();
        flush();
        // Checked before anything is reported: whatever the lookups found, a file that is not
        // what was exported says nothing about the database.
        if (!m_sawDigest)
            throw InputError("digest",
                "missing (an anchor carries the SHA-256 of its heads; without it the file cannot "
                "be told from an altered one)");
        std::string given = m_fileDigest;
        for (char &c : given)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        if (given != m_digest.hexDigest())
            throw InputError("digest",
                "the anchor's digest does not match its heads: the file "
                "was altered");
        m_fileDigest = std::move(given);
    }

    bool null() override { return scalar(Value::Other); }
    bool boolean(bool) override { return scalar(Value::Other); }
    bool number_integer(number_integer_t v) override
    {
        m_number = v;
        return scalar(Value::Integer);
    }
    bool number_unsigned(number_unsigned_t v) override
    {
        if (v > static_cast<number_unsigned_t>(std::numeric_limits<std::int64_t>::max()))
            return scalar(Value::Other);
        m_number = static_cast<std::int64_t>(v);
        return scalar(Value::Integer);
    }
    bool number_float(number_float_t, const string_t &) override { return scalar(Value::Other); }
    bool string(string_t &v) override
    {
        m_string = std::move(v);
        return scalar(Value::String);
    }
    bool binary(binary_t &) override { return scalar(Value::Other); }
    bool key(string_t &k) override
    {
        if (m_skip == 0)
            m_key = std::move(k);
        return true;
    }
    bool start_object(std::size_t) override
    {
        return guarded([&] { enter(Container::Object); });
    }
    bool end_object() override
    {
        return guarded([&] { leave(); });
    }
    bool start_array(std::size_t) override
    {
        return guarded([&] { enter(Container::Array); });
    }
    bool end_array() override
    {
        return guarded([&] { leave(); });
    }
    bool parse_error(
        std::size_t, const std::string &, const nlohmann::detail::exception &e) override
    {
        // nlohmann's message names the byte position (line and column) and what was expected.
        std::string what = e.what();
        if (const auto p = what.find("parse error"); p != std::string::npos)
            what = what.substr(p);
        if (!m_error)
            m_error = std::make_exception_ptr(
                InputError("", "not valid JSON (" + printableAscii(what) + ")"));
        return false;
    }

private:
    enum class Level { Start, Root, Heads, Head, Done };
    enum class Value { String, Integer, Other };
    enum class Container { Object, Array };

    /// An object or array begins: the anchor itself, its heads list, a head, or a value that
    /// is skipped (an unknown key's). nlohmann checks that brackets match.
    void enter(Container c)
    {
        const bool object = c == Container::Object;
        if (m_skip > 0) {
            ++m_skip;
            return;
        }
        switch (m_level) {
        case Level::Start:
            if (!object)
                notAnAnchor();
            m_level = Level::Root;
            return;
        case Level::Root:
            if (m_key == "digest")
                wrongDigest();
            if (m_key != "heads") {
                ++m_skip;
                return;
            }
            if (object)
                notAnAnchor();
            if (m_sawHeads)
                throw InputError("heads", "appears twice");
            m_sawHeads = true;
            m_level = Level::Heads;
            return;
        case Level::Heads:
            if (!object)
                notAHead();
            m_head = {};
            m_level = Level::Head;
            return;
        case Level::Head:
            if (isHeadField(m_key))
                wrongType();
            ++m_skip;
            return;
        case Level::Done:
            return;
        }
    }

    /// The innermost object or array ends: a skipped value, a head, the heads list or the anchor.
    void leave()
    {
        if (m_skip > 0) {
            --m_skip;
            return;
        }
        switch (m_level) {
        case Level::Head:
            endHead();
            m_level = Level::Heads;
            return;
        case Level::Heads:
            m_level = Level::Root;
            return;
        case Level::Root:
            m_level = Level::Done;
            return;
        case Level::Start:
        case Level::Done:
            return;
        }
    }

    template<typename F>
    bool guarded(F &&f)
    {
        try {
            f();
            return true;
        } catch (...) {
            m_error = std::current_exception();
            return false;
        }
    }

    bool scalar(Value type)
    {
        return guarded([&] {
            if (m_skip > 0)
                return;
            switch (m_level) {
            case Level::Start:
                notAnAnchor();
                return;
            case Level::Root:
                if (m_key == "heads")
                    notAnAnchor();
                if (m_key == "createdAt" && type == Value::String)
                    m_createdAt = m_string;
                if (m_key == "digest")
                    digestField(type);
                return;
            case Level::Heads:
                notAHead();
                return;
            case Level::Head:
                headField(type);
                return;
            case Level::Done:
                return;
            }
        });
    }

    static bool isHeadField(const std::string &key)
    {
        return key == "chain" || key == "chainId" || key == "seq" || key == "hash";
    }
    std::string where() const { return "heads[" + std::to_string(m_index) + "]"; }
    [[noreturn]] static void notAnAnchor()
    {
        throw InputError("heads", "not an audit anchor (expected {\"heads\": [...]})");
    }
    [[noreturn]] static void wrongDigest()
    {
        throw InputError("digest", "expected a string (64 hexadecimal digits)");
    }
    void digestField(Value type)
    {
        if (type != Value::String)
            wrongDigest();
        if (m_sawDigest)
            throw InputError("digest", "appears twice");
        m_sawDigest = true;
        m_fileDigest = std::move(m_string);
    }
    [[noreturn]] void notAHead() const
    {
        throw InputError(where(), "expected {\"chain\",\"chainId\",\"seq\",\"hash\"}");
    }
    [[noreturn]] void wrongType() const
    {
        throw InputError(where() + "." + m_key,
            m_key == "seq" ? "expected a whole number (the position in its chain)"
                           : "expected a string");
    }

    void headField(Value type)
    {
        if (!isHeadField(m_key))
            return;
        if ((m_key == "seq") != (type == Value::Integer) || type == Value::Other)
            wrongType();
        if (m_key == "seq")
            m_head.seq = m_number;
        else
            (m_key == "chain"            ? m_head.chain
                    : m_key == "chainId" ? m_head.chainId
                                         : m_head.hash)
                = std::move(m_string);
        m_seen |= m_key == "chain" ? 1 : m_key == "chainId" ? 2 : m_key == "seq" ? 4 : 8;
    }

    void endHead()
    {
        for (const auto &[bit, name] :
            {std::pair {1, "chain"}, {2, "chainId"}, {4, "seq"}, {8, "hash"}})
            if (!(m_seen & bit))
                throw InputError(where() + "." + name, "missing");
        m_seen = 0;
        if (m_head.chain == kAudits) {
            if (!isUuid(m_head.chainId))
                throw InputError(where() + ".chainId",
                    "expected a subscription id (a uuid), not '" + excerpt(m_head.chainId) + "'");
        } else if (m_head.chain == kHistory) {
            if (!isCaseId(m_head.chainId))
                throw InputError(where() + ".chainId",
                    "expected a case id (a number), not '" + excerpt(m_head.chainId) + "'");
        } else {
            throw InputError(where() + ".chain", "unknown chain '" + excerpt(m_head.chain) + "'");
        }
        if (m_head.seq < 1)
            throw InputError(where() + ".seq", "expected a position from 1");
        feedDigest(m_digest, m_head.chain, m_head.chainId, std::to_string(m_head.seq), m_head.hash,
            m_line);
        m_pending.push_back(std::move(m_head));
        ++m_index;
        if (m_pending.size() >= kChunk)
            flush();
    }

    void flush()
    {
        if (!m_pending.empty() && m_flush)
            m_flush(m_pending);
        m_pending.clear();
    }

    Flush m_flush;
    Level m_level = Level::Start;
    int m_skip = 0; // depth inside a value that is skipped
    bool m_sawHeads = false;
    std::string m_key;
    std::string m_string;
    std::int64_t m_number = 0;
    AnchorHead m_head;
    int m_seen = 0;
    long long m_index = 0;
    std::optional<std::string> m_createdAt;
    Sha256 m_digest;
    std::string m_line;
    bool m_sawDigest = false;
    std::string m_fileDigest;
    std::vector<AnchorHead> m_pending;
    std::exception_ptr m_error;
};

AuditAnchorCheck readAnchor(std::istream &in, AnchorReader::Flush flush)
{
    AnchorReader reader(std::move(flush));
    bool parsed = false;
    try {
        parsed = nlohmann::json::sax_parse(in, &reader);
    } catch (const nlohmann::json::exception &e) {
        throw InputError("", "not acceptable JSON (" + printableAscii(e.what()) + ")");
    }
    if (in.bad())
        throw std::runtime_error("cannot read the anchor (a read error)");
    reader.finish(parsed);
    AuditAnchorCheck out;
    out.heads = reader.heads();
    out.createdAt = reader.createdAt();
    out.digest = reader.digest();
    return out;
}

} // namespace

long long exportAuditAnchor(
    DbRef db, std::ostream &out, AnchorLayout layout, std::string *digestOut)
{
    pqxx::connection &conn = pqxxOf(db);
    // One snapshot for all heads, so the digest describes one moment.
    pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::read_only> tx(conn);
    return exportAuditAnchor(tx, out, layout, digestOut);
}

long long exportAuditAnchor(
    pqxx::transaction_base &tx, std::ostream &out, AnchorLayout layout, std::string *digestOut)
{
    const auto at = tx.exec1("SELECT public.rd_rfc3339(now())")[0].as<std::string>();
    tx.exec("DECLARE rd_anchor_heads NO SCROLL CURSOR FOR "
            "SELECT * FROM public.audit_chain_heads() UNION ALL "
            "SELECT * FROM public.audit_case_history_heads() ORDER BY 1, 2");
    // nlohmann's dump(2) layout (keys sorted within a head), or its compact one; "digest" comes
    // last because it is known last.
    const bool pretty = layout == AnchorLayout::Indented;
    const char *nl = pretty ? "\n" : "";
    const char *colon = pretty ? ": " : ":";
    const std::string in1 = pretty ? "  " : "", in2 = pretty ? "    " : "",
                      in3 = pretty ? "      " : "";
    const std::string sep = std::string(",") + nl + in3;
    out << "{" << nl << in1 << "\"createdAt\"" << colon << quoted(at) << "," << nl << in1
        << "\"heads\"" << colon << "[";
    Sha256 digest;
    long long heads = 0;
    std::string line;
    for (;;) {
        const auto rows = tx.exec(kFetch);
        if (rows.empty())
            break;
        for (const auto &r : rows) {
            const std::string_view chain(r[0].c_str(), r[0].size()),
                chainId(r[1].c_str(), r[1].size()), seq(r[2].c_str(), r[2].size()),
                hash(r[3].c_str(), r[3].size());
            // The digest's input as before: "chain:chainId:seq:hash\n" per head, in this order.
            feedDigest(digest, chain, chainId, seq, hash, line);
            out << (heads > 0 ? "," : "") << nl << in2 << "{" << nl << in3 << "\"chain\"" << colon
                << quoted(chain) << sep << "\"chainId\"" << colon << quoted(chainId) << sep
                << "\"hash\"" << colon << quoted(hash) << sep << "\"seq\"" << colon << seq << nl
                << in2 << "}";
            ++heads;
        }
        if (!out)
            throw std::runtime_error("cannot write the anchor");
    }
    tx.exec("CLOSE rd_anchor_heads");
    if (heads > 0)
        out << nl << in1;
    const std::string hex = digest.hexDigest();
    out << "]," << nl << in1 << "\"digest\"" << colon << quoted(hex) << nl << "}\n";
    out.flush();
    if (!out)
        throw std::runtime_error("cannot write the anchor");
    if (digestOut)
        *digestOut = hex;
    return heads;
}

AuditAnchorCheck readAuditAnchor(std::istream &anchor)
{
    return readAnchor(anchor, nullptr);
}

AuditAnchorCheck checkAuditAnchor(DbRef db, std::istream &anchor, std::size_t maxMismatches)
{
    pqxx::connection &conn = pqxxOf(db);
    // One snapshot for every lookup; a million heads are looked up kChunk per round trip as
    // they are parsed, not one each.
    pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::read_only> tx(conn);
    std::vector<ChainBreak> mismatches;
    long long mismatchCount = 0;
    auto out = readAnchor(anchor, [&](const std::vector<AnchorHead> &heads) {
        nlohmann::json chunk = nlohmann::json::array();
        for (const auto &h : heads)
            chunk.push_back({h.chain, h.chainId, h.seq});
        const auto rows = tx.exec_params(
            "SELECT public.audit_chain_hash_at(h->>0, h->>1, (h->>2)::bigint) "
            "FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(h, ord) ORDER BY ord",
            chunk.dump());
        for (std::size_t i = 0; i < heads.size(); ++i) {
            const auto &h = heads[i];
            const auto &field = rows[static_cast<int>(i)][0];
            ChainBreak b {h.chain, h.chainId, 0, h.seq, "", {}, {}};
            if (field.is_null())
                b.problem = chain_problem::kAnchoredRowGone;
            else if (std::string_view(field.c_str(), field.size()) != h.hash)
                b.problem = chain_problem::kAnchoredRowRewritten;
            if (b.problem.empty())
                continue;
            ++mismatchCount;
            if (mismatches.size() < maxMismatches)
                mismatches.push_back(std::move(b));
        }
    });
    nameChainBreaks(tx, mismatches);
    out.mismatches = std::move(mismatches);
    out.mismatchCount = mismatchCount;
    return out;
}

} // namespace rd
