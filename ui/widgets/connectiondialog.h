#pragma once

#include <QDialog>
#include <QList>

#include <utility>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace rd::ui {

/// Asks for a libpq connection: host, port, database, user, sslmode - or the embedded
/// cluster. There is no password field on purpose: libpq reads ~/.pgpass or PGPASSWORD, and
/// the desk never stores one.
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

private:
    QCheckBox *m_embedded;
    QLineEdit *m_host;
    QSpinBox *m_port; ///< 0: libpq's default (PGPORT, else 5432)
    QLineEdit *m_dbname;
    QLineEdit *m_user;
    QComboBox *m_sslmode;
    QLabel *m_note;
    /// Settings of `current` the form has no field for, in libpq's order.
    QList<std::pair<QString, QString>> m_kept;
};

} // namespace rd::ui
