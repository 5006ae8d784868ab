#include "ui/widgets/inboxpage.h"

#include "ui/models/asyncresult.h"
#include "ui/models/columns.h"
#include "ui/models/databasepool.h"
#include "ui/models/pagedtablemodel.h"
#include "ui/widgets/tableview.h"

#include "domain/core/timestamp.h"

#include <QHeaderView>
#include <QLabel>
#include <QVBoxLayout>

namespace rd::ui {
namespace {

/// The columns of webhook_inbox a list shows.

InboxPage::Shape readShape(QSqlDatabase &db)
{
    InboxPage::Shape shape;
    QSqlQuery q = execSql(db, u"SELECT to_regclass('webhook_inbox') IS NOT NULL"_qs);
    shape.exists = q.next() && q.value(0).toBool();
    if (!shape.exists)
        return shape;
    // Scalar columns only: payload bodies are for the detail, not for a list.
    QSqlQuery c = execSql(db,
        u"SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
        "WHERE a.attrelid = 'webhook_inbox'::regclass AND a.attnum > 0 "
        "AND NOT a.attisdropped AND a.atttypid NOT IN ('json'::regtype, 'jsonb'::regtype, "
        "'bytea'::regtype) "
        // What a person looks for first: when, from whom, and what became of it.
        "ORDER BY array_position(ARRAY['id', 'received_at', 'provider_key', 'outcome', "
        "'reason', 'error', 'case_id', 'provider_event_id', 'deliveries', 'body_size'], "
        "a.attname::text) NULLS LAST, a.attnum LIMIT 10"_qs);
    while (c.next()) {
        shape.columns << c.value(0).toString();
        shape.types << c.value(1).toString();
    }
    return shape;
}

} // namespace

InboxPage::InboxPage(DatabasePool *pool, QWidget *parent)
    : QWidget(parent), m_pool(pool), m_message(new QLabel), m_table(new TableView)
{
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setObjectName(u"inbox-message"_qs);
    m_table->setObjectName(u"inbox"_qs);
    m_table->hide();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_message);
    layout->addWidget(m_table, 1);
    m_message->setText(tr("Looking for a webhook inbox…"));
    refresh();
}

void InboxPage::refresh()
{
    if (m_model) {
        m_model->refresh();
        return;
    }
    deliverResult(
        this, m_pool->run([](QSqlDatabase &db) { return readShape(db); }),
        [this](const InboxPage::Shape &shape) { showShape(shape); },
        [this](const QString &message) { emit statusMessage(message); },
        // Two refreshes before the catalog answered make one table.
        m_shapeRequest.next());
}

void InboxPage::showShape(const InboxPage::Shape &shape)
{
    if (!shape.exists || shape.columns.isEmpty()) {
        m_message->setText(tr("No webhook inbox in this database yet."));
        return;
    }
    m_message->hide();
    // The key column: "id" when there is one, else the first column.
    const int key = std::max<int>(0, int(shape.columns.indexOf(u"id"_qs)));
    const QString keyName = shape.columns[key];
    const QString keyType = shape.types[key];
    QVector<Field> fields(shape.columns.size(), Field::Text);
    QVector<Column> cols;
    QStringList selects;
    for (int i = 0; i < shape.columns.size(); ++i) {
        const QString &name = shape.columns[i];
        const bool isTime = shape.types[i].startsWith(u"timestamp"_qs);
        fields[i] = isTime ? Field::Micros : Field::Text;
        selects << (isTime ? u"rd_rfc3339(w.\"%1\")"_qs.arg(name) : u"w.\"%1\"::text"_qs.arg(name));
        cols << (isTime ? columns::instant(name, i) : columns::text(name, i));
    }
    m_model = new PagedTableModel(m_pool, fields, cols, key, this);
    connect(m_model, &PagedTableModel::loadFailed, this, &InboxPage::statusMessage);
    m_table->setModel(m_model);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->show();
    const QString select = selects.join(u", "_qs);
    m_model->setFetcher([=](QSqlDatabase &db, const QVector<QVariant> &after, int limit) {
        QString where;
        QVariantList values;
        if (!after.isEmpty()) {
            where = u" WHERE w.\"%1\" < CAST(? AS %2)"_qs.arg(keyName, keyType);
            values << (fields[key] == Field::Micros ? QVariant(QString::fromStdString(
                           rd::formatRfc3339(rd::Timestamp {after[key].toLongLong()})))
                                                    : after[key]);
        }
        QSqlQuery q = execSql(db,
            u"SELECT "_qs + select + u" FROM webhook_inbox w"_qs + where + u" ORDER BY w.\""_qs
                + keyName + u"\" DESC LIMIT "_qs + QString::number(limit),
            values);
        Page page;
        page.rows = readRows(q, fields, page.cells);
        return page;
    });
}
} // namespace rd::ui
