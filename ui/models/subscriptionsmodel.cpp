#include "ui/models/subscriptionsmodel.h"

#include "ui/models/columns.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/overduewatch.h"

#include "domain/core/timestamp.h"

#include <QBrush>
#include <QColor>
#include <QCoreApplication>
#include <QDate>
#include <QFont>

#include <utility>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::SubscriptionsModel)
};

/// The statuses a provider reports, as the Status column shows them (lupdate reads them here).
[[maybe_unused]] constexpr const char *kStatusWords[] = {
    QT_TRANSLATE_NOOP("rd::ui::SubscriptionsModel", "active"),
    QT_TRANSLATE_NOOP("rd::ui::SubscriptionsModel", "trialing"),
    QT_TRANSLATE_NOOP("rd::ui::SubscriptionsModel", "past_due"),
    QT_TRANSLATE_NOOP("rd::ui::SubscriptionsModel", "paused"),
    QT_TRANSLATE_NOOP("rd::ui::SubscriptionsModel", "canceled"),
    QT_TRANSLATE_NOOP("rd::ui::SubscriptionsModel", "incomplete"),
};

using S = SubscriptionsModel;

QString rfc3339(const QVariant &micros)
{
    return QString::fromStdString(rd::formatRfc3339(rd::Timestamp {micros.toLongLong()}));
}

QString likeEscaped(const QString &text)
{
    QString escaped = text;
    escaped.replace(u'\\', u"\\\\"_qs).replace(u'%', u"\\%"_qs).replace(u'_', u"\\_"_qs);
    return escaped;
}

/// A page's rows in reverse order (a backwards page is read in the opposite direction).
void reverseRows(Page &page, int stride)
{
    for (int a = 0, b = page.rows - 1; a < b; ++a, --b) {
        for (int f = 0; f < stride; ++f)
            std::swap(page.cells[qsizetype(a) * stride + f], page.cells[qsizetype(b) * stride + f]);
    }
}

QVector<Column> subscriptionColumns()
{
    const auto right = Qt::AlignRight | Qt::AlignVCenter;
    QVector<Column> c(S::ColumnCount);
    c[S::ProviderColumn] = {Tr::tr("Provider"), [](RowRef r, int role) -> QVariant {
                                return role == Qt::DisplayRole ? r[S::Provider] : QVariant();
                            }};
    c[S::SubscriptionColumn] = {Tr::tr("Subscription"),
        [](RowRef r, int role) -> QVariant {
            if (role == Qt::DisplayRole || role == int(Role::Raw))
                return r[S::SubscriptionId];
            if (role == Qt::ToolTipRole)
                return Tr::tr("Internal id %1").arg(keyText(r[S::Id]));
            return {};
        },
        Qt::AlignLeft | Qt::AlignVCenter, {Tr::tr("Subscription"), Tr::tr("Internal id")},
        [](RowRef r) {
            return QStringList {r[S::SubscriptionId].toString(), keyText(r[S::Id])};
        }};
    c[S::StatusColumn]
        = {Tr::tr("Status"), [](RowRef r, int role) -> QVariant {
               if (role == int(Role::Raw))
                   return r[S::Status];
               // The provider's status word, in the desk's language (English: as stored).
               if (role == Qt::DisplayRole)
                   return format::storedWord(r[S::Status].toString());
               if (role == Qt::ForegroundRole && r[S::Status].toString() != u"active")
                   return QBrush(QColor(0x8a, 0x5a, 0x00));
               return {};
           }};
    c[S::CancelColumn]
        = {Tr::tr("Cancels at end"), [](RowRef r, int role) -> QVariant {
               if (role == int(Role::Raw))
                   return r[S::CancelAtPeriodEnd];
               if (role == Qt::DisplayRole)
                   return r[S::CancelAtPeriodEnd].toBool() ? Tr::tr("yes") : QString();
               return {};
           }};
    c[S::PeriodColumn] = {Tr::tr("Current period"),
        [](RowRef r, int role) -> QVariant {
            const QDateTime start = columns::fromMicros(r[S::PeriodStart]);
            const QDateTime end = columns::fromMicros(r[S::PeriodEnd]);
            if (role == Qt::DisplayRole)
                return format::period(start, end);
            if (role == Qt::ToolTipRole)
                return format::utcTooltip(start, end);
            if (role == int(Role::Raw))
                return r[S::PeriodEnd];
            return {};
        },
        Qt::AlignLeft | Qt::AlignVCenter, columns::periodExportTitles(Tr::tr("Current period")),
        [](RowRef r) {
            return QStringList {
                columns::isoInstant(r[S::PeriodStart]), columns::isoInstant(r[S::PeriodEnd])};
        }};
    // The date the latest billing period was paid; its renewal key in the tooltip and the CSV.
    c[S::LastRenewalColumn] = {Tr::tr("Last renewal"),
        [](RowRef r, int role) -> QVariant {
            if (r[S::LastRenewalAt].isNull())
                return {};
            const QDateTime at = columns::fromMicros(r[S::LastRenewalAt]);
            if (role == Qt::DisplayRole)
                return format::localDate(at);
            if (role == Qt::ToolTipRole)
                return Tr::tr("Paid %1 · renewal key %2")
                    .arg(format::utcTooltip(at), r[S::LastRenewalKey].toString());
            if (role == int(Role::Raw))
                return r[S::LastRenewalAt];
            return {};
        },
        Qt::AlignLeft | Qt::AlignVCenter, {Tr::tr("Last renewal"), Tr::tr("Last renewal key")},
        [](RowRef r) {
            return QStringList {
                columns::isoInstant(r[S::LastRenewalAt]), r[S::LastRenewalKey].toString()};
        }};
    c[S::AmountColumn] = {Tr::tr("Amount"),
        [](RowRef r, int role) -> QVariant {
            if (r[S::LastAmountMinor].isNull())
                return {};
            if (role == Qt::DisplayRole)
                return format::money(
                    r[S::LastAmountMinor].toLongLong(), r[S::LastCurrency].toString());
            if (role == int(Role::Raw))
                return r[S::LastAmountMinor];
            if (role == Qt::ToolTipRole)
                return r[S::LastCurrency];
            return {};
        },
        right, columns::moneyExportTitles(Tr::tr("Amount")),
        [](RowRef r) {
            return columns::moneyExportValues(r[S::LastAmountMinor], r[S::LastCurrency]);
        },
        columns::moneyExportKinds()};
    c[S::OpenCasesColumn] = {Tr::tr("Open cases"),
        [](RowRef r, int role) -> QVariant {
            const qint64 n = r[S::OpenCases].toLongLong();
            switch (role) {
            case Qt::DisplayRole:
                return n > 0 ? QString::number(n) : QString();
            case int(Role::Raw):
                return n;
            case Qt::ForegroundRole:
                return n > 0 ? QVariant(QBrush(QColor(0xb0, 0x20, 0x20))) : QVariant();
            case Qt::FontRole:
                if (n > 0) {
                    QFont f;
                    f.setBold(true);
                    return f;
                }
                return {};
            default:
                return {};
            }
        },
        right};
    // On screen in the desk's language, the period end in the locale's form; in a CSV, the
    // CLI's sentence with the instant in RFC 3339.
    c[S::NextStepColumn] = {Tr::tr("Next step"),
        [](RowRef r, int role) -> QVariant {
            if (!r[S::Overdue].toBool())
                return {};
            switch (role) {
            case Qt::DisplayRole:
            case Qt::ToolTipRole:
                return overdueNextStepText(r[S::Provider].toString(), rfc3339(r[S::PeriodEnd]));
            case Qt::ForegroundRole:
                return QBrush(QColor(0xb0, 0x20, 0x20));
            default:
                return {};
            }
        },
        Qt::AlignLeft | Qt::AlignVCenter, {},
        [](RowRef r) {
            return QStringList {r[S::Overdue].toBool()
                    ? overdueNextStep(r[S::Provider].toString(), rfc3339(r[S::PeriodEnd]))
                    : QString()};
        }};
    return c;
}

QVector<Field> subscriptionFields()
{
    return {Field::Uuid, Field::Interned, Field::Text, Field::Interned, Field::Bool, Field::Micros,
        Field::Micros, Field::Text, Field::Micros, Field::Int, Field::Interned, Field::Int,
        Field::Int, Field::Bool};
}

const QString kPageColumns = u"s.id, s.provider_key, s.provider_subscription_id, s.status, "
                             "s.cancel_at_period_end, s.current_period_start, "
                             "s.current_period_end, s.revision"_qs;

} // namespace

SubscriptionsModel::SubscriptionsModel(DatabasePool *pool, QObject *parent)
    : PagedTableModel(pool, subscriptionFields(), subscriptionColumns(), Id, parent)
{
    reload();
}

const QStringList &SubscriptionsModel::statuses()
{
    static const QStringList list {u"trialing"_qs, u"active"_qs, u"past_due"_qs, u"paused"_qs,
        u"unpaid"_qs, u"incomplete"_qs, u"canceled"_qs};
    return list;
}

SubscriptionOrder SubscriptionsModel::effectiveOrder() const
{
    return m_filter.idPrefix.isEmpty() ? m_order : SubscriptionOrder::ProviderAndId;
}

void SubscriptionsModel::setFilter(const SubscriptionFilter &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    reload();
}

void SubscriptionsModel::setOrder(SubscriptionOrder order, Qt::SortOrder direction)
{
    if (order == m_order && direction == m_direction)
        return;
    m_order = order;
    m_direction = direction;
    m_position.clear();
    reload();
}

std::optional<SubscriptionOrder> SubscriptionsModel::orderForColumn(int column)
{
    switch (column) {
    case ProviderColumn:
    case SubscriptionColumn:
        return SubscriptionOrder::ProviderAndId;
    case StatusColumn:
        return SubscriptionOrder::Status;
    case PeriodColumn:
        return SubscriptionOrder::PeriodEnd;
    default:
        return std::nullopt;
    }
}

void SubscriptionsModel::sort(int column, Qt::SortOrder order)
{
    if (const auto o = orderForColumn(column))
        setOrder(*o, order);
}

void SubscriptionsModel::setStartPosition(const QString &position)
{
    if (position == m_position)
        return;
    m_position = position;
    reload();
}

std::optional<QString> SubscriptionsModel::parsePosition(
    SubscriptionOrder order, const QString &typed, QString *error)
{
    const QString text = typed.trimmed();
    if (text.isEmpty())
        return QString();
    switch (order) {
    case SubscriptionOrder::ProviderAndId:
        return text;
    case SubscriptionOrder::Status:
        if (!statuses().contains(text)) {
            *error = tr("\"%1\" is not a status; one of: %2").arg(text, statuses().join(u", "_qs));
            return std::nullopt;
        }
        return text;
    case SubscriptionOrder::PeriodEnd: {
        if (const auto exact = rd::parseRfc3339(text.toStdString()))
            return QString::fromStdString(rd::formatRfc3339(*exact));
        const QDate date = QDate::fromString(text, Qt::ISODate);
        if (!date.isValid()) {
            *error = tr("\"%1\" is not a date: write it as YYYY-MM-DD").arg(text);
            return std::nullopt;
        }
        const qint64 ms = date.startOfDay().toMSecsSinceEpoch(); // local midnight
        return QString::fromStdString(rd::formatRfc3339(rd::Timestamp {ms * 1000}));
    }
    }
    return std::nullopt;
}

void SubscriptionsModel::reload()
{
    const QString position = m_filter.idPrefix.isEmpty() ? m_position : QString();
    const SubscriptionFilter filter = m_filter;
    const SubscriptionOrder order = effectiveOrder();
    const Qt::SortOrder direction = m_direction;
    const QVector<Field> fields = subscriptionFields();
    Fetcher before;
    if (!position.isEmpty()) {
        // From a position, scrolling up pages backwards: the order read the other way (each
        // index serves both directions, NULL period ends included), from the first row loaded.
        const Qt::SortOrder reverse
            = direction == Qt::AscendingOrder ? Qt::DescendingOrder : Qt::AscendingOrder;
        before = [=](QSqlDatabase &db, const QVector<QVariant> &first, int limit) {
            const PageQuery q = pageQuery(filter, order, reverse, first, limit);
            QSqlQuery query = execSql(db, q.sql, q.values);
            Page page;
            page.rows = readRows(query, fields, page.cells);
            reverseRows(page, int(fields.size()));
            return page;
        };
    }
    setFetcher(
        [=](QSqlDatabase &db, const QVector<QVariant> &after, int limit) {
            const PageQuery q = pageQuery(filter, order, direction, after, limit, position);
            QSqlQuery query = execSql(db, q.sql, q.values);
            Page page;
            page.rows = readRows(query, fields, page.cells);
            return page;
        },
        before);
}

PageQuery SubscriptionsModel::pageQuery(const SubscriptionFilter &filter, SubscriptionOrder order,
    Qt::SortOrder direction, const QVector<QVariant> &after, int limit, const QString &position)
{
    const bool desc = direction == Qt::DescendingOrder;
    const QString dir = desc ? u" DESC"_qs : QString();
    const QString cmp = desc ? u"<"_qs : u">"_qs;
    QVariantList values;

    // Filters shared by every part of the page query.
    QStringList where;
    QVariantList whereValues;
    if (!filter.provider.isEmpty()) {
        where << u"s.provider_key = ?"_qs;
        whereValues << filter.provider;
    }
    if (!filter.status.isEmpty()) {
        where << u"s.status = ?"_qs;
        whereValues << filter.status;
    }
    if (filter.openCasesOnly) {
        // The open cases are few: probe the primary key with their subscriptions rather than
        // walk the browse index testing every row.
        where << u"s.id = ANY (ARRAY(SELECT c.subscription_id FROM reconciliation_cases c "
                 "WHERE c.status = 'open' AND c.subscription_id IS NOT NULL))"_qs;
    }
    if (filter.overdueOnly) {
        where << overdueCondition(u"s"_qs);
        whereValues << overdueGraceValues(filter.overdueGraceHours);
    }
    // An id search reads ids bytewise (COLLATE "C", subscriptions_id_search): a prefix is one
    // range of that order on every server, whatever the database's collation; a fragment is
    // looked up in the trigram index (subscriptions_id_contains, migration 0014).
    const bool searching = !filter.idPrefix.isEmpty();
    const bool contains = searching && filter.idContains;
    if (searching && !contains) {
        where << u"s.provider_subscription_id COLLATE \"C\" LIKE ?"_qs;
        whereValues << likeEscaped(filter.idPrefix) + u'%';
    } else if (contains) {
        where << u"s.provider_subscription_id LIKE ?"_qs;
        whereValues << u'%' + likeEscaped(filter.idPrefix) + u'%';
    }
    const QString idOrder = searching ? u"s.provider_subscription_id COLLATE \"C\""_qs
                                      : u"s.provider_subscription_id"_qs;
    auto part = [&](QStringList conds, const QVariantList &condValues, const QString &orderBy,
                    const QString &extraColumn) {
        conds = where + conds;
        values += whereValues;
        values += condValues;
        return u"(SELECT "_qs + kPageColumns + extraColumn + u" FROM subscriptions s"_qs
            + (conds.isEmpty() ? QString() : u" WHERE "_qs + conds.join(u" AND "_qs))
            + u" ORDER BY "_qs + orderBy + u" LIMIT "_qs + QString::number(limit) + u')';
    };

    QString with;
    QString page;
    QString outerOrder;
    const bool hasAfter = !after.isEmpty();
    switch (order) {
    case SubscriptionOrder::ProviderAndId: {
        QStringList conds;
        QVariantList condValues;
        if (hasAfter) {
            conds << u"(s.provider_key, "_qs + idOrder + u") "_qs + cmp + u" (?, ?)"_qs;
            condValues << after[Provider] << after[SubscriptionId];
        } else if (!position.isEmpty()) {
            // "provider/id" is a row position; a bare provider starts at its first row.
            const qsizetype slash = position.indexOf(u'/');
            if (slash >= 0) {
                conds << u"(s.provider_key, s.provider_subscription_id) "_qs + cmp + u"= (?, ?)"_qs;
                condValues << position.left(slash) << position.mid(slash + 1);
            } else {
                conds << u"s.provider_key "_qs + cmp + u"= ?"_qs;
                condValues << position;
            }
        }
        const QString collate = searching ? u" COLLATE \"C\""_qs : QString();
        outerOrder
            = u"p.provider_key"_qs + dir + u", p.provider_subscription_id"_qs + collate + dir;
        // (A fragment is looked up once in the trigram index for every provider, its matches
        // sorted: per provider, the same posting list would be read once a provider.)
        if (searching && !contains && filter.provider.isEmpty()) {
            // An id search over every provider: one index range scan per provider (found by a
            // loose index scan) instead of a walk through the whole unique index.
            with = u"providers(k) AS (SELECT min(provider_key) FROM subscriptions UNION ALL "
                   "SELECT (SELECT min(provider_key) FROM subscriptions WHERE provider_key > "
                   "providers.k) FROM providers WHERE providers.k IS NOT NULL), "_qs;
            page = u"SELECT m.* FROM providers CROSS JOIN LATERAL "_qs
                + part(conds + QStringList {u"s.provider_key = providers.k"_qs}, condValues,
                    idOrder + dir, QString())
                + u" m WHERE providers.k IS NOT NULL ORDER BY m.provider_key"_qs + dir
                + u", m.provider_subscription_id"_qs + collate + dir + u" LIMIT "_qs
                + QString::number(limit);
        } else {
            page = part(conds, condValues, u"s.provider_key"_qs + dir + u", "_qs + idOrder + dir,
                QString());
        }
        break;
    }
    case SubscriptionOrder::Status: {
        QStringList conds;
        QVariantList condValues;
        if (hasAfter) {
            conds << u"(s.status, s.provider_key, s.provider_subscription_id) "_qs + cmp
                    + u" (?, ?, ?)"_qs;
            condValues << after[Status] << after[Provider] << after[SubscriptionId];
        } else if (!position.isEmpty()) {
            conds << u"s.status "_qs + cmp + u"= ?"_qs;
            condValues << position;
        }
        outerOrder = u"p.status"_qs + dir + u", p.provider_key"_qs + dir
            + u", p.provider_subscription_id"_qs + dir;
        page = part(conds, condValues,
            u"s.status"_qs + dir + u", s.provider_key"_qs + dir + u", s.provider_subscription_id"_qs
                + dir,
            QString());
        break;
    }
    case SubscriptionOrder::PeriodEnd: {
        // NULL ends (no current period) sort last ascending and first descending, as the
        // index does. A row comparison with NULL is NULL, so the two phases are two index
        // range scans; the keyset says which phase the previous page ended in.
        // A position is a time: it starts among the non-NULL ends (descending, the NULLs that
        // come first lie before it).
        const bool afterInNulls = hasAfter && after[PeriodEnd].isNull();
        const bool fromPosition = !hasAfter && !position.isEmpty();
        auto nonNull = [&](int phase) {
            QStringList conds {u"s.current_period_end IS NOT NULL"_qs};
            QVariantList condValues;
            if (hasAfter && !afterInNulls) {
                conds << u"(s.current_period_end, s.provider_key, s.provider_subscription_id) "_qs
                        + cmp + u" (CAST(? AS timestamptz), ?, ?)"_qs;
                condValues << rfc3339(after[PeriodEnd]) << after[Provider] << after[SubscriptionId];
            } else if (fromPosition) {
                conds << u"s.current_period_end "_qs + cmp + u"= CAST(? AS timestamptz)"_qs;
                condValues << position;
            }
            return part(conds, condValues,
                u"s.current_period_end"_qs + dir + u", s.provider_key"_qs + dir
                    + u", s.provider_subscription_id"_qs + dir,
                u", "_qs + QString::number(phase) + u" AS phase"_qs);
        };
        auto nulls = [&](int phase) {
            QStringList conds {u"s.current_period_end IS NULL"_qs};
            QVariantList condValues;
            if (afterInNulls) {
                conds << u"(s.provider_key, s.provider_subscription_id) "_qs + cmp + u" (?, ?)"_qs;
                condValues << after[Provider] << after[SubscriptionId];
            }
            return part(conds, condValues,
                u"s.provider_key"_qs + dir + u", s.provider_subscription_id"_qs + dir,
                u", "_qs + QString::number(phase) + u" AS phase"_qs);
        };
        QStringList parts;
        if (!desc) {
            if (!afterInNulls)
                parts << nonNull(0);
            parts << nulls(1);
        } else {
            if ((!hasAfter && !fromPosition) || afterInNulls)
                parts << nulls(0);
            parts << nonNull(1);
        }
        page = u"SELECT * FROM ("_qs + parts.join(u" UNION ALL "_qs)
            + u") u ORDER BY phase, current_period_end"_qs + dir + u", provider_key"_qs + dir
            + u", provider_subscription_id"_qs + dir + u" LIMIT "_qs + QString::number(limit);
        outerOrder = u"p.phase, p.current_period_end"_qs + dir + u", p.provider_key"_qs + dir
            + u", p.provider_subscription_id"_qs + dir;
        break;
    }
    }

    QString sql = u"WITH RECURSIVE "_qs + with + u"page AS ("_qs + page
        + u") SELECT p.id::text, p.provider_key, p.provider_subscription_id, p.status, "
          "p.cancel_at_period_end, rd_rfc3339(p.current_period_start), "
          "rd_rfc3339(p.current_period_end), lr.provider_renewal_key, rd_rfc3339(lr.paid_at), "
          "lr.paid_amount_minor, "
          "lr.currency, (SELECT count(*) FROM reconciliation_cases c "
          "WHERE c.subscription_id = p.id AND c.status = 'open'), p.revision, "_qs
        + overdueCondition(u"p"_qs)
        + u" FROM page p LEFT JOIN LATERAL (SELECT b.provider_renewal_key, b.paid_at, "
          "b.paid_amount_minor, "
          "b.currency FROM subscription_billing_periods b WHERE b.subscription_id = p.id "
          "ORDER BY b.period_start DESC, b.period_end DESC LIMIT 1) lr ON true ORDER BY "_qs
        + outerOrder;
    values << overdueGraceValues(filter.overdueGraceHours); // the outer select's, last
    return {sql, values};
}

QStringList loadProviders(QSqlDatabase &db)
{
    QSqlQuery q = execSql(db,
        u"WITH RECURSIVE providers(k) AS (SELECT min(provider_key) FROM subscriptions "
        "UNION ALL SELECT (SELECT min(provider_key) FROM subscriptions WHERE provider_key > "
        "providers.k) FROM providers WHERE providers.k IS NOT NULL) "
        "SELECT k FROM providers WHERE k IS NOT NULL"_qs);
    QStringList providers;
    while (q.next())
        providers << q.value(0).toString();
    return providers;
}

qint64 estimateSubscriptions(QSqlDatabase &db)
{
    QSqlQuery q = execSql(db,
        u"SELECT greatest(reltuples, 0)::bigint FROM pg_class "
        "WHERE oid = 'subscriptions'::regclass"_qs);
    return q.next() ? q.value(0).toLongLong() : 0;
}

SubscriptionChoices loadSubscriptionChoices(QSqlDatabase &db)
{
    return {loadProviders(db), estimateSubscriptions(db)};
}

} // namespace rd::ui
