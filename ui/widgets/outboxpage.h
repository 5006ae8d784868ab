#pragma once

#include "ui/models/asyncresult.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace rd::ui {

class DatabasePool;
class PagedTableModel;
class TableView;

/// The transactional outbox (subscription_outbox): undelivered intents first (pending or
/// failed, with attempts and the last error), or everything, paged lazily.
class OutboxPage : public QWidget
{
    Q_OBJECT

public:
    enum Field {
        Id,
        Provider,
        SubscriptionRef,
        EventType,
        CreatedAt,
        Attempts,
        NextAttemptAt,
        LastError,
        PublishedAt,
        RenewalKey,
        FieldCount
    };

    explicit OutboxPage(DatabasePool *pool, QWidget *parent = nullptr);
    PagedTableModel *model() const { return m_model; }
    TableView *table() const { return m_table; }
    void refresh();

signals:
    void statusMessage(const QString &message);

private:
    void reload();

    DatabasePool *m_pool;
    PagedTableModel *m_model;
    QComboBox *m_state;
    QLabel *m_summary;
    TableView *m_table;
    LatestRequest m_summaryRequest;
};

} // namespace rd::ui
