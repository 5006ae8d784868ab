#include "ui/actions/inboxactions.h"

#include "domain/store/inbox_replay.h"

#include <QCoreApplication>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::InboxActions)
};

} // namespace

InboxActionResult markDeliveryReviewed(
    const std::string &conninfo, qint64 inboxId, const QString &note)
{
    return answerOf(Tr::tr("Could not mark delivery %1 reviewed: %2").arg(inboxId), [&] {
        rd::reviewInvalidDelivery(conninfo, inboxId, note.toStdString());
        return InboxActionResult {{ActionResult::Kind::Done,
            Tr::tr("Delivery %1 marked reviewed.").arg(inboxId), u"reviewed"_qs}};
    });
}

InboxActionResult rerunDelivery(const std::string &conninfo, qint64 inboxId)
{
    return answerOf(Tr::tr("Could not re-run delivery %1: %2").arg(inboxId), [&] {
        const rd::DeliveryRerun r = rd::rerunInvalidDelivery(conninfo, inboxId);
        InboxActionResult out {
            {ActionResult::Kind::Done, QString::fromStdString(r.text()).trimmed(),
                r.stillInvalid ? u"still_invalid"_qs : u"rerun"_qs}};
        if (!r.stillInvalid && r.result.inboxId != inboxId)
            out.newInboxId = r.result.inboxId;
        return out;
    });
}

QFuture<InboxActionResult> markDeliveryReviewedAsync(
    const QString &conninfo, qint64 inboxId, const QString &note)
{
    return QtConcurrent::run([conninfo = conninfo.toStdString(), inboxId, note] {
        return markDeliveryReviewed(conninfo, inboxId, note);
    });
}

QFuture<InboxActionResult> rerunDeliveryAsync(const QString &conninfo, qint64 inboxId)
{
    return QtConcurrent::run(
        [conninfo = conninfo.toStdString(), inboxId] { return rerunDelivery(conninfo, inboxId); });
}

} // namespace rd::ui
