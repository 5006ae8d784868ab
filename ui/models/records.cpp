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
    case int(Role::Export):
        return exportValues(columns[column], row);
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
        if (role == int(Role::Export))
            return exportTitles(columns[section]);
        if (role == int(Role::ExportKinds))
            return QVariant::fromValue(exportKinds(columns[section]));
    }
    return {};
}

QStringList exportTitles(const Column &column)
{
    if (!column.exported)
        return {};
    return column.exportTitles.isEmpty() ? QStringList {column.title} : column.exportTitles;
}

QStringList exportValues(const Column &column, RowRef row)
{
    if (!column.exported)
        return {};
    if (column.exportValues)
        return column.exportValues(row);
    const QVariant raw = column.data(row, int(Role::Raw));
    if (raw.isValid()) {
        if (raw.metaType() == QMetaType::fromType<bool>())
            return {raw.toBool() ? u"true"_qs : u"false"_qs};
        return {keyText(raw)};
    }
    return {column.data(row, Qt::DisplayRole).toString()};
}

QStringList exportHeader(const QVector<Column> &columns)
{
    QStringList header;
    for (const Column &column : columns)
        header << exportTitles(column);
    return header;
}

QVector<csv::Kind> exportKinds(const Column &column)
{
    QVector<csv::Kind> kinds = column.exportKinds;
    kinds.resize(exportTitles(column).size(), csv::Kind::Text);
    return kinds;
}

QVector<csv::Kind> exportHeaderKinds(const QVector<Column> &columns)
{
    QVector<csv::Kind> kinds;
    for (const Column &column : columns)
        kinds << exportKinds(column);
    return kinds;
}

QStringList exportRow(const QVector<Column> &columns, RowRef row)
{
    QStringList fields;
    for (const Column &column : columns)
        fields << exportValues(column, row);
    return fields;
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
