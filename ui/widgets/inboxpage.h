#pragma once

#include "ui/actions/inboxactions.h"
#include "ui/models/asyncresult.h"
#include "ui/models/inboxlist.h"
#include "ui/widgets/searchablepage.h"

#include <QVariantList>
#include <QWidget>

class QComboBox;
class QLineEdit;
class QLabel;
class QStackedWidget;
class QTimer;

namespace rd::ui {

class DatabasePool;
class DeliveryView;
class FilterChips;
class NewRowsBar;
class PagedTableModel;
class TableView;

/// The webhook inbox (webhook_inbox): every delivery, newest first, paged lazily by
/// (received_at, id), filtered by provider, outcome and when it was received. Enter (or a
/// double click) opens a delivery in the page: its raw body, the normalized event, the outcome
/// and error in full, and links to its case and its subscription's billing period.
///
/// It follows the inbox while it is shown: deliveries are written without a NOTIFY (as
/// renewals are), so the page polls the inbox's state every two seconds on the pool (the
/// newest id through the primary key, and the table's write counters) and reloads in place
/// when it changed; an opened delivery is read again too.
class InboxPage : public QWidget, public SearchablePage
{
    Q_OBJECT

public:
    /// A row's fields (inboxlist.h): InboxPage::Id, InboxPage::Outcome, ...
    using Field = inbox::FieldIndex;
    using enum inbox::FieldIndex;

    explicit InboxPage(DatabasePool *pool, QWidget *parent = nullptr);
    PagedTableModel *model() const { return m_model; }
    TableView *table() const { return m_table; }
    DeliveryView *deliveryView() const { return m_delivery; }
    /// Whether a delivery is open (the list is then hidden).
    bool isDeliveryOpen() const;
    void refresh();
    /// Opens delivery `id` in the page.
    void openDelivery(qint64 id);
    /// Back to the list, its selection as it was.
    void closeDelivery();
    /// The filter combo boxes' values ("" = any): a provider key; an outcome, "problems" or
    /// "unprocessed"; "1 hour", "1 day", "7 days", "30 days".
    void setFilters(const QString &provider, const QString &outcome, const QString &received);
    /// The Overview's drill-down (a chart's outcome, "1 invalid to review"): every provider's
    /// deliveries of `outcome` received in `received`, no search; marked as a drill-down's.
    void showDrillDown(const QString &outcome, const QString &received);
    /// The filters the list is narrowed by, as removable chips above it.
    FilterChips *chips() const { return m_chips; }
    /// Whether a drill-down set the filters shown.
    bool isDrilledDown() const { return m_drilledDown; }
    /// A click on Inbox in the sidebar: the filters a drill-down set go (every delivery); the
    /// ones a person chose stay.
    void clearDrillDown();
    /// Ctrl+F: the search box takes a provider event id or a delivery number, whole (what a
    /// provider's dashboard or a log line shows); Return opens the first match.
    void focusSearch() override;
    /// "N new — show" over the list: deliveries that arrived above the rows in view.
    NewRowsBar *newRowsBar() const { return m_newRows; }
    /// The open delivery's actions (migration 0034): whether this connection may act (an
    /// operator on the primary) and why not.
    void setActionsAllowed(bool allowed, const QString &whyNot = {});
    /// Marks invalid delivery `id` reviewed with `note` (what "Mark reviewed…" does once its
    /// dialog is accepted); the outcome arrives as actionFinished.
    void markReviewed(qint64 id, const QString &note);
    /// Re-runs invalid delivery `id` through the ingest path (renewalctl replay --delivery).
    void rerun(qint64 id);
    QLineEdit *searchBox() const { return m_search; }
    /// How often the shown page looks for changes, in milliseconds.
    static constexpr int kPollInterval = 2000;

signals:
    void statusMessage(const QString &message);
    /// A review or a re-run ended: `ok` false when it was refused or failed; `message` says
    /// what happened.
    void actionFinished(bool ok, const QString &message);
    void caseOpenRequested(qint64 caseId);
    void subscriptionOpenRequested(const QString &subscriptionUuid);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void reload();
    void updateChips();
    void removeFilter(const QString &key);
    void loadProviders();
    void loadDelivery(qint64 id);
    /// Reads the inbox's state; reloads the list (and the open delivery) when it changed.
    void poll();
    /// Reports a review's or a re-run's outcome and shows the inbox as it now is.
    void finishAction(QFuture<InboxActionResult> action);

    DatabasePool *m_pool;
    PagedTableModel *m_model;
    QStackedWidget *m_stack;
    QComboBox *m_provider;
    QComboBox *m_outcome;
    QComboBox *m_received;
    QLineEdit *m_search;
    QLabel *m_hint;
    FilterChips *m_chips;
    bool m_openFirst = false;
    bool m_drilledDown = false;
    TableView *m_table;
    NewRowsBar *m_newRows;
    DeliveryView *m_delivery;
    QTimer *m_poll;
    /// The key of the row selected before a reload, selected again when the rows moved.
    QString m_keepKey;
    QVariantList m_shownState;
    LatestRequest m_pollRequest;
    LatestRequest m_deliveryRequest;
    LatestRequest m_providerRequest;
};

} // namespace rd::ui
