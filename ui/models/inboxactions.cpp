#include "ui/models/inboxactions.h"

#include "domain/store/action_refused.h"
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

InboxActionOutcome markDeliveryReviewed(
    const std::string &conninfo, qint64 inboxId, const QString &note)
{
    using Kind = InboxActionOutcome::Kind;
    try {
        rd::reviewInvalidDelivery(conninfo, inboxId, note.toStdString());
        return {Kind::Done, Tr::tr("Delivery %1 marked reviewed.").arg(inboxId), u"reviewed"_qs};
    } catch (const rd::ActionRefused &e) {
        return {Kind::Refused, QString::fromUtf8(e.what()), QString::fromStdString(e.code())};
    } catch (const std::exception &e) {
        return {Kind::Failed,
            Tr::tr("Could not mark delivery %1 reviewed: %2")
                .arg(inboxId)
                .arg(QString::fromUtf8(e.what()).trimmed()),
            u"error"_qs};
    }
}

InboxActionOutcome rerunDelivery(const std::string &conninfo, qint64 inboxId)
{
    using Kind = InboxActionOutcome::Kind;
    try {
        const rd::DeliveryRerun r = rd::rerunInvalidDelivery(conninfo, inboxId);
        InboxActionOutcome out {Kind::Done, QString::fromStdString(r.text()).trimmed(),
            r.stillInvalid ? u"still_invalid"_qs : u"rerun"_qs};
        if (!r.stillInvalid && r.result.inboxId != inboxId)
            out.newInboxId = r.result.inboxId;
        return out;
    } catch (const rd::ActionRefused &e) {
        return {Kind::Refused, QString::fromUtf8(e.what()), QString::fromStdString(e.code())};
    } catch (const std::exception &e) {
        return {Kind::Failed,
            Tr::tr("Could not re-run delivery %1: %2")
                .arg(inboxId)
                .arg(QString::fromUtf8(e.what()).trimmed()),
            u"error"_qs};
    }
}

QFuture<InboxActionOutcome> markDeliveryReviewedAsync(
    const QString &conninfo, qint64 inboxId, const QString &note)
{
    return QtConcurrent::run([conninfo = conninfo.toStdString(), inboxId, note] {
        return markDeliveryReviewed(conninfo, inboxId, note);
    });
}

QFuture<InboxActionOutcome> rerunDeliveryAsync(const QString &conninfo, qint64 inboxId)
{
    return QtConcurrent::run(
        [conninfo = conninfo.toStdString(), inboxId] { return rerunDelivery(conninfo, inboxId); });
}

QString invalidToReviewCondition()
{
    return u"w.outcome = 'invalid' AND NOT EXISTS (SELECT 1 FROM webhook_inbox_reviews r "
           "WHERE r.inbox_id = w.id)"_qs;
}

} // namespace rd::ui
