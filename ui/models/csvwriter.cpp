#include "ui/models/csvwriter.h"

#include <stdexcept>

namespace rd::ui {

CsvWriter::CsvWriter(const QString &path) : m_file(path)
{
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Text))
        throw std::runtime_error(m_file.errorString().toStdString());
}

void CsvWriter::writeHeader(const QStringList &titles, const QVector<csv::Kind> &kinds)
{
    write(titles, {});
    m_kinds.assign(kinds.cbegin(), kinds.cend());
}

void CsvWriter::writeRow(const QStringList &fields)
{
    write(fields, m_kinds);
}

void CsvWriter::write(const QStringList &fields, const std::vector<csv::Kind> &kinds)
{
    std::vector<std::string> values;
    values.reserve(std::size_t(fields.size()));
    for (const QString &f : fields)
        values.push_back(f.toStdString());
    const std::string line = csv::line(values, kinds);
    if (m_file.write(line.data(), qint64(line.size())) != qint64(line.size()))
        throw std::runtime_error(m_file.errorString().toStdString());
    ++m_lines;
}

void CsvWriter::commit()
{
    if (!m_file.commit())
        throw std::runtime_error(m_file.errorString().toStdString());
}

QString CsvWriter::field(const QString &value, csv::Kind kind)
{
    return QString::fromStdString(csv::field(value.toStdString(), kind));
}

} // namespace rd::ui
