#include "ui/models/recordtablemodel.h"

namespace rd::ui {

RecordTableModel::RecordTableModel(
    int fieldCount, QVector<Column> columns, int keyField, QObject *parent)
    : QAbstractTableModel(parent)
    , m_fieldCount(fieldCount)
    , m_columns(std::move(columns))
    , m_keyField(keyField)
{ }

int RecordTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int RecordTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant RecordTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    return columnCell(m_columns, index.column(), row(index.row()), m_keyField, role);
}

QVariant RecordTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    const QVariant header = columnHeader(m_columns, section, orientation, role);
    return header.isValid() ? header : QAbstractTableModel::headerData(section, orientation, role);
}

int RecordTableModel::rowOfKey(const QString &key) const
{
    for (int r = 0; r < m_rows; ++r) {
        if (keyText(row(r)[m_keyField]) == key)
            return r;
    }
    return -1;
}

void RecordTableModel::setRows(QVector<QVariant> cells)
{
    const int rows = m_fieldCount > 0 ? int(cells.size() / m_fieldCount) : 0;
    // Same keys in the same order: an in-place update keeps selection and scroll.
    bool sameKeys = rows == m_rows;
    for (int r = 0; sameKeys && r < rows; ++r)
        sameKeys = cells[qsizetype(r) * m_fieldCount + m_keyField] == row(r)[m_keyField];
    if (sameKeys) {
        m_cells = std::move(cells);
        if (rows > 0)
            emit dataChanged(index(0, 0), index(rows - 1, columnCount() - 1));
        return;
    }
    beginResetModel();
    m_cells = std::move(cells);
    m_rows = rows;
    endResetModel();
}

} // namespace rd::ui
