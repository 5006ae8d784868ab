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
class FilterChips;
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
    /// period selected on the Billing periods tab. Its row is made visible and selected: when
    /// the rows listed do not hold it, the list starts at it (its provider and id, in that
    /// order); when the filters hide it, they go, and the chips' note says so.
    void openSubscription(const QString &id, const QString &billingPeriodId = {});
    QString currentSubscriptionId() const { return m_detailId; }
    /// Every overdue subscription: the Overdue filter alone (the Overview's tile).
    void showOverdue();
    QCheckBox *overdueFilter() const { return m_overdue; }
    QComboBox *graceBox() const { return m_grace; }
    /// The filters the list is narrowed by (and where it starts), as removable chips.
    FilterChips *chips() const { return m_chips; }
    /// Whether a drill-down (the Overview's Overdue, a link's row made visible) set them.
    bool isDrilledDown() const { return m_drilledDown; }
    /// A click on Subscriptions in the sidebar: the filters a drill-down set go.
    void clearDrillDown();
    /// Every filter and the start position off (the search too): the whole list.
    void clearFilters();

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
    void updateChips();
    void removeFilter(const QString &key);
    bool isFiltered() const;
    /// The next step of making the open subscription's row visible (see openSubscription).
    void continueReveal();

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
    FilterChips *m_chips;
    QTimer *m_searchDelay;
    TableView *m_table;
    SubscriptionDetailWidget *m_detail;
    QSplitter *m_splitter;
    QString m_detailId;
    LatestRequest m_detailRequest;
    qint64 m_estimate = -1;
    bool m_openFirst = false; ///< Return in the search box: open the first match when it lands
    bool m_drilledDown = false;
    /// Making the open subscription's row visible: not yet listed; the list started at it;
    /// the filters cleared as well.
    enum class Reveal { None, Pending, AtPosition, Unfiltered };
    Reveal m_reveal = Reveal::None;
    QString m_revealPosition; ///< "provider/id" of the open subscription, once its detail came
};

} // namespace rd::ui
