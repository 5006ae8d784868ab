#pragma once

#include "ui/models/accesstrouble.h"
#include "ui/models/records.h"

#include <QSqlDatabase>
#include <QString>

#include <optional>

namespace rd::ui {

/// Everything the subscription detail shows, read in one worker call (one transaction, so the
/// header, periods, audits, outbox and cases agree with each other).
struct SubscriptionDetail
{
    QString id;
    QString provider;
    QString subscriptionId;
    QString status;
    bool cancelAtPeriodEnd = false;
    QVariant periodStart; ///< µs or null
    QVariant periodEnd;
    qint64 revision = 0;
    QString providerVersion;
    /// Its access verdict now (#41, rd_access_verdict): in grace, blocked, ...
    access::SubscriptionAccess access;

    enum PeriodField {
        PId,
        PRenewalKey,
        PEventId,
        PStart,
        PEnd,
        PAmount,
        PCurrency,
        PPaidAt,
        PRecordedBy,
        /// Money back of the period's renewal (#40), signed as it moves the ledger (refunds
        /// and chargebacks negative, reversals positive); null when none.
        PMoneyBackMinor,
        /// Its movements, oldest first, one line each for a tooltip: "Refund re_… · $5.00 ·
        /// 2026-02-12" (moneyBackLines, the UTC day it happened); empty when none.
        PMovements,
        PeriodFieldCount
    };
    QVector<QVariant> periods; ///< newest first, at most kMaxPeriods
    bool periodsTruncated = false;

    enum AuditField {
        AId,
        ATransition,
        AActorType,
        AActorId,
        ADbRole,
        AReason,
        AComment,
        ADetails,
        ACreatedAt,
        ARenewalKey,
        APeriodStart, ///< µs: the period the transition set (renewed, reconciled), or null
        APeriodEnd,
        AChainSeq, ///< the record's position in the subscription's hash chain
        ANextState, ///< a renewal's next state (auditdetails.h, renewalAfterStateSql) or null
        AuditFieldCount
    };
    QVector<QVariant> audits; ///< newest first, at most kMaxAudits

    enum OutboxField {
        OId,
        OEventType,
        OCreatedAt,
        OAttempts,
        ONextAttemptAt,
        OLastError,
        OPublishedAt,
        OPayload,
        OutboxFieldCount
    };
    QVector<QVariant> outbox;

    enum CaseField {
        CId,
        CErrorCode,
        CStatus,
        CRenewalKey,
        COccurrences,
        CFirstSeen,
        CLastSeen,
        CEvent,
        CResolution,
        CaseFieldCount
    };
    QVector<QVariant> cases;

    static constexpr int kMaxPeriods = 500;
    static constexpr int kMaxAudits = 500;
};

/// A period's movements as loadSubscriptionDetail reads them ("kind key amount occurred_at
/// [after_close]" per line) as the lines its tooltip shows, amounts in `currency`.
QString moneyBackLines(const QString &stored, const QString &currency);

/// Reads one subscription by its uuid; std::nullopt when it does not exist.
std::optional<SubscriptionDetail> loadSubscriptionDetail(QSqlDatabase &db, const QString &id);

} // namespace rd::ui
