#pragma once

#include "ui/models/pagedtablemodel.h"

#include <QStringList>

#include <optional>

namespace rd::ui {

/// What the subscriptions list is narrowed to. Empty strings mean "any".
struct SubscriptionFilter
{
    QString provider;
    QString status;
    bool openCasesOnly = false;
    /// What provider_subscription_id starts with (or contains, with idContains). Served by
    /// subscriptions_id_search (ids COLLATE "C") and the trigram index subscriptions_id_contains
    /// on any server collation (migration 0014); a search lists ids in bytewise order.
    QString idPrefix;
    /// Ids that contain idPrefix anywhere (a pasted fragment), not only at their start.
    bool idContains = false;
    /// Only the overdue ones (migration 0030): active, not cancelling, the period ended more
    /// than the grace ago with no renewal since.
    bool overdueOnly = false;
    /// The grace for every provider (the desk's setting); nullopt: each provider's own. Also
    /// what the Next step column judges every row by.
    std::optional<int> overdueGraceHours = std::nullopt;

    bool operator==(const SubscriptionFilter &o) const
    {
        return provider == o.provider && status == o.status && openCasesOnly == o.openCasesOnly
            && idPrefix == o.idPrefix && idContains == o.idContains && overdueOnly == o.overdueOnly
            && overdueGraceHours == o.overdueGraceHours;
    }
};

/// The indexed orders the list can be browsed in; each ends in the unique
/// (provider_key, provider_subscription_id) so that a keyset is total.
enum class SubscriptionOrder {
    ProviderAndId, ///< subscriptions_provider_subscription_unique
    Status, ///< subscriptions_status_browse
    PeriodEnd, ///< subscriptions_period_end_browse (no current period: last when ascending)
};

/// A page query: SQL with `?` placeholders and the values in order.
struct PageQuery
{
    QString sql;
    QVariantList values;
};

/// The lazy subscriptions list of the desk: keyset pages of 200 on the indexed orders, filters,
/// the latest renewal and open-case count of each loaded row only.
class SubscriptionsModel : public PagedTableModel
{
    Q_OBJECT

public:
    /// Fields of a row, in order.
    enum FieldIndex {
        Id,
        Provider,
        SubscriptionId,
        Status,
        CancelAtPeriodEnd,
        PeriodStart,
        PeriodEnd,
        LastRenewalKey,
        LastRenewalAt, ///< when the latest billing period was paid
        LastAmountMinor,
        LastCurrency,
        OpenCases,
        Revision,
        Overdue, ///< judged with the filter's grace
        FieldCount
    };
    enum ColumnIndex {
        ProviderColumn,
        SubscriptionColumn,
        StatusColumn,
        CancelColumn,
        PeriodColumn,
        LastRenewalColumn,
        AmountColumn,
        OpenCasesColumn,
        NextStepColumn, ///< what to do about an overdue subscription; empty for the others
        ColumnCount
    };

    explicit SubscriptionsModel(DatabasePool *pool, QObject *parent = nullptr);

    const SubscriptionFilter &filter() const { return m_filter; }
    SubscriptionOrder order() const { return m_order; }
    Qt::SortOrder direction() const { return m_direction; }
    /// The order actually used: an id search is always listed by provider and id.
    SubscriptionOrder effectiveOrder() const;

    void setFilter(const SubscriptionFilter &filter);
    /// A new order starts at its beginning again (a position belongs to one order).
    void setOrder(SubscriptionOrder order, Qt::SortOrder direction);
    /// Starts the list at a position of the current order instead of its beginning: the first
    /// row at or after `position` in the sort direction. The position is what
    /// `parsePosition` made of what was typed; empty starts at the beginning again.
    void setStartPosition(const QString &position);
    const QString &startPosition() const { return m_position; }
    /// What a typed position means in `order`: a provider, or provider/subscription id; a
    /// status; a date (YYYY-MM-DD, local midnight) or RFC 3339 time for the period end.
    /// Returns the position in the form pageQuery takes, or nullopt and an error naming what
    /// was wrong.
    static std::optional<QString> parsePosition(
        SubscriptionOrder order, const QString &typed, QString *error);
    /// QAbstractItemModel::sort for header clicks: provider/subscription, status and period
    /// columns map to their index; other columns are not sortable (no index, no sort).
    void sort(int column, Qt::SortOrder order) override;
    static std::optional<SubscriptionOrder> orderForColumn(int column);

    /// The SQL of one page; `after` is the previous page's last row (empty: first page).
    /// `position` (see setStartPosition) only bounds the first page: later ones follow `after`.
    static PageQuery pageQuery(const SubscriptionFilter &filter, SubscriptionOrder order,
        Qt::SortOrder direction, const QVector<QVariant> &after, int limit,
        const QString &position = {});

    static const QStringList &statuses();

private:
    void reload();

    SubscriptionFilter m_filter;
    SubscriptionOrder m_order = SubscriptionOrder::ProviderAndId;
    Qt::SortOrder m_direction = Qt::AscendingOrder;
    QString m_position;
};

/// The providers present, by a loose index scan on the unique index (one probe per provider,
/// never a scan of the table). Runs on a worker thread.
QStringList loadProviders(QSqlDatabase &db);
/// The planner's row estimate of subscriptions (pg_class.reltuples): free, never a COUNT(*).
qint64 estimateSubscriptions(QSqlDatabase &db);

/// What the Subscriptions page's provider box and count label show.
struct SubscriptionChoices
{
    QStringList providers; ///< loadProviders
    qint64 estimate = 0; ///< estimateSubscriptions
};
/// Both, on one pool thread.
SubscriptionChoices loadSubscriptionChoices(QSqlDatabase &db);

} // namespace rd::ui
