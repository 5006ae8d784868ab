#pragma once

#include "ui/models/comparisonline.h"

#include <QAbstractTableModel>
#include <QVector>

namespace rd::ui {

/// A read-only table "field | local | other | note" over comparison lines, the lines that
/// differ highlighted. Shown in a TableView, so it copies and exports CSV like every table.
class ComparisonModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { FieldColumn, LocalColumn, OtherColumn, NoteColumn, ColumnCount };

    explicit ComparisonModel(QObject *parent = nullptr);

    /// Replaces everything; the titles head the local and the other column.
    void setLines(
        const QString &localTitle, const QString &otherTitle, QVector<ComparisonLine> lines);
    const QVector<ComparisonLine> &lines() const { return m_lines; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString m_localTitle;
    QString m_otherTitle;
    QVector<ComparisonLine> m_lines;
};

} // namespace rd::ui
