#pragma once

#include "ui/models/asyncresult.h"
#include "ui/models/subscriptionsmodel.h"
#include "ui/widgets/searchablepage.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QTimer;

namespace rd::ui {

class DatabasePool;
class SubscriptionDetailWidget;
class TableView;

/// The subscriptions list with its filter bar, and the selected subscription's detail.
class SubscriptionsPage : public QWidget, public SearchablePage
{
    Q_OBJECT

public:
    explicit SubscriptionsPage(DatabasePool *pool, QWidget *parent = nullptr);

    SubscriptionsModel *model() const { return m_model; }
    TableView *table() const { return m_table; }
    SubscriptionDetailWidget *detail() const { return m_detail; }
    QSplitter *splitter() const { return m_splitter; }

    void focusFilter();
    void focusSearch() override { focusFilter(); }
    QLineEdit *searchBox() const { return m_search; }
    /// What a typed search becomes: ids containing it (three characters or more, what the
    /// trigram index finds), else ids starting with it.
    static SubscriptionFilter withSearch(SubscriptionFilter filter, const QString &typed);
    /// Ctrl+G: the "go to" box, a position in the current sort order.
    void focusPosition();
    /// Re-reads the loaded rows and the open detail in place (F5, a live notification).
    void refresh();
    /// A notification about one subscription: re-read the detail when it is the open one.
    void subscriptionChanged(const QString &id);
    /// Opens the detail of a subscription by its uuid; with `billingPeriodId`, that billing
    /// period selected on the Billing periods tab.
    void openSubscription(const QString &id, const QString &billingPeriodId = {});
    QString currentSubscriptionId() const { return m_detailId; }
    /// Every overdue subscription: the Overdue filter alone (the Overview's tile).
    void showOverdue();
    QCheckBox *overdueFilter() const { return m_overdue; }
    QComboBox *graceBox() const { return m_grace; }

signals:
    void caseOpenRequested(qint64 caseId);
    void statusMessage(const QString &message);

private:
    void applyFilter();
    void goToPosition();
    void updatePositionHint();
    void loadProviders();
    void loadDetail(const QString &id);
    void selectOpenRow();
    void updateCountLabel();

    DatabasePool *m_pool;
    SubscriptionsModel *m_model;
    QComboBox *m_provider;
    QComboBox *m_status;
    QCheckBox *m_openCases;
    QCheckBox *m_overdue;
    QComboBox *m_grace;
    QLineEdit *m_search;
    QLineEdit *m_position;
    QLabel *m_count;
    QTimer *m_searchDelay;
    TableView *m_table;
    SubscriptionDetailWidget *m_detail;
    QSplitter *m_splitter;
    QString m_detailId;
    LatestRequest m_detailRequest;
    qint64 m_estimate = -1;
    bool m_openFirst = false; ///< Return in the search box: open the first match when it lands
};

} // namespace rd::ui
