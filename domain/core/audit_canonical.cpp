#include "domain/core/audit_canonical.h"

#include <cstdio>

namespace rd {
namespace {

// Members in jsonb's order: a Builder appends `"key": value` pairs, ", " between them.
class Builder
{
public:
    explicit Builder(std::size_t reserve)
    {
        m_out.reserve(reserve);
        m_out += '{';
    }
    void string(std::string_view key, std::string_view value)
    {
        this->key(key);
        appendJsonbString(m_out, value);
    }
    void string(std::string_view key, SqlText value)
    {
        if (value)
            string(key, *value);
        else
            raw(key, "null");
    }
    void raw(std::string_view key, std::string_view json)
    {
        this->key(key);
        m_out += json;
    }
    std::string done()
    {
        m_out += '}';
        return std::move(m_out);
    }

private:
    void key(std::string_view key)
    {
        if (m_out.size() > 1)
            m_out += ", ";
        appendJsonbString(m_out, key);
        m_out += ": ";
    }
    std::string m_out;
};

} // namespace

void appendJsonbString(std::string &out, std::string_view text)
{
    // PostgreSQL's escape_json: the two-character escapes, \u00xx for other control
    // characters, every other byte (UTF-8 included) as it is.
    out += '"';
    for (const char c : text) {
        switch (c) {
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        default:
            if (static_cast<unsigned char>(c) < ' ') {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<int>(c));
                out += buf;
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

std::string auditCanonicalText(const AuditRowText &r)
{
    // jsonb orders keys by length, then bytewise: this is rd_audit_canonical's object so ordered.
    Builder b(320 + r.details.size());
    b.string("dbRole", r.dbRole);
    b.string("reason", r.reason);
    b.string("actorId", r.actorId);
    b.string("comment", r.comment);
    b.raw("details", r.details);
    b.raw("chainSeq", r.chainSeq);
    b.string("prevHash", r.prevHash);
    b.string("actorType", r.actorType);
    b.string("createdAt", r.createdAt);
    b.string("periodEnd", r.periodEnd);
    b.string("transition", r.transition);
    b.string("periodStart", r.periodStart);
    b.string("subscriptionId", r.subscriptionId);
    b.string("billingPeriodId", r.billingPeriodId);
    b.string("providerEventId", r.providerEventId);
    b.string("providerRenewalKey", r.providerRenewalKey);
    return b.done();
}

std::string caseHistoryCanonicalText(const CaseHistoryRowText &r)
{
    Builder b(256 + r.details.size());
    b.string("actor", r.actor);
    b.string("action", r.action);
    b.raw("caseId", r.caseId);
    b.string("reason", r.reason);
    b.string("comment", r.comment);
    b.raw("details", r.details);
    b.string("outcome", r.outcome);
    b.raw("chainSeq", r.chainSeq);
    b.string("prevHash", r.prevHash);
    b.string("createdAt", r.createdAt);
    b.string("errorCode", r.errorCode);
    return b.done();
}

std::optional<std::string> pgTimestampToRfc3339(std::string_view t)
{
    // "YYYY-MM-DD HH:MM:SS" [".f" up to 6 digits] "+00"
    if (t.size() < 22 || t.substr(t.size() - 3) != "+00" || t[4] != '-' || t[10] != ' ')
        return std::nullopt;
    const auto digits = [](std::string_view s) {
        for (const char c : s)
            if (c < '0' || c > '9')
                return false;
        return true;
    };
    std::string_view rest = t.substr(0, t.size() - 3);
    std::string_view fraction;
    if (rest.size() > 19) {
        if (rest[19] != '.' || rest.size() > 26)
            return std::nullopt;
        fraction = rest.substr(20);
        rest = rest.substr(0, 19);
    }
    if (!digits(rest.substr(0, 4)) || !digits(fraction))
        return std::nullopt;
    std::string out(rest);
    out[10] = 'T';
    out += '.';
    out += fraction;
    out.append(6 - fraction.size(), '0');
    out += 'Z';
    return out;
}

} // namespace rd
