#pragma once

#include "ui/models/pagedtablemodel.h"
#include "ui/models/records.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QString>
#include <QVector>

namespace rd::ui {

/// The audit log: subscription_transition_audits and reconciliation_case_history as one list,
/// newest first. Both tables are read in the order (created_at DESC, source DESC, id DESC):
/// each branch is an ordered, limited range scan of its own time index (migration 0017), the
/// two are merged (UNION ALL, ordered, limited), and the next page starts after the last row
/// shown (keyset: its time, source and id). Nothing counts or reads a table whole.
namespace auditlog {

enum FieldIndex {
    Key, ///< "a123" (audit 123) or "c45" (case history entry 45): unique across both
    Source, ///< 1 audit, 0 case history, 2 a removal of delivery bodies (0037)
    Id,
    At,
    What, ///< a transition or a case action
    ActorType, ///< webhook, operator, import, system; "case" entries: empty
    Actor,
    DbRole,
    Provider,
    SubscriptionRef, ///< the provider's subscription id
    SubscriptionId, ///< uuid text, empty when none
    CaseId,
    Outcome,
    RenewalKey,
    Reason,
    Comment,
    Details, ///< jsonb text
    PeriodStart,
    PeriodEnd,
    ChainSeq,
    RowHash,
    /// A renewal's next state (auditdetails.h, renewalAfterStateSql): jsonb text or null.
    NextState,
    FieldCount
};

/// What the list is filtered by; an empty value does not filter.
struct Filter
{
    QDateTime from; ///< created at or after (UTC)
    QDateTime to; ///< created before
    /// A transition (subscription_imported, ...) or a case action (opened, reapply, ...).
    QString what;
    /// An actor that is a person or a program (not a provider's webhook: the provider filter
    /// is for those): an operator's login, an import's name.
    QString actor;
    QString dbRole;
    QString provider;
    /// A subscription: its uuid or its provider's id (sub_…).
    QString subscription;
    qint64 caseId = 0;
};

const QVector<Field> &fields();
QVector<Column> columns();
/// One page of the list after `after` (a previous row; empty: from the newest). Runs on a pool
/// thread. Throws rd::DatabaseFailure.
Page fetchPage(QSqlDatabase &db, const Filter &filter, const QVector<QVariant> &after, int limit);
/// The pages of the list narrowed to `filter` (fetchPage), for the page's PagedTableModel.
PagedTableModel::Fetcher fetcher(const Filter &filter);

/// The providers the subscriptions have (a loose index scan: one probe per provider), as SQL
/// selecting `provider_key`.
QString providersSql();
/// Those providers, sorted (a pool thread; rd::DatabaseFailure).
QStringList loadProviders(QSqlDatabase &db);

/// The transitions and case actions the "what" filter offers, in the order shown.
QStringList transitions();
QStringList caseActions();

} // namespace auditlog
} // namespace rd::ui
