#pragma once

#include "ui/models/comparisonline.h"

#include <QVariant>
#include <QVector>

namespace rd::ui {

/// An audit record's details (subscription_transition_audits.details) as a before → after
/// table in the desk's words: the subscription's state before the transition against the
/// state it left, the lines that changed marked; then what else the record says (amount paid,
/// the snapshot and case it came from) in the "after" column. Never raw JSON.
///
/// A renewal stores only the state before it (migration 0002: the row and its hash are
/// written before anything else knows the after-state, and rewriting stored rows would break
/// their chain). Its after-state is derived from what a renewal does: the period it set
/// (`periodStart`/`periodEnd`, µs or null), the revision plus one, and the provider version it
/// left, read from `nextStateJson` (renewalAfterStateSql: the chain's next record's "before",
/// or the subscription as it is now when the renewal is the newest record) when that state's
/// revision is the renewal's: nothing else changed the subscription in between. Otherwise the
/// provider version says it was not recorded rather than repeat the old one.
QVector<ComparisonLine> auditDetailLines(const QString &detailsJson,
    const QVariant &periodStart = {}, const QVariant &periodEnd = {},
    const QString &nextStateJson = {});

/// SQL text of the state that followed a renewal, for auditDetailLines' `nextStateJson`: the
/// next record's "before" in the chain of `audit` (an alias of subscription_transition_audits;
/// one probe of its (subscription_id, chain_seq) key), else the revision and provider version
/// of `subscription` (an alias of the joined subscriptions row). NULL for other transitions.
QString renewalAfterStateSql(const QString &audit, const QString &subscription);

/// A case history entry (reconciliation_case_history) in words for the audit log's detail
/// pane: the case and its subscription, what was done and by whom, the outcome, the reason
/// and note, then whatever its details hold (a claim released, the snapshot attached), all
/// in the "after" column: an action has no before-state of its own.
struct CaseEntry
{
    qint64 caseId = 0;
    QString action;
    QString outcome;
    QString actor;
    QString reason;
    QString comment;
    QString provider;
    QString subscription; ///< the provider's id, empty when the case has none
    QString renewalKey;
    QString detailsJson;
};
QVector<ComparisonLine> caseEntryLines(const CaseEntry &entry);

} // namespace rd::ui
