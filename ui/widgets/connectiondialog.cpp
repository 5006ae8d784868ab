#include "ui/widgets/connectiondialog.h"

#include "ui/models/connectionsettings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QtConcurrent>

#include <algorithm>

namespace rd::ui {

QStringList ConnectionDialog::sslModes()
{
    return {u"prefer"_qs, u"require"_qs, u"verify-ca"_qs, u"verify-full"_qs, u"allow"_qs,
        u"disable"_qs};
}

ConnectionDialog::ConnectionDialog(const QString &current, QWidget *parent)
    : QDialog(parent)
    , m_embedded(new QCheckBox(tr("Use the desk's own embedded database")))
    , m_uri(new QLineEdit)
    , m_host(new QLineEdit)
    , m_port(new QSpinBox)
    , m_dbname(new QLineEdit)
    , m_user(new QLineEdit)
    , m_sslmode(new QComboBox)
    , m_note(new QLabel)
    , m_test(new QPushButton(tr("&Test connection")))
    , m_result(new QLabel)
{
    setWindowTitle(tr("Connect to a database"));
    m_embedded->setObjectName(u"embedded"_qs);
    m_uri->setObjectName(u"connection-string"_qs);
    m_test->setObjectName(u"test-connection"_qs);
    m_result->setObjectName(u"test-result"_qs);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_uri->setPlaceholderText(tr("postgresql://user@host:5432/dbname, or host=… dbname=…"));
    m_uri->setToolTip(tr("A connection string libpq reads (key=value pairs or a postgresql:// "
                         "URI) fills the fields below. A password in it is not kept."));
    m_host->setObjectName(u"host"_qs);
    m_port->setObjectName(u"port"_qs);
    m_dbname->setObjectName(u"dbname"_qs);
    m_user->setObjectName(u"user"_qs);
    m_sslmode->setObjectName(u"sslmode"_qs);
    // Port 0 stands for "not given": PGPORT (or 5432) then applies, as with psql.
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(tr("default"));
    m_port->setValue(0);
    m_sslmode->addItems(sslModes());
    m_host->setPlaceholderText(tr("host name, or a socket directory"));

    m_embedded->setChecked(current.trimmed().isEmpty());
    const ParsedConninfo parsed = parseConninfo(current);
    QStringList notes = fill(parsed);
    if (!parsed.error.isEmpty())
        notes << tr("The saved connection could not be read: %1").arg(parsed.error);
    notes << tr("Passwords come from ~/.pgpass or PGPASSWORD; the desk never stores one.");
    m_note->setText(notes.join(u'\n'));
    m_note->setWordWrap(true);
    m_note->setObjectName(u"connection-note"_qs);
    m_note->setStyleSheet(u"color: palette(dark);"_qs);

    // Wide enough that the connection string's hint shows whole and the notes read in a line
    // or two, not a narrow column of broken lines.
    const QFontMetrics fm = m_uri->fontMetrics();
    m_uri->setMinimumWidth(
        fm.horizontalAdvance(m_uri->placeholderText()) + 4 * fm.averageCharWidth());
    m_host->setMinimumWidth(
        fm.horizontalAdvance(m_host->placeholderText()) + 4 * fm.averageCharWidth());

    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    form->addRow(m_embedded);
    form->addRow(tr("Connection string"), m_uri);
    form->addRow(tr("Host"), m_host);
    form->addRow(tr("Port"), m_port);
    form->addRow(tr("Database"), m_dbname);
    form->addRow(tr("User"), m_user);
    form->addRow(tr("SSL mode"), m_sslmode);
    form->addRow(m_note);
    auto *testRow = new QHBoxLayout;
    testRow->addWidget(m_test);
    testRow->addWidget(m_result, 1);
    form->addRow(testRow);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = box->button(QDialogButtonBox::Ok);
    form->addRow(box);
    connect(m_uri, &QLineEdit::textEdited, this, &ConnectionDialog::takeConnectionString);
    connect(m_test, &QPushButton::clicked, this, &ConnectionDialog::testConnection);
    connect(box, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto sync = [this] {
        for (QWidget *w : {static_cast<QWidget *>(m_uri), static_cast<QWidget *>(m_host),
                 static_cast<QWidget *>(m_port), static_cast<QWidget *>(m_dbname),
                 static_cast<QWidget *>(m_user), static_cast<QWidget *>(m_sslmode)})
            w->setEnabled(!m_embedded->isChecked());
        // The embedded cluster is started by the desk itself: there is nothing to try first.
        m_test->setEnabled(!m_embedded->isChecked());
        m_testRequest.cancel();
        setResult({}, true);
        const QString text = m_uri->text().trimmed();
        m_ok->setEnabled(
            m_embedded->isChecked() || text.isEmpty() || parseConninfo(text).error.isEmpty());
    };
    connect(m_embedded, &QCheckBox::toggled, this, sync);
    sync();
}

QStringList ConnectionDialog::fill(const ParsedConninfo &parsed)
{
    m_host->clear();
    m_port->setValue(0);
    m_dbname->clear();
    m_user->clear();
    m_sslmode->setCurrentText(sslModes().first());
    m_kept.clear();
    QStringList notes;
    for (const auto &[key, value] : parsed.settings) {
        if (key == u"host")
            m_host->setText(value);
        else if (key == u"port" && value.toInt() > 0 && value.toInt() <= 65535)
            m_port->setValue(value.toInt());
        else if (key == u"dbname")
            m_dbname->setText(value);
        else if (key == u"user")
            m_user->setText(value);
        else if (key == u"sslmode") {
            // A value libpq will refuse at connect time is still shown, not silently replaced.
            if (m_sslmode->findText(value) < 0)
                m_sslmode->addItem(value);
            m_sslmode->setCurrentText(value);
        } else if (key != u"password")
            m_kept.append({key, value}); // e.g. a multi-host port list, sslrootcert
    }
    if (!m_kept.isEmpty()) {
        QStringList keys;
        for (const auto &kept : std::as_const(m_kept))
            keys << kept.first;
        notes << tr("Also kept as they are: %1.").arg(keys.join(u", "_qs));
    }
    return notes;
}

void ConnectionDialog::takeConnectionString()
{
    const QString text = m_uri->text().trimmed();
    m_testRequest.cancel(); // a test of what the fields said before
    m_test->setEnabled(true);
    if (text.isEmpty()) {
        setResult({}, true);
        m_ok->setEnabled(true);
        return;
    }
    const ParsedConninfo parsed = parseConninfo(text);
    if (!parsed.error.isEmpty()) {
        setResult(tr("This connection string cannot be read: %1").arg(parsed.error), false);
        m_ok->setEnabled(false);
        return;
    }
    m_ok->setEnabled(true);
    const QStringList notes = fill(parsed);
    const bool hadPassword = std::any_of(parsed.settings.cbegin(), parsed.settings.cend(),
        [](const auto &s) { return s.first == u"password"; });
    setResult(
        hadPassword ? tr("The password in it is not kept: put it in ~/.pgpass.") : notes.join(u' '),
        !hadPassword);
}

void ConnectionDialog::setResult(const QString &text, bool ok)
{
    m_result->setText(text);
    m_result->setStyleSheet(ok ? QString() : u"color:#b02020"_qs);
}

void ConnectionDialog::testConnection()
{
    if (m_embedded->isChecked())
        return;
    setResult(tr("Trying…"), true);
    m_test->setEnabled(false);
    deliverResult(
        this, QtConcurrent::run(&rd::ui::testConnection, conninfo()),
        [this](const ConnectionTestResult &r) {
            m_test->setEnabled(!m_embedded->isChecked());
            if (r.ok)
                setResult(tr("Connected: PostgreSQL %1, database %2 as %3.")
                              .arg(r.serverVersion, r.database, r.user),
                    true);
            else
                setResult(tr("Could not connect: %1").arg(r.error), false);
            emit connectionTested(r.ok);
        },
        [this](const QString &message) {
            m_test->setEnabled(!m_embedded->isChecked());
            setResult(tr("Could not connect: %1").arg(message), false);
            emit connectionTested(false);
        },
        m_testRequest.next());
}

QString ConnectionDialog::conninfo() const
{
    if (m_embedded->isChecked())
        return {};
    QStringList parts;
    auto add = [&](const QString &key, const QString &value) {
        if (!value.isEmpty())
            parts << key + u'=' + conninfoValue(value);
    };
    add(u"host"_qs, m_host->text().trimmed());
    if (m_port->value() > 0)
        parts << u"port="_qs + QString::number(m_port->value());
    add(u"dbname"_qs, m_dbname->text().trimmed());
    add(u"user"_qs, m_user->text().trimmed());
    add(u"sslmode"_qs, m_sslmode->currentText());
    for (const auto &[key, value] : m_kept)
        parts << key + u'=' + conninfoValue(value);
    return parts.join(u' ');
}

} // namespace rd::ui
