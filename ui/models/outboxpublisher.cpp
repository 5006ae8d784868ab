#include "ui/models/outboxpublisher.h"

#include "ui/models/databasepool.h"
#include "ui/models/format.h"

#include "domain/store/outbox_publisher.h"

#include <QCoreApplication>
#include <QObject>
#include <QSqlQuery>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::OutboxPublisher)
};

} // namespace

OutboxPublisher loadOutboxPublisher(QSqlDatabase &db)
{
    QSqlQuery q = execSql(db,
        // This database's publishers: one for another database of the server publishes nothing
        // of this one's (and a test's parallel neighbour's publisher said "running" here).
        u"SELECT (SELECT count(*) FROM pg_stat_activity WHERE application_name = ? "
        "AND datname = current_database()), "
        "rd_rfc3339((SELECT max(published_at) FROM subscription_outbox)), rd_rfc3339(now())"_qs,
        {QString::fromLatin1(kOutboxPublisherApplicationName)});
    OutboxPublisher p;
    if (!q.next())
        return p;
    p.sessions = q.value(0).toLongLong();
    if (!q.value(1).isNull())
        p.lastPublishedAt = format::instant(q.value(1).toString());
    p.readAt = format::instant(q.value(2).toString());
    return p;
}

OutboxPublisherState outboxPublisherState(
    qint64 sessions, const QDateTime &lastPublishedAt, const QDateTime &now)
{
    OutboxPublisherState s;
    const QString start = Tr::tr(
        "Start one with: renewalctl outbox publish --follow --jsonl FILE (or --exec CMD).");
    if (sessions > 0) {
        s.text = Tr::tr("publisher running");
        s.toolTip
            = Tr::tr("%n renewalctl outbox publish session(s) connected", nullptr, int(sessions))
            + (lastPublishedAt.isValid() ? u"; "_qs
                        + Tr::tr("last published %1").arg(format::localDateTime(lastPublishedAt))
                                         : QString());
        return s;
    }
    s.stalled = true;
    if (!lastPublishedAt.isValid()) {
        s.text = Tr::tr("no publisher has run yet");
        s.toolTip = Tr::tr("Nothing was ever published: intents wait until a publisher "
                           "runs. ")
            + start;
        return s;
    }
    s.text = Tr::tr("no publisher has run for %1").arg(format::age(lastPublishedAt, now));
    s.toolTip = Tr::tr("No renewalctl outbox publish is connected; the last intent was "
                       "published %1. ")
                    .arg(format::localDateTime(lastPublishedAt))
        + start;
    return s;
}

} // namespace rd::ui
