#include "ui/actions/accessactions.h"

#include "ui/models/accesstrouble.h"
#include "ui/models/format.h"

#include "domain/core/timestamp.h"
#include "domain/store/access_verdicts.h"
#include "domain/store/operator_session.h"

#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::AccessActions)
};

QString field(const nlohmann::json &j, const char *key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                            : QString();
}

} // namespace

QString graceEndOf(const QDate &lastDayUtc)
{
    return lastDayUtc.addDays(1).toString(Qt::ISODate) + u"T00:00:00Z"_qs;
}

ActionResult extendGrace(const std::string &conninfo, const ExtendGraceRequest &request)
{
    const QString subject = request.providerKey + u'/' + request.providerSubscriptionId;
    return answerOf(Tr::tr("Could not extend the grace of %1: %2").arg(subject), [&] {
        const auto until = rd::parseRfc3339(graceEndOf(request.lastDayUtc).toStdString());
        if (!until)
            return ActionResult::failed(
                Tr::tr("Could not extend the grace of %1: no such day").arg(subject));
        rd::OperatorSession session(conninfo);
        const nlohmann::json verdict = session.run([&](rd::DbRef db) {
            return rd::extendAccess(db, request.providerKey.toStdString(),
                request.providerSubscriptionId.toStdString(), *until,
                request.note.trimmed().toStdString());
        });
        access::SubscriptionAccess now;
        now.verdict = field(verdict, "verdict");
        now.since = format::instant(field(verdict, "since"));
        now.until = format::instant(field(verdict, "until"));
        now.source = field(verdict, "source");
        const QString line = access::accessLine(now);
        return ActionResult {ActionResult::Kind::Done,
            Tr::tr("Grace of %1 extended. %2").arg(subject, line).trimmed(), u"extended"_qs};
    });
}

QFuture<ActionResult> extendGraceAsync(const QString &conninfo, const ExtendGraceRequest &request)
{
    return QtConcurrent::run(
        [conninfo = conninfo.toStdString(), request] { return extendGrace(conninfo, request); });
}

} // namespace rd::ui
