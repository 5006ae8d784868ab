#pragma once

#include "ui/models/caserow.h"

#include <QDate>
#include <QPair>
#include <QSqlDatabase>
#include <QString>
#include <QVariant>
#include <QVector>

namespace rd::ui {

/// Which cases the queue lists.
enum class CaseScope { Open, HealedAutomatically, Resolved, Dismissed, All };
/// The queue's order: by when a case was last seen, or by its age (when it was opened).
enum class CaseSort { LastSeenNewest, LastSeenOldest, OldestFirst, NewestFirst };
/// Whose cases the queue lists: everyone's, the session's login role's, or nobody's.
enum class CaseAssignee { All, Mine, Unassigned };

/// What the queue lists: the Cases page's filters as one value.
struct CaseQueueFilter
{
    CaseScope scope = CaseScope::Open;
    CaseSort sort = CaseSort::LastSeenNewest;
    QString search; ///< the subscription id contains it (trimmed by the caller)
    CaseAssignee assignee = CaseAssignee::All;
    QString reason; ///< an error code; empty: any
    qint64 minAge = -1; ///< opened at least this many seconds ago; -1: unbounded
    qint64 maxAge = -1; ///< opened less than this many seconds ago; -1: unbounded
    QDate day; ///< a UTC day; invalid: any
    bool dayClosed = false; ///< the day the case closed, not the day it opened
    bool operator==(const CaseQueueFilter &) const = default;
};

/// The queue as one worker call reads it: the listed cases and what the page shows about the
/// session.
struct CaseQueue
{
    QVector<QVariant> cells; ///< CaseRow::FieldCount values a case, in the filter's order
    int openCount = 0; ///< every open case, whatever the filter
    bool canOperate = false; ///< renewal_operator (or UPDATE on cases), and not on a replica
    bool onReplica = false;
    QString sessionUser;
    QVector<QPair<QString, qint64>> reasons; ///< the open cases' reasons, with their counts
};

/// The queue lists at most this many cases (the first ones in its order).
constexpr int kCaseQueueLimit = 1000;

/// The cases `filter` lists, and the session's facts. Read-only; throws rd::DatabaseFailure.
CaseQueue loadCaseQueue(QSqlDatabase &db, const CaseQueueFilter &filter);

/// "1 case", "3 cases".
QString caseCountText(qsizetype n);
/// "1 h", "1 day", "3 days", "1 week": an age bound or threshold as people say it.
QString ageBoundText(qint64 secs);

} // namespace rd::ui
