#pragma once

#include "ui/models/subscriptiondetail.h"

#include <QWidget>

class QLabel;
class QTabWidget;

namespace rd::ui {

class ComparisonModel;
class RecordTableModel;
class TableView;
class TimelineWidget;

/// One subscription: a header (status, current period, cancellation flag, revision), the
/// timeline, and tabs for billing periods, audit trail (the selected record's details before →
/// after beside the list),
/// outbox intents and cases.
class SubscriptionDetailWidget : public QWidget
{
    Q_OBJECT

public:
    explicit SubscriptionDetailWidget(QWidget *parent = nullptr);

    void setDetail(const SubscriptionDetail &detail);
    void clear(const QString &message);
    const TimelineWidget *timeline() const { return m_timeline; }
    /// 0 billing periods, 1 audit trail, 2 outbox, 3 cases.
    void showTab(int index);
    /// The audit trail, and the selected record's details (before → after) beside it.
    TableView *auditView() const { return m_auditView; }
    TableView *auditDetailsView() const { return m_auditDetails; }
    ComparisonModel *auditDetailsModel() const { return m_auditDetailsModel; }
    /// The details as shown, a line a field: "status: active → canceled".
    QString auditDetailsText() const;
    /// Shows the billing periods tab with period `billingPeriodId` (a uuid) selected: at once
    /// when the detail shown has it, else when the next detail set has it (Find anything
    /// opens a subscription by one of its renewals).
    void selectBillingPeriod(const QString &billingPeriodId);
    /// The selected billing period's uuid; empty when none is.
    QString selectedBillingPeriod() const;
    TableView *billingPeriodsView() const { return m_periodsView; }
    /// Shows the audit trail with the record at `chainSeq` of subscription `subscriptionId`
    /// selected and flagged as `problem` says (a broken chain found by Verify): at once when
    /// that subscription is shown, else when it is. Another subscription clears the flag.
    void flagAuditRecord(const QString &subscriptionId, qint64 chainSeq, const QString &problem);
    /// The flag's line above the audit trail; hidden when nothing is flagged.
    QLabel *auditFlag() const { return m_auditFlag; }

signals:
    void caseOpenRequested(qint64 caseId);

private:
    QLabel *m_header;
    TimelineWidget *m_timeline;
    QTabWidget *m_tabs;
    RecordTableModel *m_periods;
    RecordTableModel *m_audits;
    RecordTableModel *m_outbox;
    RecordTableModel *m_cases;
    void showAuditDetails(int row);
    void applyAuditFlag();

    TableView *m_periodsView;
    QString m_pendingPeriod;
    QString m_shownSubscription;
    TableView *m_auditView;
    TableView *m_auditDetails;
    ComparisonModel *m_auditDetailsModel;
    QLabel *m_auditFlag;
    struct AuditFlag
    {
        QString subscription;
        qint64 seq = 0;
        QString problem;
    } m_flag;
};

} // namespace rd::ui
