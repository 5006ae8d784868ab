#include "ui/models/connectionsettings.h"

#include <QCoreApplication>
#include <QObject>
#include <QStringList>

#include <libpq-fe.h>

#include <memory>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::ConnectionSettings)
};

} // namespace

ParsedConninfo parseConninfo(const QString &conninfo)
{
    ParsedConninfo parsed;
    char *error = nullptr;
    std::unique_ptr<PQconninfoOption, decltype(&PQconninfoFree)> options(
        PQconninfoParse(conninfo.toUtf8().constData(), &error), &PQconninfoFree);
    if (!options) {
        parsed.error = error ? QString::fromUtf8(error).trimmed()
                             : Tr::tr("out of memory reading the connection string");
        PQfreemem(error);
        return parsed;
    }
    for (const PQconninfoOption *o = options.get(); o->keyword; ++o) {
        if (o->val)
            parsed.settings.append({QString::fromUtf8(o->keyword), QString::fromUtf8(o->val)});
    }
    return parsed;
}

QString conninfoWithoutPassword(const QString &conninfo)
{
    QStringList parts;
    for (const auto &[key, value] : parseConninfo(conninfo).settings) {
        if (key != u"password")
            parts << key + u'=' + conninfoValue(value);
    }
    return parts.join(u' ');
}

ConnectionSettings ConnectionSettings::fromConninfo(const QString &conninfo)
{
    ConnectionSettings s;
    const ParsedConninfo parsed = parseConninfo(conninfo);
    if (!parsed.error.isEmpty()) {
        s.error = parsed.error;
        return s;
    }
    QStringList options;
    for (const auto &[key, value] : parsed.settings) {
        if (key == u"host")
            s.host = value;
        else if (key == u"port")
            s.port = value.toInt();
        else if (key == u"dbname")
            s.databaseName = value;
        else if (key == u"user")
            s.userName = value;
        else if (key == u"password")
            continue; // never carried along: libpq finds it in ~/.pgpass
        else
            options << key + u'=' + conninfoValue(value); // setConnectOptions splits on ';'
    }
    // A server that vanished must not hang a worker (or the listener) for minutes.
    if (!options.join(u';').contains(u"connect_timeout="_qs))
        options << u"connect_timeout='10'"_qs;
    s.options = options.join(u';');
    return s;
}

ConnectionTestResult testConnection(const QString &conninfo)
{
    ConnectionTestResult result;
    const ParsedConninfo parsed = parseConninfo(conninfo);
    if (!parsed.error.isEmpty()) {
        result.error = parsed.error;
        return result;
    }
    QStringList parts;
    bool timeout = false;
    for (const auto &[key, value] : parsed.settings) {
        if (key == u"password")
            continue;
        timeout = timeout || key == u"connect_timeout";
        parts << key + u'=' + conninfoValue(value);
    }
    if (!timeout)
        parts << u"connect_timeout='10'"_qs;
    std::unique_ptr<PGconn, decltype(&PQfinish)> conn(
        PQconnectdb(parts.join(u' ').toUtf8().constData()), &PQfinish);
    if (!conn) {
        result.error = Tr::tr("out of memory connecting");
        return result;
    }
    if (PQstatus(conn.get()) != CONNECTION_OK) {
        result.error = QString::fromUtf8(PQerrorMessage(conn.get())).trimmed();
        return result;
    }
    result.ok = true;
    const char *version = PQparameterStatus(conn.get(), "server_version");
    result.serverVersion = version ? QString::fromUtf8(version) : QString();
    result.database = QString::fromUtf8(PQdb(conn.get()));
    result.user = QString::fromUtf8(PQuser(conn.get()));
    return result;
}

QString conninfoValue(const QString &value)
{
    // libpq: inside single quotes, a backslash escapes the next character (\' and \\).
    QString v = value;
    v.replace(u'\\', u"\\\\"_qs).replace(u'\'', u"\\'"_qs);
    return u'\'' + v + u'\'';
}

void ConnectionSettings::applyTo(QSqlDatabase &db) const
{
    if (!host.isEmpty())
        db.setHostName(host);
    if (port > 0)
        db.setPort(port);
    if (!databaseName.isEmpty())
        db.setDatabaseName(databaseName);
    if (!userName.isEmpty())
        db.setUserName(userName);
    db.setConnectOptions(options);
}

} // namespace rd::ui
