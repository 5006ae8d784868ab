#pragma once

#include "ui/models/asyncresult.h"
#include "ui/models/outboxlist.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QTimer;

namespace rd::ui {

class DatabasePool;
class PagedTableModel;
class TableView;

/// The transactional outbox (subscription_outbox): undelivered intents first (pending or
/// failed, with attempts and the last error), or everything, paged lazily.
///
/// It follows the outbox while it is shown: renewals write their intents without a NOTIFY
/// (one would cost the renewal path a quarter of its throughput), so the page polls the
/// outbox's state every two seconds on the pool (counts from the partial index of undelivered
/// intents, and the newest intent through the primary key) and reloads when it changed.
class OutboxPage : public QWidget
{
    Q_OBJECT

public:
    /// A row's fields (outboxlist.h): OutboxPage::Id, OutboxPage::PublishedAt, ...
    using Field = outbox::FieldIndex;
    using enum outbox::FieldIndex;

    explicit OutboxPage(DatabasePool *pool, QWidget *parent = nullptr);
    PagedTableModel *model() const { return m_model; }
    TableView *table() const { return m_table; }
    void refresh();
    /// Which intents the list shows: "undelivered" (pending and failed), "failed", "all".
    void setFilter(const QString &state);
    /// How often the shown page looks for changes, in milliseconds.
    static constexpr int kPollInterval = 2000;

signals:
    void statusMessage(const QString &message);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void reload();
    /// Reads the outbox's state; reloads the page when it differs from what is shown.
    void poll();
    void showState(const QVariantList &state);

    DatabasePool *m_pool;
    PagedTableModel *m_model;
    QComboBox *m_state;
    QLabel *m_summary;
    TableView *m_table;
    QTimer *m_poll;
    /// What the summary was computed from: undelivered and failed counts, newest intent.
    QVariantList m_shownState;
    LatestRequest m_summaryRequest;
};

} // namespace rd::ui
