#include "ui/models/auditlog.h"

#include "ui/models/auditdetails.h"

#include "ui/models/columns.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"

#include "domain/core/timestamp.h"

#include <QCoreApplication>
#include <QObject>
#include <QSqlQuery>
#include <QUuid>

namespace rd::ui::auditlog {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::AuditLog)
};

} // namespace
namespace {

// Each branch's cells in fields() order.
const QString kAuditSelect = u"SELECT 'a' || a.id, 1, a.id, rd_rfc3339(a.created_at), "
                             "a.transition, a.actor_type, a.actor_id, a.db_role, s.provider_key, "
                             "s.provider_subscription_id, a.subscription_id::text, "
                             "CAST(a.details->>'caseId' AS bigint), NULL, a.provider_renewal_key, "
                             "a.reason, a.comment, a.details::text, rd_rfc3339(a.period_start), "
                             "rd_rfc3339(a.period_end), a.chain_seq, a.row_hash, "_qs
    + renewalAfterStateSql(u"a"_qs, u"s"_qs)
    + u" FROM subscription_transition_audits a "
      "JOIN subscriptions s ON s.id = a.subscription_id"_qs;
const QString kCaseSelect = u"SELECT 'c' || h.id, 0, h.id, rd_rfc3339(h.created_at), h.action, "
                            "'', h.actor, h.actor, c.provider_key, c.provider_subscription_id, "
                            "coalesce(c.subscription_id::text, ''), h.case_id, h.outcome, "
                            "c.provider_renewal_key, h.reason, h.comment, h.details::text, NULL, "
                            "NULL, h.chain_seq, h.row_hash, NULL "
                            "FROM reconciliation_case_history h "
                            "JOIN reconciliation_cases c ON c.id = h.case_id"_qs;

// 0037: the record of removed delivery bodies, source 2 (written once, not chained): what went,
// by whom and why, never the data.
const QString kRemovalSelect
    = u"SELECT 'r' || r.id, 2, r.id, rd_rfc3339(r.removed_at), "
      "CASE r.kind WHEN 'erasure' THEN 'bodies_erased' ELSE 'bodies_removed' END, '', "
      "r.removed_by, r.removed_by, coalesce(r.provider_key, ''), "
      "coalesce(r.provider_subscription_id, ''), '', NULL, NULL, NULL, r.kind, "
      "r.bodies || CASE r.bodies WHEN 1 THEN ' body' ELSE ' bodies' END "
      "|| coalesce(' (deliveries ' || r.first_inbox_id || ' to ' || r.last_inbox_id || ')', '') "
      "|| CASE r.kind WHEN 'erasure' THEN '; request: ' || r.request "
      "ELSE '; ' || CASE WHEN r.configured THEN 'retention ' ELSE 'older than ' END "
      "|| r.retention_days || CASE r.retention_days WHEN 1 THEN ' day' ELSE ' days' END END, "
      "jsonb_strip_nulls(to_jsonb(r))::text, NULL, NULL, NULL, NULL, NULL "
      "FROM webhook_inbox_removals r"_qs;

QString rfc3339(const QDateTime &t)
{
    return t.toUTC().toString(Qt::ISODateWithMs);
}

Column whatColumn()
{
    return {Tr::tr("What"), [](RowRef r, int role) -> QVariant {
                const QString what = r[What].toString();
                switch (role) {
                case Qt::DisplayRole: {
                    QString text = format::humanize(what.startsWith(u"subscription_"_qs)
                            ? what.mid(13) // "renewed", not "subscription renewed"
                            : what);
                    // A case action says so ("Case noted"); its number is in the Case column,
                    // so the action itself stays readable in a narrow column.
                    if (r[Source].toInt() == 0)
                        return Tr::tr("Case %1").arg(text.toLower());
                    return text;
                }
                case int(Role::Raw):
                    return what;
                default:
                    return {};
                }
            }};
}

Column caseColumn()
{
    return {Tr::tr("Case"),
        [](RowRef r, int role) -> QVariant {
            if (r[CaseId].isNull() || r[CaseId].toLongLong() <= 0)
                return {};
            if (role == Qt::DisplayRole || role == int(Role::Raw))
                return r[CaseId].toLongLong();
            return {};
        },
        Qt::AlignRight | Qt::AlignVCenter, {}, {}, {csv::Kind::Number}};
}

Column actorColumn()
{
    return {Tr::tr("Actor"), [](RowRef r, int role) -> QVariant {
                const QString type = r[ActorType].toString();
                const QString actor = r[Actor].toString();
                if (role == Qt::DisplayRole) {
                    if (type == u"webhook")
                        return Tr::tr("%1 webhook").arg(actor);
                    if (type.isEmpty() || type == u"operator")
                        return actor;
                    return Tr::tr("%1 (%2)").arg(actor, type);
                }
                if (role == int(Role::Raw))
                    return actor;
                return {};
            }};
}

} // namespace

const QVector<Field> &fields()
{
    static const QVector<Field> f {Field::Text, Field::Int, Field::Int, Field::Micros,
        Field::Interned, Field::Interned, Field::Interned, Field::Interned, Field::Interned,
        Field::Text, Field::Text, Field::Int, Field::Interned, Field::Text, Field::Text,
        Field::Text, Field::Text, Field::Micros, Field::Micros, Field::Int, Field::Text,
        Field::Text};
    return f;
}

QVector<Column> columns()
{
    // The case number beside what was done: a case's entries ("dismissed", "noted") and a
    // snapshot attached from a case say which case in the list and in the CSV.
    return {columns::instant(Tr::tr("When"), At), whatColumn(), caseColumn(), actorColumn(),
        columns::text(Tr::tr("Database role"), DbRole), columns::text(Tr::tr("Provider"), Provider),
        columns::text(Tr::tr("Subscription"), SubscriptionRef),
        columns::period(Tr::tr("Period"), PeriodStart, PeriodEnd),
        columns::code(Tr::tr("Outcome"), Outcome), columns::code(Tr::tr("Reason"), Reason),
        columns::text(Tr::tr("Comment"), Comment), columns::text(Tr::tr("Renewal key"), RenewalKey),
        columns::count(Tr::tr("Position"), ChainSeq), columns::text(Tr::tr("Row hash"), RowHash),
        columns::text(Tr::tr("Subscription id"), SubscriptionId)};
}

QString providersSql()
{
    // One probe of the browse index per provider, not a scan of every subscription.
    return u"WITH RECURSIVE k(provider_key) AS ("
           "SELECT min(provider_key) FROM subscriptions UNION ALL "
           "SELECT (SELECT min(s.provider_key) FROM subscriptions s WHERE s.provider_key > "
           "k.provider_key) FROM k WHERE k.provider_key IS NOT NULL) "
           "SELECT provider_key FROM k WHERE provider_key IS NOT NULL"_qs;
}

QStringList loadProviders(QSqlDatabase &db)
{
    QSqlQuery q = execSql(db, providersSql() + u" ORDER BY 1"_qs);
    QStringList providers;
    while (q.next())
        providers << q.value(0).toString();
    return providers;
}

QString providerRolePairsSql()
{
    // Every (provider, database role) the audit rows have, by a loose scan of
    // subscription_audits_by_provider_role: one probe per pair, however many rows each has.
    return u"WITH RECURSIVE pk(k) AS ("
           "SELECT min(provider_key) FROM subscription_transition_audits UNION ALL "
           "SELECT (SELECT min(q.provider_key) FROM subscription_transition_audits q "
           "WHERE q.provider_key > pk.k) FROM pk WHERE pk.k IS NOT NULL), "
           "pr(k, r) AS ("
           "SELECT pk.k, (SELECT min(q.db_role) FROM subscription_transition_audits q "
           "WHERE q.provider_key = pk.k) FROM pk WHERE pk.k IS NOT NULL UNION ALL "
           "SELECT pr.k, (SELECT min(q.db_role) FROM subscription_transition_audits q "
           "WHERE q.provider_key = pr.k AND q.db_role > pr.r) FROM pr WHERE pr.r IS NOT NULL) "
           "SELECT k AS provider_key, r AS db_role FROM pr WHERE r IS NOT NULL"_qs;
}

QStringList transitions()
{
    return {u"subscription_imported"_qs, u"subscription_renewed"_qs, u"subscription_reconciled"_qs};
}

QStringList caseActions()
{
    return {u"opened"_qs, u"occurrence"_qs, u"reapply"_qs, u"snapshot_attached"_qs, u"dismissed"_qs,
        u"reopened"_qs, u"claimed"_qs, u"released"_qs, u"noted"_qs};
}

PagedTableModel::Fetcher fetcher(const Filter &filter)
{
    return [filter](QSqlDatabase &db, const QVector<QVariant> &after, int limit) {
        return fetchPage(db, filter, after, limit);
    };
}

Page fetchPage(QSqlDatabase &db, const Filter &f, const QVector<QVariant> &after, int limit)
{
    const bool what = !f.what.isEmpty();
    // Filters with an index of their own (a transition other than renewals, a person or a
    // program, a subscription): the rows they keep are read from it directly.
    const bool indexedFilter = (what && f.what != u"subscription_renewed"_qs) || !f.actor.isEmpty()
        || !f.subscription.isEmpty();
    bool audits = !what || transitions().contains(f.what);
    bool cases = !what || caseActions().contains(f.what);
    // Removals name no case and no subscription of the desk's: shown without those filters.
    // The removal log is small (a row per purge batch or erasure): its branch in the page's
    // query costs less than a round trip of its own asking first whether it has rows.
    const bool removals = !what && f.caseId <= 0 && f.subscription.isEmpty();
    QStringList aw, cw, rw; // each branch's conditions
    QVariantList av, cv, rv; // and values
    const auto removal = [&](const QString &w, const QVariant &v) {
        rw << w;
        rv << v;
    };
    const auto both = [&](const QString &a, const QString &c, const QVariant &v) {
        aw << a;
        av << v;
        cw << c;
        cv << v;
    };
    if (f.from.isValid()) {
        both(u"a.created_at >= CAST(? AS timestamptz)"_qs,
            u"h.created_at >= CAST(? AS timestamptz)"_qs, rfc3339(f.from));
        removal(u"r.removed_at >= CAST(? AS timestamptz)"_qs, rfc3339(f.from));
    }
    if (f.to.isValid()) {
        both(u"a.created_at < CAST(? AS timestamptz)"_qs,
            u"h.created_at < CAST(? AS timestamptz)"_qs, rfc3339(f.to));
        removal(u"r.removed_at < CAST(? AS timestamptz)"_qs, rfc3339(f.to));
    }
    if (what) {
        // Said literally too, so that a generic plan still reads the partial index
        // subscription_audits_by_transition for the transitions other than renewals.
        both(f.what == u"subscription_renewed"_qs
                ? u"a.transition = ?"_qs
                : u"a.transition <> 'subscription_renewed' AND a.transition = ?"_qs,
            u"h.action = ?"_qs, f.what);
    }
    if (!f.actor.isEmpty()) {
        // A person or a program: subscription_audits_by_actor covers the rows not written by
        // a provider's webhook (migration 0017), so the webhooks' millions are never walked.
        both(u"a.actor_type <> 'webhook' AND a.actor_id = ?"_qs, u"h.actor = ?"_qs, f.actor);
        removal(u"r.removed_by = ?"_qs, f.actor);
    }
    if (!f.dbRole.isEmpty()) {
        both(u"a.db_role = ?"_qs, u"h.actor = ?"_qs, f.dbRole);
        removal(u"r.removed_by = ?"_qs, f.dbRole);
    }
    if (!f.provider.isEmpty()) {
        // The row's own copy (migration 0022), read by subscription_audits_by_provider_role and
        // reconciliation_case_history_by_provider. Matching the owner's provider as well
        // halved the planner's row estimate and bought a parallel plan four times slower;
        // the Provider column shows the owner's, so a tampered copy would read as a mismatch.
        both(u"a.provider_key = ?"_qs, u"h.provider_key = ?"_qs, f.provider);
        removal(u"r.provider_key = ?"_qs, f.provider);
    }
    if (!f.subscription.isEmpty()) {
        const QUuid uuid(f.subscription);
        if (!uuid.isNull()) {
            both(u"a.subscription_id = CAST(? AS uuid)"_qs,
                u"c.subscription_id = CAST(? AS uuid)"_qs, uuid.toString(QUuid::WithoutBraces));
        } else {
            // A provider's id is unique per provider: one probe of the unique index per
            // provider the subscriptions have (found by a loose index scan), whatever the
            // collation.
            const QString byRef = u"(SELECT x.id FROM ("_qs + providersSql()
                + u") p JOIN subscriptions x ON x.provider_key = p.provider_key "
                  "AND x.provider_subscription_id = CAST(? AS text))"_qs;
            both(u"a.subscription_id IN "_qs + byRef, u"c.subscription_id IN "_qs + byRef,
                f.subscription.trimmed());
        }
    }
    if (f.caseId > 0) {
        audits = false; // a case's log is its history
        cw << u"h.case_id = ?"_qs;
        cv << f.caseId;
    }
    if (!after.isEmpty()) {
        // After the last row shown in (created_at DESC, source DESC, id DESC): at its instant,
        // removals (source 2) come before audits (1), audits before case entries (0).
        const QString at
            = QString::fromStdString(rd::formatRfc3339(rd::Timestamp {after[At].toLongLong()}));
        const qint64 id = after[Id].toLongLong();
        const int last = after[Source].toInt();
        const auto keyset = [&](int source, const QString &time, const QString &key, QStringList &w,
                                QVariantList &v) {
            if (source < last) {
                w << time + u" <= CAST(? AS timestamptz)"_qs;
                v << at;
            } else if (source == last) {
                w << u"("_qs + time + u", "_qs + key
                        + u") < (CAST(? AS timestamptz), CAST(? AS bigint))"_qs;
                v << at << id;
            } else {
                w << time + u" < CAST(? AS timestamptz)"_qs;
                v << at;
            }
        };
        keyset(1, u"a.created_at"_qs, u"a.id"_qs, aw, av);
        keyset(0, u"h.created_at"_qs, u"h.id"_qs, cw, cv);
        keyset(2, u"r.removed_at"_qs, u"r.id"_qs, rw, rv);
    }
    const QString n = QString::number(limit);
    const auto where = [](const QStringList &w) {
        return w.isEmpty() ? QString() : u" WHERE "_qs + w.join(u" AND "_qs);
    };
    QStringList branches;
    QVariantList values;
    if (audits && !indexedFilter) {
        // The audit rows have one time-ordered index per (provider, database role), not one
        // for all of them (each index is an entry more for every renewal: migration 0026):
        // newest first across everything is the newest of each pair's range, merged. The
        // pairs are read first and written into the page's query as values: inside it, a
        // recursive scan's row estimate made the page look costly enough to JIT-compile
        // (20 ms of compilation on every page).
        QSqlQuery pairs = execSql(db, providerRolePairsSql());
        QStringList rows;
        QVariantList pairValues;
        while (pairs.next()) {
            rows << u"(CAST(? AS text), CAST(? AS text))"_qs;
            pairValues << pairs.value(0) << pairs.value(1);
        }
        if (!rows.isEmpty()) {
            branches << u"("_qs + kAuditSelect + u" JOIN (SELECT m.id FROM (VALUES "_qs
                    + rows.join(u", "_qs)
                    + u") p (provider_key, db_role) CROSS JOIN LATERAL (SELECT a.id, "
                      "a.created_at FROM subscription_transition_audits a"_qs
                    + where(QStringList {
                                u"a.provider_key = p.provider_key"_qs, u"a.db_role = p.db_role"_qs}
                        + aw)
                    + u" ORDER BY a.created_at DESC, a.id DESC LIMIT "_qs + n
                    + u") m ORDER BY m.created_at DESC, m.id DESC LIMIT "_qs + n
                    + u") top ON top.id = a.id ORDER BY a.created_at DESC, a.id DESC LIMIT "_qs + n
                    + u")"_qs;
            values << pairValues << av;
        }
    } else if (audits) {
        branches << u"("_qs + kAuditSelect + where(aw)
                + u" ORDER BY a.created_at DESC, a.id DESC LIMIT "_qs + n + u")"_qs;
        values << av;
    }
    if (cases) {
        branches << u"("_qs + kCaseSelect + where(cw)
                + u" ORDER BY h.created_at DESC, h.id DESC LIMIT "_qs + n + u")"_qs;
        values << cv;
    }
    if (removals) {
        branches << u"("_qs + kRemovalSelect + where(rw)
                + u" ORDER BY r.removed_at DESC, r.id DESC LIMIT "_qs + n + u")"_qs;
        values << rv;
    }
    Page page;
    if (branches.isEmpty())
        return page;
    // Column 4 is rd_rfc3339(created_at): microseconds, fixed width, so text order is time order.
    QSqlQuery q = execSql(db,
        u"SELECT * FROM ("_qs + branches.join(u" UNION ALL "_qs)
            + u") x ORDER BY 4 DESC, 2 DESC, 3 DESC LIMIT "_qs + n,
        values);
    page.rows = readRows(q, fields(), page.cells);
    return page;
}

} // namespace rd::ui::auditlog
