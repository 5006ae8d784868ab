#pragma once

#include <QList>
#include <QSqlDatabase>
#include <QString>

#include <utility>

namespace rd::ui {

/// The parts of a libpq conninfo the QPSQL driver takes as named settings; everything else
/// (sslmode, connect_timeout, application_name, ...) goes through setConnectOptions.
struct ConnectionSettings
{
    QString host;
    int port = -1;
    QString databaseName;
    QString userName;
    QString options; ///< "key=value;key=value" for QSqlDatabase::setConnectOptions

    /// Reads a conninfo ("host=... dbname=..." or a postgresql:// URI) with libpq's own parser.
    /// A password is dropped: it comes from ~/.pgpass or PGPASSWORD, never from anything the
    /// desk stores. A conninfo libpq cannot read leaves `error` set.
    static ConnectionSettings fromConninfo(const QString &conninfo);
    QString error;
    void applyTo(QSqlDatabase &db) const;
};

/// A conninfo as libpq reads it: its quoting rules and URIs exactly, nothing guessed.
struct ParsedConninfo
{
    QList<std::pair<QString, QString>> settings; ///< libpq's order, set values only
    QString error; ///< libpq's message when it cannot read the conninfo
};
ParsedConninfo parseConninfo(const QString &conninfo);
/// The conninfo as the desk remembers it: the settings given, minus a password, and nothing
/// added (an empty one, "the embedded database", stays empty). Empty if libpq cannot read it.
QString conninfoWithoutPassword(const QString &conninfo);

/// What trying a connection came to.
struct ConnectionTestResult
{
    bool ok = false;
    QString serverVersion; ///< the server's server_version, e.g. "15.8 (Debian 15.8-0+deb12u1)"
    QString database; ///< the database and user the server took
    QString user;
    QString error; ///< libpq's message when it could not connect
};
/// Connects with libpq and disconnects at once: blocking for up to its connect_timeout (10 s
/// unless the conninfo says), so call it off the GUI thread. A password in `conninfo` is
/// ignored, as everywhere in the desk (libpq reads ~/.pgpass and PGPASSWORD).
ConnectionTestResult testConnection(const QString &conninfo);

/// Quotes a conninfo value the libpq way: in single quotes, with \ and ' escaped by a backslash.
QString conninfoValue(const QString &value);

} // namespace rd::ui
