#pragma once

#include "domain/core/csv.h"

#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVector>

#include <functional>

namespace rd::ui {

/// Roles shared by the desk's models.
enum class Role {
    /// The row's stable key (subscription uuid, case id, outbox id) as a QString.
    Key = Qt::UserRole + 1,
    /// The raw value of the cell, for sorting and tests (micros, minor units, ...).
    Raw,
    /// True on the "Loading…" placeholder row of a lazy model.
    Placeholder,
    /// The cell's machine form for CSV, a QStringList (one value per CSV column it spans); in
    /// headerData, that column's CSV titles.
    Export,
    /// In headerData: the column's CSV kinds, a QVector<csv::Kind> as long as its titles.
    ExportKinds,
};

/// How a selected field is stored in a row. Rows are flat arrays of QVariant (no per-row list
/// allocation); timestamps are kept as µs since the epoch rather than as text or QDateTime.
enum class Field {
    Text,
    /// Low-cardinality text (provider, status, currency): one shared QString per distinct value.
    Interned,
    /// rd_rfc3339() text in, qint64 µs out (null stays null).
    Micros,
    Int,
    Bool,
    /// A uuid, kept as QUuid (16 bytes inside the QVariant instead of a 36-character string).
    Uuid,
};

/// A row of a model: `fieldCount` consecutive values.
using RowRef = const QVariant *;

/// A displayed column: its header and how to render a row for a role, and its export form:
/// the CSV columns it becomes (machine values: ISO 8601 UTC instants, plain decimals with their
/// currency code, unabridged ids) where the screen shows a formatted one.
struct Column
{
    QString title;
    std::function<QVariant(RowRef row, int role)> data;
    Qt::Alignment alignment = Qt::AlignLeft | Qt::AlignVCenter;
    /// The CSV titles; empty: the one title.
    QStringList exportTitles = {};
    /// As many values as exportTitles (or one); null: the raw value (Role::Raw) as text, else
    /// the displayed text.
    std::function<QStringList(RowRef row)> exportValues = {};
    /// The kind of each CSV column (csv.h): Number only for amounts and counts the program
    /// computes, so that a spreadsheet keeps them numbers; missing ones are Text, which is
    /// neutralized when it starts like a formula. Instants need nothing: ISO 8601 starts with
    /// a digit.
    QVector<csv::Kind> exportKinds = {};
    /// False: on screen only; another column exports what it shows (where a reader by position
    /// expects it).
    bool exported = true;
};

/// The CSV header of `columns`: each column's export titles in turn.
QStringList exportHeader(const QVector<Column> &columns);
/// The CSV kinds of `columns`, one per title of exportHeader.
QVector<csv::Kind> exportHeaderKinds(const QVector<Column> &columns);
/// One column's CSV kinds, one per title (Text where the column declares none).
QVector<csv::Kind> exportKinds(const Column &column);
/// The CSV fields of one row: each column's export values in turn.
QStringList exportRow(const QVector<Column> &columns, RowRef row);
/// One column's CSV titles and values.
QStringList exportTitles(const Column &column);
QStringList exportValues(const Column &column, RowRef row);

/// A key as text (a QUuid without braces, anything else as QVariant::toString).
QString keyText(const QVariant &key);

/// What every flat table model answers alike for a cell of `row`: the key (Role::Key), no
/// placeholder, the column's alignment, and the column's own rendering for other roles.
QVariant columnCell(const QVector<Column> &columns, int column, RowRef row, int keyField, int role);
/// The horizontal header of `columns`; an invalid QVariant for anything it does not answer.
QVariant columnHeader(
    const QVector<Column> &columns, int section, Qt::Orientation orientation, int role);

/// Appends every row of `query` to `cells`, converted per `fields`. Returns the row count.
int readRows(QSqlQuery &query, const QVector<Field> &fields, QVector<QVariant> &cells);

} // namespace rd::ui
