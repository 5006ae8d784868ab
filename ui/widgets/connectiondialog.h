#pragma once

#include "ui/models/asyncresult.h"

#include <QDialog>
#include <QList>

#include <utility>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace rd::ui {

struct ParsedConninfo;

/// Asks for a libpq connection: host, port, database, user, sslmode - or the embedded
/// cluster. A connection string (key=value pairs or a postgresql:// URI) pasted in its field
/// fills the others. "Test connection" tries the connection off the GUI thread and says what
/// came of it. There is no password field on purpose: libpq reads ~/.pgpass or PGPASSWORD,
/// and the desk never stores one.
class ConnectionDialog : public QDialog
{
    Q_OBJECT

public:
    /// `current` (key=value pairs or a postgresql:// URI, read by libpq itself) fills the
    /// fields; its other settings (sslrootcert, application_name, ...) are kept as they are,
    /// a password is dropped. Empty: the embedded database.
    explicit ConnectionDialog(const QString &current, QWidget *parent = nullptr);

    /// The chosen conninfo; empty for "the embedded database".
    QString conninfo() const;

    /// The sslmode values libpq knows, "prefer" (its default) first.
    static QStringList sslModes();

signals:
    /// A "Test connection" finished; its words are in the dialog.
    void connectionTested(bool ok);

private:
    /// Shows `parsed` in the fields (the ones it does not set are cleared); returns notes.
    QStringList fill(const ParsedConninfo &parsed);
    /// Reads the connection string field into the others.
    void takeConnectionString();
    void testConnection();
    void setResult(const QString &text, bool ok);

    QCheckBox *m_embedded;
    QLineEdit *m_uri;
    QLineEdit *m_host;
    QSpinBox *m_port; ///< 0: libpq's default (PGPORT, else 5432)
    QLineEdit *m_dbname;
    QLineEdit *m_user;
    QComboBox *m_sslmode;
    QLabel *m_note;
    QPushButton *m_ok = nullptr;
    QPushButton *m_test;
    QLabel *m_result;
    LatestRequest m_testRequest;
    /// Settings of `current` the form has no field for, in libpq's order.
    QList<std::pair<QString, QString>> m_kept;
};

} // namespace rd::ui
