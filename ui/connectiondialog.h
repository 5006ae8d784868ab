#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
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
    explicit ConnectionDialog(const QString &current, QWidget *parent = nullptr);

    /// The chosen conninfo; empty for "the embedded database".
    QString conninfo() const;

private:
    QCheckBox *m_embedded;
    QLineEdit *m_host;
    QSpinBox *m_port;
    QLineEdit *m_dbname;
    QLineEdit *m_user;
    QComboBox *m_sslmode;
};

/// Quotes a conninfo value the libpq way.
QString conninfoValue(const QString &value);

} // namespace rd::ui
