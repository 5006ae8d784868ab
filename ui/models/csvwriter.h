#pragma once

#include "domain/core/csv.h"

#include <QSaveFile>
#include <QString>
#include <QStringList>
#include <QVector>

namespace rd::ui {

/// The desk's one CSV writer: a header line, then rows of machine values, each field written by
/// the core's rule (domain/core/csv.h, which renewalctl's exports use too): a text field that a
/// spreadsheet would run as a formula gets a leading apostrophe, then RFC 4180 quoting. The
/// file appears whole on `commit()` or not at all (a QSaveFile). Throws std::runtime_error with
/// the file's error when it cannot be opened or written.
class CsvWriter
{
public:
    explicit CsvWriter(const QString &path);
    CsvWriter(const CsvWriter &) = delete;
    CsvWriter &operator=(const CsvWriter &) = delete;

    /// Writes the titles (text) and keeps `kinds` for the rows that follow: a column is text
    /// unless its kind says it is a number the program produced.
    void writeHeader(const QStringList &titles, const QVector<csv::Kind> &kinds = {});
    void writeRow(const QStringList &fields);
    /// Rows written so far, the header included.
    qint64 lines() const { return m_lines; }
    void commit();

    /// A CSV field by the core's rule: neutralized unless a plain number of a Number column,
    /// then quoted when it holds a comma, a quote or a line break.
    static QString field(const QString &value, csv::Kind kind = csv::Kind::Text);

private:
    void write(const QStringList &fields, const std::vector<csv::Kind> &kinds);

    QSaveFile m_file;
    std::vector<csv::Kind> m_kinds;
    qint64 m_lines = 0;
};

} // namespace rd::ui
