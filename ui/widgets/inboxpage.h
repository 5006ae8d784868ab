#pragma once

#include "ui/models/asyncresult.h"

#include <QStringList>
#include <QWidget>

class QLabel;
class QSqlDatabase;

namespace rd::ui {

class DatabasePool;
class PagedTableModel;
class TableView;

/// The webhook inbox, when the database has one (`webhook_inbox`, checked with to_regclass on
/// every load): its scalar columns, newest first by its key column, paged lazily.
class InboxPage : public QWidget
{
    Q_OBJECT

public:
    /// The inbox table as the catalog describes it.
    struct Shape
    {
        bool exists = false;
        QStringList columns;
        QStringList types;
    };

    explicit InboxPage(DatabasePool *pool, QWidget *parent = nullptr);
    PagedTableModel *model() const { return m_model; }
    TableView *table() const { return m_table; }
    void refresh();

signals:
    void statusMessage(const QString &message);

private:
    void showShape(const Shape &shape);

    DatabasePool *m_pool;
    PagedTableModel *m_model = nullptr;
    QLabel *m_message;
    TableView *m_table;
    LatestRequest m_shapeRequest;
};

} // namespace rd::ui
