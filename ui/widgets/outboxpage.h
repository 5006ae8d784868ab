#pragma once

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
};

/// The webhook inbox, when the database has one (`webhook_inbox`, checked with to_regclass on
/// every load): its scalar columns, newest first by its key column, paged lazily.
class InboxPage : public QWidget
{
    Q_OBJECT

public:
    explicit InboxPage(DatabasePool *pool, QWidget *parent = nullptr);
    PagedTableModel *model() const { return m_model; }
    TableView *table() const { return m_table; }
    bool hasInbox() const { return m_hasInbox; }
    void refresh();

signals:
    void statusMessage(const QString &message);

private:
    DatabasePool *m_pool;
    PagedTableModel *m_model = nullptr;
    QLabel *m_message;
    TableView *m_table;
    bool m_hasInbox = false;
    QStringList m_columns;
};

} // namespace rd::ui
