// renewalctl's ledger export, the same file as the desk's Ledger page writes: the columns, their
// order and kinds come from domain/core/ledger_csv.h and every line from the core's CSV writer.
#include "domain/store/ledger_export.h"

#include "domain/core/csv.h"
#include "domain/core/currency.h"
#include "domain/core/errors.h"
#include "domain/core/ledger_csv.h"
#include "domain/core/money_movement.h"
#include "domain/core/timestamp.h"
#include "domain/store/database_answer.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace rd {
namespace {

/// rd_rfc3339 always writes microseconds; the desk writes them only when there are some.
std::string instant(const pqxx::field &f)
{
    if (f.is_null())
        return {};
    const auto t = parseRfc3339(f.c_str());
    if (!t)
        throw std::runtime_error("the database returned an instant that is not RFC 3339");
    return formatRfc3339(*t);
}

std::string text(const pqxx::field &f)
{
    return f.is_null() ? std::string() : std::string(f.c_str(), f.size());
}

void write(std::ostream &out, const std::string &line)
{
    out << line;
    if (!out)
        throw std::runtime_error("cannot write the ledger export");
}

} // namespace

long long exportLedgerRows(
    DbRef db, const std::string &from, const std::string &to, std::ostream &out)
{
    pqxx::connection &conn = pqxxOf(db);
    pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::read_only> tx(conn);
    // As the desk reads its pages (LedgerModel::pageQuery): one index range scan per (provider,
    // currency, recorded_by) that has renewals in the days, those found in the daily totals
    // and the deltas not folded yet, instead of a scan of every billing period.
    const std::string lo = tx.quote(from), hiExclusive = "(" + tx.quote(to) + "::date + 1)";
    tx.exec0("DECLARE rd_ledger_rows NO SCROLL CURSOR FOR "
             "WITH combos AS ("
             "SELECT provider_key, currency, recorded_by FROM public.renewal_daily_totals "
             "WHERE day >= "
        + lo + "::date AND day < " + hiExclusive
        + " UNION SELECT provider_key, currency, recorded_by FROM public.renewal_total_deltas "
          "WHERE day >= "
        + lo + "::date AND day < " + hiExclusive
        + ") SELECT s.provider_subscription_id, b.subscription_id::text, b.provider_key, "
          "b.provider_renewal_key, public.rd_rfc3339(b.period_start), "
          "public.rd_rfc3339(b.period_end), b.paid_amount_minor, b.currency, "
          "public.rd_rfc3339(b.paid_at), b.recorded_by, b.provider_event_id, b.id::text, "
          "'renewal', NULL, b.paid_at, b.id FROM combos c CROSS JOIN LATERAL (SELECT * FROM "
          "public.subscription_billing_periods x "
          "WHERE x.provider_key = c.provider_key AND x.currency = c.currency "
          "AND x.recorded_by = c.recorded_by AND x.paid_at >= ("
        + lo + "::date)::timestamp AT TIME ZONE 'UTC' AND x.paid_at < (" + hiExclusive
        + ")::timestamp AT TIME ZONE 'UTC') b "
          "JOIN public.subscriptions s ON s.id = b.subscription_id "
          // Money back beside them, by the day it happened, signed, naming its renewal (as
          // the desk's Ledger lists it).
          "UNION ALL SELECT s.provider_subscription_id, m.subscription_id::text, m.provider_key, "
          "b.provider_renewal_key, public.rd_rfc3339(b.period_start), "
          "public.rd_rfc3339(b.period_end), "
        + signedAmountSql("m")
        + ", m.currency, "
          "public.rd_rfc3339(m.occurred_at), m.recorded_by, m.provider_event_id, b.id::text, "
          "m.kind, m.movement_key, m.occurred_at, m.id "
          "FROM public.money_movements m "
          "JOIN public.subscription_billing_periods b ON b.id = m.billing_period_id "
          "JOIN public.subscriptions s ON s.id = m.subscription_id "
          "WHERE m.occurred_at >= ("
        + lo + "::date)::timestamp AT TIME ZONE 'UTC' AND m.occurred_at < (" + hiExclusive
        + ")::timestamp AT TIME ZONE 'UTC' ORDER BY 15, 16");
    const auto &kinds = ledger_csv::rowKinds();
    write(out, csv::line(ledger_csv::rowTitles()));
    long long rows = 0;
    std::vector<std::string> fields;
    for (;;) {
        const auto page = tx.exec("FETCH FORWARD 5000 FROM rd_ledger_rows");
        if (page.empty())
            break;
        for (const auto &r : page) {
            const std::string currency = text(r[7]);
            std::string amount, minor;
            if (!r[6].is_null()) {
                const auto units = r[6].as<std::int64_t>();
                amount = formatMinorUnits(units, currency);
                minor = std::to_string(units);
            }
            fields = {text(r[0]), text(r[1]), text(r[2]), text(r[3]), instant(r[4]), instant(r[5]),
                amount, currency, minor, instant(r[8]), text(r[9]), text(r[10]), text(r[11]),
                text(r[12]), text(r[13])};
            write(out, csv::line(fields, kinds));
            ++rows;
        }
    }
    tx.exec0("CLOSE rd_ledger_rows");
    out.flush();
    return rows;
}

namespace {

// The renewals' daily totals (by day paid) and money back's (by each movement's own day, 0050)
// in [$1, $2], both days included, as one set of lines: what every net total groups.
constexpr const char *kPaidAndPaidBack
    = "(SELECT day, provider_key, currency, renewals, amount_minor, 0::numeric AS refunded, "
      "0::numeric AS disputed FROM public.renewal_totals($1::date, $2::date + 1) "
      "UNION ALL SELECT day, provider_key, currency, 0, 0, refunded_minor, disputed_minor "
      "FROM public.money_back_totals($1::date, $2::date + 1)) l ";

} // namespace

long long exportLedgerTotals(
    DbRef db, const std::string &from, const std::string &to, std::ostream &out)
{
    pqxx::connection &conn = pqxxOf(db);
    pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::read_only> tx(conn);
    // The desk's totals statement (loadLedgerTotals): both groupings in one read, one snapshot,
    // so that the months and the providers add up to the same renewals. Not folded first: the
    // totals are right without it, and an export writes nothing.
    // Money back beside the renewals (0050), each movement by its own day, as `ledger totals`
    // and the desk's totals read it.
    const auto result = tx.exec_params(
        std::string(
            "SELECT date_trunc('month', day)::date::text, provider_key, currency, "
            "sum(renewals), sum(amount_minor)::text, CASE WHEN grouping(date_trunc('month', "
            "day)) = 0 THEN 'month' WHEN grouping(provider_key) = 0 THEN 'provider' ELSE "
            "'currency' END, sum(refunded)::text, sum(disputed)::text, (sum(amount_minor) "
            "- sum(refunded) - sum(disputed))::text FROM ")
            + kPaidAndPaidBack
            + "GROUP BY GROUPING SETS ((date_trunc('month', day), currency), (provider_key, "
              "currency), (currency)) ORDER BY 1, 2, 3",
        from, to);
    const auto &kinds = ledger_csv::totalsKinds();
    write(out, csv::line(ledger_csv::totalsTitles()));
    ledger_csv::TotalsScope scope;
    scope.from = from;
    scope.to = to;
    const auto scoped = ledger_csv::scopeFields(scope);
    long long lines = 0;
    // Month totals first, then provider totals, then the range's total per currency, as the
    // desk writes them.
    for (const char *group : {"month", "provider", "currency"}) {
        for (const auto &r : result) {
            if (text(r[5]) != group)
                continue;
            const bool month = text(r[5]) == "month";
            const std::string currency = text(r[2]);
            // A numeric sum, written as its digits: however large, never parsed into 64 bits
            // (#39, item 6: two amounts near 2^63 made the export die in stoll, exit 70).
            const std::string minor = text(r[4]);
            std::vector<std::string> fields {group, month ? text(r[0]).substr(0, 7) : "",
                text(r[1]), currency, text(r[3]),
                majorUnitsAnswer(minor, currency, "renewal_totals"), minor};
            fields.insert(fields.end(), scoped.begin(), scoped.end());
            for (const int column : {6, 7, 8}) {
                const std::string back = text(r[column]);
                fields.push_back(majorUnitsAnswer(back, currency, "money_back_totals"));
                fields.push_back(back);
            }
            write(out, csv::line(fields, kinds));
            ++lines;
        }
    }
    out.flush();
    return lines;
}

std::vector<NetTotalsLine> ledgerNetTotals(DbRef db, const std::string &from, const std::string &to)
{
    pqxx::connection &conn = pqxxOf(db);
    pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::read_only> tx(conn);
    const auto result = tx.exec_params(
        std::string("SELECT CASE WHEN grouping(date_trunc('month', day)) = 0 THEN 'month' ELSE "
                    "'provider' END, to_char(date_trunc('month', day), 'YYYY-MM'), provider_key, "
                    "currency, sum(renewals)::bigint, sum(amount_minor)::text, "
                    "sum(refunded)::text, sum(disputed)::text, (sum(amount_minor) - "
                    "sum(refunded) - sum(disputed))::text FROM ")
            + kPaidAndPaidBack
            + "GROUP BY GROUPING SETS ((date_trunc('month', day), currency), (provider_key, "
              "currency)) ORDER BY 1, 2, 3, 4",
        from, to);
    std::vector<NetTotalsLine> lines;
    for (const auto &r : result) {
        NetTotalsLine l;
        l.group = text(r[0]);
        if (l.group == "month")
            l.month = text(r[1]);
        else
            l.providerKey = text(r[2]);
        l.currency = text(r[3]);
        l.renewals = r[4].as<long long>();
        l.grossMinor = text(r[5]);
        l.refundedMinor = text(r[6]);
        l.disputedMinor = text(r[7]);
        l.netMinor = text(r[8]);
        lines.push_back(std::move(l));
    }
    return lines;
}

} // namespace rd
