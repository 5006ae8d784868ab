#pragma once

#include "ui/models/subscriptiondetail.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTabWidget;

namespace rd::ui {

class RecordTableModel;
class TableView;
class TimelineWidget;

/// One subscription: a header (status, current period, cancellation flag, revision), the
/// timeline, and tabs for billing periods, audit trail (details expand below the table),
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
    TableView *m_auditView;
    QPlainTextEdit *m_auditDetails;
};

} // namespace rd::ui
