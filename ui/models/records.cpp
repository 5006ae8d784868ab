#include "ui/models/records.h"

#include "ui/models/format.h"

#include <QHash>
#include <QMutex>
#include <QUuid>

namespace rd::ui {
namespace {

QString intern(const QString &s)
{
    static QMutex mutex;
    static QHash<QString, QString> pool;
    QMutexLocker lock(&mutex);
    auto it = pool.constFind(s);
    if (it == pool.constEnd())
        it = pool.insert(s, s);
    return it.value();
}

} // namespace

QString keyText(const QVariant &key)
{
    if (key.metaType() == QMetaType::fromType<QUuid>())
        return key.value<QUuid>().toString(QUuid::WithoutBraces);
    return key.toString();
}

QVariant columnCell(const QVector<Column> &columns, int column, RowRef row, int keyField, int role)
{
    switch (role) {
    case int(Role::Key):
        return keyText(row[keyField]);
    case int(Role::Placeholder):
        return false;
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(columns[column].alignment);
    default:
        return columns[column].data(row, role);
    }
}

QVariant columnHeader(
    const QVector<Column> &columns, int section, Qt::Orientation orientation, int role)
{
    if (orientation == Qt::Horizontal && section >= 0 && section < columns.size()) {
        if (role == Qt::DisplayRole)
            return columns[section].title;
        if (role == Qt::TextAlignmentRole)
            return QVariant::fromValue(columns[section].alignment);
    }
    return {};
}

int readRows(QSqlQuery &query, const QVector<Field> &fields, QVector<QVariant> &cells)
{
    int rows = 0;
    while (query.next()) {
        for (int f = 0; f < fields.size(); ++f) {
            const QVariant v = query.value(f);
            if (v.isNull()) {
                cells.append(QVariant());
                continue;
            }
            switch (fields[f]) {
            case Field::Text:
                cells.append(v.toString());
                break;
            case Field::Interned:
                cells.append(intern(v.toString()));
                break;
            case Field::Micros: {
                const auto m = format::micros(v.toString());
                cells.append(m ? QVariant::fromValue<qint64>(*m) : QVariant());
                break;
            }
            case Field::Int:
                cells.append(v.toLongLong());
                break;
            case Field::Bool:
                cells.append(v.toBool());
                break;
            case Field::Uuid:
                cells.append(QVariant::fromValue(QUuid::fromString(v.toString())));
                break;
            }
        }
        ++rows;
    }
    return rows;
}

} // namespace rd::ui
