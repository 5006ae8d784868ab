#pragma once

#include "ui/models/records.h"

#include <QAbstractTableModel>

namespace rd::ui {

/// A read-only table over rows already loaded by a worker (a subscription's billing periods,
/// audit trail, outbox intents, cases; the open-case queue). Replacing the rows keeps rows with
/// the same key in place (dataChanged), so a refresh does not lose the selection.
class RecordTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    RecordTableModel(
        int fieldCount, QVector<Column> columns, int keyField, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setRows(QVector<QVariant> cells);
    RowRef row(int r) const { return m_cells.constData() + qsizetype(r) * m_fieldCount; }
    int rowOfKey(const QString &key) const;

private:
    int m_fieldCount;
    QVector<Column> m_columns;
    int m_keyField;
    QVector<QVariant> m_cells;
    int m_rows = 0;
};

} // namespace rd::ui
