#include "ui/models/csvwriter.h"

#include <stdexcept>

namespace rd::ui {

CsvWriter::CsvWriter(const QString &path) : m_file(path)
{
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Text))
        throw std::runtime_error(m_file.errorString().toStdString());
    m_out.setDevice(&m_file);
}

void CsvWriter::writeRow(const QStringList &fields)
{
    QStringList quoted;
    quoted.reserve(fields.size());
    for (const QString &f : fields)
        quoted << field(f);
    m_out << quoted.join(u',') << '\n';
    ++m_lines;
}

void CsvWriter::commit()
{
    m_out.flush();
    if (!m_file.commit())
        throw std::runtime_error(m_file.errorString().toStdString());
}

QString CsvWriter::field(const QString &value)
{
    if (!value.contains(u',') && !value.contains(u'"') && !value.contains(u'\n')
        && !value.contains(u'\r'))
        return value;
    QString quoted = value;
    quoted.replace(u'"', u"\"\""_qs);
    return u'"' + quoted + u'"';
}

} // namespace rd::ui
