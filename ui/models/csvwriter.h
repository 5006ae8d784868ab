#pragma once

#include <QSaveFile>
#include <QString>
#include <QStringList>
#include <QTextStream>

namespace rd::ui {

/// The desk's one CSV writer (RFC 4180): a header line, then rows of display text. The file
/// appears whole on `commit()` or not at all (a QSaveFile). Throws std::runtime_error with
/// the file's error when it cannot be opened or written.
class CsvWriter
{
public:
    explicit CsvWriter(const QString &path);
    CsvWriter(const CsvWriter &) = delete;
    CsvWriter &operator=(const CsvWriter &) = delete;

    void writeRow(const QStringList &fields);
    /// Rows written so far, the header included.
    qint64 lines() const { return m_lines; }
    void commit();

    /// A CSV field: quoted when it holds a comma, a quote or a line break.
    static QString field(const QString &value);

private:
    QSaveFile m_file;
    QTextStream m_out;
    qint64 m_lines = 0;
};

} // namespace rd::ui
