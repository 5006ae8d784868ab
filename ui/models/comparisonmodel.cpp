#include "ui/models/comparisonmodel.h"

#include <QBrush>
#include <QFont>

namespace rd::ui {

ComparisonModel::ComparisonModel(QObject *parent) : QAbstractTableModel(parent)
{ }

void ComparisonModel::setLines(
    const QString &localTitle, const QString &otherTitle, QVector<ComparisonLine> lines)
{
    beginResetModel();
    m_localTitle = localTitle;
    m_otherTitle = otherTitle;
    m_lines = std::move(lines);
    endResetModel();
    emit headerDataChanged(Qt::Horizontal, LocalColumn, OtherColumn);
}

int ComparisonModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

int ComparisonModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComparisonModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ComparisonLine &line = m_lines.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case FieldColumn:
            return line.field;
        case LocalColumn:
            return line.local;
        case OtherColumn:
            return line.other;
        case NoteColumn:
            return line.differs && !line.note.isEmpty() ? u"◀ "_qs + line.note : QString();
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == LocalColumn && !line.localTooltip.isEmpty())
            return line.localTooltip;
        if (index.column() == OtherColumn && !line.otherTooltip.isEmpty())
            return line.otherTooltip;
        return {};
    // The one thing to act on must be visible at a glance: the differing lines stand out.
    case Qt::BackgroundRole:
        return line.differs ? QBrush(QColor(0xff, 0xe0, 0xb2)) : QVariant();
    case Qt::ForegroundRole:
        return line.differs ? QBrush(QColor(0x60, 0x30, 0x00)) : QVariant();
    case Qt::FontRole:
        if (line.differs) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    default:
        return {};
    }
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case FieldColumn:
        return tr("Field");
    case LocalColumn:
        return m_localTitle;
    case OtherColumn:
        return m_otherTitle;
    case NoteColumn:
        return tr("Note");
    }
    return {};
}

} // namespace rd::ui
