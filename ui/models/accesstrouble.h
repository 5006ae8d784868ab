#pragma once

// The desk's side of payment trouble (#41, migration 0053): the subscriptions in grace or
// blocked as access_trouble() works them out, the ones that recovered this month, the counts the
// Overview shows, a subscription's verdict for its header, and the audit trail's payment-trouble
// records in words.

#include "ui/models/records.h"

#include <QDateTime>
#include <QString>
#include <QStringList>
#include <QVector>

class QSqlDatabase;

namespace rd::ui::access {

/// A row's fields, in order.
enum FieldIndex {
    SubscriptionUuid, ///< subscriptions.id (text): what the desk opens
    Provider,
    SubscriptionRef, ///< the provider's subscription id
    Verdict, ///< "in_grace", "blocked", or "good_standing" for a recovered one
    PreviousVerdict, ///< a recovered one's verdict before; empty otherwise
    Since, ///< µs: when the verdict began (a recovered one: when it recovered)
    Until, ///< µs or null: when the grace ends
    SecondsLeft, ///< until − the database's clock, in seconds; null without an end
    Source, ///< "provider", "policy", "operator"
    Reason,
    Attempts, ///< failed attempts of the trouble
    LastFailedAt, ///< µs or null
    DeclineCode,
    FieldCount
};

/// How each field is stored, in FieldIndex order.
const QVector<Field> &fields();

/// Which subscriptions the list shows.
enum class Show {
    Trouble, ///< in grace and blocked
    InGrace,
    Blocked,
    Recovered, ///< last recorded change: from in grace or blocked to good standing, this UTC month
};

/// The list as read: its rows (FieldIndex), the providers to filter by, the database's clock.
struct TroubleList
{
    QVector<QVariant> cells;
    int rows = 0;
    QStringList providers; ///< every registered provider key, sorted
    QDateTime readAt;
    bool truncated = false; ///< more than kMaxRows in trouble: the first kMaxRows by id
};

/// What access_trouble() is asked for at most: the desk lists that many.
inline constexpr int kMaxRows = 5000;

/// Reads the list on a pool thread: access_trouble(now(), provider, kMaxRows) for the
/// subscriptions in trouble, access_verdicts with their last transition for the recovered ones.
/// `provider` empty: every provider; `search` non-empty: only subscription ids (the provider's,
/// or the desk's uuid) that contain it. Throws rd::DatabaseFailure.
TroubleList loadTrouble(
    QSqlDatabase &db, Show show, const QString &provider, const QString &search = {});

/// In grace and blocked now (access_trouble over every provider).
struct TroubleCounts
{
    qint64 inGrace = 0;
    qint64 blocked = 0;
};
TroubleCounts loadTroubleCounts(QSqlDatabase &db);

/// A subscription's verdict now (rd_access_verdict), for its header.
struct SubscriptionAccess
{
    QString verdict; ///< empty when not known
    QDateTime since;
    QDateTime until;
    QString source;
    QString reason;
};

/// The database's reason with its RFC 3339 instants in the desk's local form ("the period ended
/// 18 Oct 2026 11:00 without its renewal").
QString reasonText(const QString &reason);
/// A verdict as a finance person reads it: "in grace", "blocked", "recovered", "good standing",
/// "ended".
QString verdictText(const QString &verdict);
/// Who decided it: "the provider", "the local policy", "an operator".
QString sourceText(const QString &source);
/// Time left until a grace ends: "3 days 4 h left", "5 h left", "ended" once past.
QString timeLeftText(qint64 secondsLeft);
/// The header's line: "Access: in grace until 8 Jan 2027 (provider)"; empty in good standing.
QString accessLine(const SubscriptionAccess &access);

/// An audit record of payment trouble in words, from its transition, its details (JSON) and
/// its reason and comment: "Payment failed: attempt 2 of in_123 (card_declined), next attempt
/// 4 Jan 2027", "Provider's standing: past due", "Grace extended until 8 Jan 2027: <note>",
/// "Access: in grace until 8 Jan 2027 (provider)". Empty for any other transition.
QString auditSummary(const QString &transition, const QString &detailsJson, const QString &reason,
    const QString &comment);

} // namespace rd::ui::access
