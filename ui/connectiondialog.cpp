#include "connectiondialog.h"

#include "database.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace rd::ui {

QString conninfoValue(const QString &value)
{
    QString v = value;
    v.replace(u'\\', u"\\\\"_qs).replace(u'\'', u"\\'"_qs);
    return u'\'' + v + u'\'';
}

ConnectionDialog::ConnectionDialog(const QString &current, QWidget *parent)
    : QDialog(parent)
    , m_embedded(new QCheckBox(tr("Use the desk's own embedded database")))
    , m_host(new QLineEdit)
    , m_port(new QSpinBox)
    , m_dbname(new QLineEdit)
    , m_user(new QLineEdit)
    , m_sslmode(new QComboBox)
{
    setWindowTitle(tr("Connect to a database"));
    m_port->setRange(1, 65535);
    m_port->setValue(5432);
    m_sslmode->addItems(
        {u"prefer"_qs, u"require"_qs, u"verify-ca"_qs, u"verify-full"_qs, u"disable"_qs});
    m_host->setPlaceholderText(tr("host name, or a socket directory"));
    const ConnectionSettings s = ConnectionSettings::fromConninfo(current);
    m_embedded->setChecked(current.isEmpty());
    m_host->setText(s.host);
    if (s.port > 0)
        m_port->setValue(s.port);
    m_dbname->setText(s.databaseName);
    m_user->setText(s.userName);
    auto *form = new QFormLayout(this);
    form->addRow(m_embedded);
    form->addRow(tr("Host"), m_host);
    form->addRow(tr("Port"), m_port);
    form->addRow(tr("Database"), m_dbname);
    form->addRow(tr("User"), m_user);
    form->addRow(tr("SSL mode"), m_sslmode);
    auto *note = new QLabel(tr("Passwords come from ~/.pgpass or PGPASSWORD; the desk never "
                               "stores one."));
    note->setWordWrap(true);
    form->addRow(note);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(box);
    connect(box, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto sync = [this] {
        for (QWidget *w : {static_cast<QWidget *>(m_host), static_cast<QWidget *>(m_port),
                 static_cast<QWidget *>(m_dbname), static_cast<QWidget *>(m_user),
                 static_cast<QWidget *>(m_sslmode)})
            w->setEnabled(!m_embedded->isChecked());
    };
    connect(m_embedded, &QCheckBox::toggled, this, sync);
    sync();
}

QString ConnectionDialog::conninfo() const
{
    if (m_embedded->isChecked())
        return {};
    QStringList parts;
    if (!m_host->text().trimmed().isEmpty())
        parts << u"host="_qs + conninfoValue(m_host->text().trimmed());
    parts << u"port="_qs + QString::number(m_port->value());
    if (!m_dbname->text().trimmed().isEmpty())
        parts << u"dbname="_qs + conninfoValue(m_dbname->text().trimmed());
    if (!m_user->text().trimmed().isEmpty())
        parts << u"user="_qs + conninfoValue(m_user->text().trimmed());
    parts << u"sslmode="_qs + m_sslmode->currentText();
    return parts.join(u' ');
}

} // namespace rd::ui
