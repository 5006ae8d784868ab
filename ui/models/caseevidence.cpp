#include "ui/models/caseevidence.h"

#include "ui/models/format.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::CaseEvidence)
};

/// The core's next steps (rd::caseNextStep, which the CLI prints) in the desk's language:
/// the domain has no Qt, so its English is listed here again for lupdate.
/// tst_ui_caseevidence checks that every reason code has one, word for word the core's.
QString nextStep(const QString &code)
{
    static const QHash<QString, const char *> steps {
        {u"renewal_period_is_not_contiguous"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseEvidence",
                "Usually wait: when the missing renewal arrives the core applies this one too and "
                "closes the case by itself. If the provider's periods differ from the desk's, "
                "attach a "
                "provider snapshot.")},
        {u"provider_renewal_key_payload_conflict"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseEvidence",
                "Check the invoice at the provider: if the stored renewal is right, dismiss with a "
                "note; "
                "if the provider corrected the invoice, attach a provider snapshot.")},
        {u"renewal_conflicts_with_scheduled_cancellation"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseEvidence",
                "Ask the provider whether the cancellation was withdrawn: attach a provider "
                "snapshot "
                "of the subscription as it shows it, then re-apply; if it still cancels, refund "
                "and "
                "dismiss with a note.")},
        {u"renewal_not_allowed_for_subscription_status"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseEvidence",
                "Attach a provider snapshot that brings the subscription's status up to date, then "
                "re-apply.")},
        {u"subscription_not_found"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseEvidence",
                "Import the subscription, or attach a provider snapshot of it: that creates the "
                "subscription and records its latest renewal. Then re-apply if the case stays "
                "open.")},
        {u"subscription_has_no_current_period"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseEvidence",
                "Attach a provider snapshot with the subscription's current period, then "
                "re-apply.")},
        {u"invalid_provider_billing_period"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseEvidence",
                "Check the invoice at the provider: attach a provider snapshot with the correct "
                "period, "
                "or dismiss with a note if the provider confirms it was sent in error.")},
        {u"needs_snapshot"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseEvidence",
                "Look the subscription up in the provider's dashboard or API and attach a provider "
                "snapshot with what it shows: the renewal is then judged again against it. "
                "Re-apply "
                "cannot help: the message does not say which period was paid.")},
        {u"statement_disagrees"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseEvidence",
                "Look at the provider: a refund or a corrected invoice is a note and a dismissal; "
                "a "
                "wrong recording is a provider snapshot with the provider's state.")},
        {u"not_in_statement"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseEvidence",
                "Find out why the statement lacks it (refunded, another account, test mode, a "
                "wrong "
                "filter) and dismiss with a note saying what it was.")},
        {u"statement_object_unreadable"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseEvidence",
                "Open the object in the provider's dashboard. If it is a renewal, see that it is "
                "recorded (its delivery, or a provider snapshot of its subscription), then "
                "dismiss with a note naming it; if it is not, dismiss with a note saying what it "
                "was.")},
        {u"refund_without_renewal"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseEvidence",
                "Usually wait: when the renewal it pays back is recorded, the movement is "
                "recorded with it and the case closes by itself. If that renewal is recorded "
                "and the case is still open, re-apply it; if the renewal never reaches the "
                "desk, or the provider names it only by a payment the desk does not know, find "
                "it at the provider and dismiss with a note naming it.")},
        {u"refund_exceeds_payment"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseEvidence",
                "Check the renewal and its refunds and disputes at the provider: the desk never "
                "records "
                "more money back than was paid. If a recorded movement is wrong, or the provider "
                "paid "
                "back more than the renewal, dismiss with a note saying what it shows.")},
        {u"money_movement_conflict"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseEvidence",
                "The provider sent a refund or dispute already recorded with another amount, "
                "currency or "
                "renewal, or a reversal of nothing recorded. The recorded movement is kept: check "
                "it at "
                "the provider and dismiss with a note saying what it shows.")},
    };
    const auto step = steps.constFind(code);
    return step == steps.constEnd() ? QString() : Tr::tr(step.value());
}

QString when(const QString &rfc3339)
{
    return format::localDateTime(format::instant(rfc3339));
}

QString tip(const QString &rfc3339)
{
    return format::utcTooltip(format::instant(rfc3339));
}

QString amount(const QJsonObject &o)
{
    if (!o.contains(u"paidAmountMinor"_qs))
        return {};
    return format::money(
        qint64(o.value(u"paidAmountMinor"_qs).toDouble()), o.value(u"currency"_qs).toString());
}

QJsonObject parse(const QString &json)
{
    return QJsonDocument::fromJson(json.toUtf8()).object();
}

CaseEvidence evidenceLines(
    const QString &errorCode, const QString &eventJson, const QString &localStateJson)
{
    const QJsonObject event = parse(eventJson);
    const QJsonObject local = parse(localStateJson);
    const QJsonObject eventPeriod = event.value(u"period"_qs).toObject();
    const QString eventStart = eventPeriod.value(u"start"_qs).toString();
    const QString eventEnd = eventPeriod.value(u"end"_qs).toString();

    CaseEvidence ev;
    // The event's id is a line of the table (and in the raw event beside it); in the header it
    // would only be cut off.
    ev.incomingTitle = Tr::tr("incoming event");
    // Timestamps compare as instants (µs), not as text: "…00Z" and "…00.000000Z" are equal.
    auto sameInstant
        = [](const QString &a, const QString &b) { return format::micros(a) == format::micros(b); };

    if (errorCode == u"provider_renewal_key_payload_conflict") {
        const QJsonObject stored = local.value(u"conflictingBillingPeriod"_qs).toObject();
        const QJsonObject storedPeriod = stored.value(u"period"_qs).toObject();
        ev.localTitle = Tr::tr("stored billing period");
        const QString sStart = storedPeriod.value(u"start"_qs).toString();
        const QString sEnd = storedPeriod.value(u"end"_qs).toString();
        const bool sameSubscription = stored.value(u"subscriptionId"_qs).toString()
            == local.value(u"subscriptionId"_qs).toString();
        ev.lines.append({Tr::tr("subscription"),
            sameSubscription ? Tr::tr("this subscription") : Tr::tr("another subscription"),
            event.value(u"providerSubscriptionId"_qs).toString(),
            stored.value(u"subscriptionId"_qs).toString(), {}, !sameSubscription, {}});
        ev.lines.append({Tr::tr("renewal key"), stored.value(u"providerRenewalKey"_qs).toString(),
            event.value(u"providerRenewalKey"_qs).toString(), {}, {},
            stored.value(u"providerRenewalKey"_qs) != event.value(u"providerRenewalKey"_qs), {}});
        ev.lines.append({Tr::tr("period start"), when(sStart), when(eventStart), tip(sStart),
            tip(eventStart), !sameInstant(sStart, eventStart), {}});
        ev.lines.append({Tr::tr("period end"), when(sEnd), when(eventEnd), tip(sEnd), tip(eventEnd),
            !sameInstant(sEnd, eventEnd), {}});
        ev.lines.append({Tr::tr("amount"), amount(stored), amount(event), {}, {},
            stored.value(u"paidAmountMinor"_qs).toDouble()
                != event.value(u"paidAmountMinor"_qs).toDouble(),
            {}});
        ev.lines.append({Tr::tr("currency"), stored.value(u"currency"_qs).toString(),
            event.value(u"currency"_qs).toString(), {}, {},
            stored.value(u"currency"_qs) != event.value(u"currency"_qs), {}});
        const QString sPaid = stored.value(u"paidAt"_qs).toString();
        const QString ePaid = event.value(u"paidAt"_qs).toString();
        ev.lines.append(
            {Tr::tr("paid at"), when(sPaid), when(ePaid), tip(sPaid), tip(ePaid), false, {}});
        ev.lines.append({Tr::tr("provider event"), stored.value(u"providerEventId"_qs).toString(),
            event.value(u"providerEventId"_qs).toString(), {}, {}, false, {}});
        QStringList differing;
        for (const auto &l : std::as_const(ev.lines)) {
            if (l.differs)
                differing << l.field;
        }
        ev.finding = differing.isEmpty()
            ? Tr::tr("The stored renewal and the incoming event now agree: re-applying should "
                     "find it already applied.")
            : Tr::tr("The provider sent renewal key %1 again with a different %2. The stored "
                     "billing period is kept until someone decides.")
                  .arg(event.value(u"providerRenewalKey"_qs).toString(), differing.join(u", "_qs));
        return ev;
    }

    if (errorCode == u"statement_object_unreadable") {
        // The statement's side is the object as far as it could be read; the desk's side is
        // what is recorded under its id, if anything.
        const QJsonObject u = event.value(u"unreadable"_qs).toObject();
        const QJsonObject recorded = local.value(u"recordedBillingPeriod"_qs).toObject();
        const QJsonObject period = recorded.value(u"period"_qs).toObject();
        const QString key = event.value(u"providerRenewalKey"_qs).toString();
        ev.incomingTitle = Tr::tr("statement object");
        ev.localTitle = recorded.isEmpty() ? Tr::tr("nothing recorded under its id")
                                           : Tr::tr("recorded under its id");
        ev.lines.append({Tr::tr("object"), recorded.value(u"providerRenewalKey"_qs).toString(), key,
            {}, {}, false, {}});
        ev.lines.append({Tr::tr("file"), {},
            Tr::tr("%1, object %2")
                .arg(u.value(u"file"_qs).toString())
                .arg(u.value(u"index"_qs).toInteger()),
            {}, {}, false, {}});
        ev.lines.append({Tr::tr("where"), {}, u.value(u"where"_qs).toString(), {}, {}, false, {}});
        ev.lines.append(
            {Tr::tr("problem"), {}, u.value(u"problem"_qs).toString(), {}, {}, false, {}});
        if (!recorded.isEmpty()) {
            const QString start = period.value(u"start"_qs).toString();
            const QString end = period.value(u"end"_qs).toString();
            ev.lines.append({Tr::tr("period start"), when(start), {}, tip(start), {}, false, {}});
            ev.lines.append({Tr::tr("period end"), when(end), {}, tip(end), {}, false, {}});
            ev.lines.append({Tr::tr("amount"), amount(recorded), {}, {}, {}, false, {}});
        }
        ev.finding = Tr::tr("A provider statement lists object %1, which the desk could not "
                            "read: %2")
                         .arg(key, u.value(u"problem"_qs).toString());
        return ev;
    }

    if (event.contains(u"movements"_qs)) {
        // Money back (#40): the movements the delivery reported beside the renewal they name,
        // when it was found.
        const QJsonObject renewal = local.value(u"billingPeriod"_qs).toObject();
        ev.incomingTitle = Tr::tr("money back reported");
        ev.localTitle = renewal.isEmpty() ? Tr::tr("no recorded renewal names it")
                                          : Tr::tr("the renewal it pays back");
        if (!renewal.isEmpty()) {
            ev.lines.append({Tr::tr("renewal key"),
                renewal.value(u"providerRenewalKey"_qs).toString(), {}, {}, {}, false, {}});
            ev.lines.append({Tr::tr("amount paid"), amount(renewal), {}, {}, {}, false, {}});
            if (local.contains(u"moneyBackMinor"_qs))
                ev.lines.append({Tr::tr("money back so far"),
                    format::money(qint64(local.value(u"moneyBackMinor"_qs).toDouble()),
                        renewal.value(u"currency"_qs).toString()),
                    {}, {}, {}, errorCode == u"refund_exceeds_payment", {}});
        }
        const QJsonObject conflicting = local.value(u"conflictingMovement"_qs).toObject();
        if (!conflicting.isEmpty())
            ev.lines.append({Tr::tr("recorded movement"),
                format::money(qint64(conflicting.value(u"amount_minor"_qs).toDouble()),
                    conflicting.value(u"currency"_qs).toString()),
                {}, {}, {}, true, {}});
        const QJsonArray movements = event.value(u"movements"_qs).toArray();
        QStringList keys;
        for (const auto &value : movements) {
            const QJsonObject m = value.toObject();
            const QString at = m.value(u"occurredAt"_qs).toString();
            keys << m.value(u"movementKey"_qs).toString();
            ev.lines.append({format::storedWord(m.value(u"kind"_qs).toString()), {},
                format::money(qint64(m.value(u"amountMinor"_qs).toDouble()),
                    m.value(u"currency"_qs).toString())
                    + u" · "_qs + when(at),
                {}, tip(at), false, {}});
            QStringList refs;
            for (const auto &ref : m.value(u"renewalRefs"_qs).toArray())
                refs << ref.toString();
            ev.lines.append(
                {Tr::tr("names the renewal by"), {}, refs.join(u", "_qs), {}, {}, false, {}});
        }
        keys.removeDuplicates();
        const QString key = keys.join(u", "_qs);
        ev.finding = errorCode == u"refund_without_renewal"
            ? Tr::tr("Money back %1 names a renewal the desk has not recorded (yet).").arg(key)
            : errorCode == u"refund_exceeds_payment"
            ? Tr::tr("Money back %1 would take more back than the renewal paid.").arg(key)
            : Tr::tr("Money back %1 differs from what is recorded under its id.").arg(key);
        return ev;
    }

    const QJsonObject current = local.value(u"currentPeriod"_qs).toObject();
    const QString cStart = current.value(u"start"_qs).toString();
    const QString cEnd = current.value(u"end"_qs).toString();
    // A subscription the desk does not hold has no status and no cancellation to show: "cancels
    // at period end: no" would describe a subscription that does not exist.
    const bool hasSubscription
        = errorCode != u"subscription_not_found" && local.contains(u"status"_qs);
    ev.localTitle
        = hasSubscription ? Tr::tr("current period") : Tr::tr("no subscription in the desk");
    if (hasSubscription) {
        ev.lines.append({Tr::tr("status"), local.value(u"status"_qs).toString(), {}, {}, {},
            errorCode == u"renewal_not_allowed_for_subscription_status", {}});
        ev.lines.append({Tr::tr("cancels at period end"),
            local.value(u"cancelAtPeriodEnd"_qs).toBool() ? Tr::tr("yes") : Tr::tr("no"), {}, {},
            {}, errorCode == u"renewal_conflicts_with_scheduled_cancellation", {}});
    }
    ev.lines.append({Tr::tr("period start"), when(cStart), when(eventStart), tip(cStart),
        tip(eventStart), false, {}});
    ev.lines.append(
        {Tr::tr("period end"), when(cEnd), when(eventEnd), tip(cEnd), tip(eventEnd), false, {}});
    ev.lines.append({Tr::tr("amount"), {}, amount(event), {}, {}, false, {}});
    ev.lines.append({Tr::tr("provider event"), {}, event.value(u"providerEventId"_qs).toString(),
        {}, {}, false, {}});

    if (errorCode == u"renewal_period_is_not_contiguous" && !cEnd.isEmpty()) {
        // The renewal must start exactly where the current period ends.
        const QString gap
            = format::gapDescription(format::instant(cEnd), format::instant(eventStart));
        ev.lines.insert(3,
            {Tr::tr("continuity"), Tr::tr("ends %1").arg(when(cEnd)),
                Tr::tr("starts %1").arg(when(eventStart)), tip(cEnd), tip(eventStart), true, gap});
        ev.finding = Tr::tr("The renewal does not continue the current period: %1 between the "
                            "current period's end (%2) and the renewal's start (%3).")
                         .arg(gap, when(cEnd), when(eventStart));
    } else if (errorCode == u"subscription_has_no_current_period") {
        ev.finding = Tr::tr("The subscription has no current period to renew.");
    } else if (errorCode == u"renewal_not_allowed_for_subscription_status") {
        ev.finding = Tr::tr("Only an active subscription renews; this one is %1.")
                         .arg(local.value(u"status"_qs).toString());
    } else if (errorCode == u"renewal_conflicts_with_scheduled_cancellation") {
        ev.finding = Tr::tr("The provider renewed a subscription that the desk holds as set to "
                            "cancel at the end of its period.");
    } else if (errorCode == u"subscription_not_found") {
        ev.finding = Tr::tr("No subscription %1 of %2 is known to the desk, so there is nothing to "
                            "renew.")
                         .arg(event.value(u"providerSubscriptionId"_qs).toString(),
                             event.value(u"providerKey"_qs).toString());
    } else if (errorCode == u"needs_snapshot") {
        // The reason is in the queue's column already: the finding says what it means, the
        // next step what to do.
        ev.finding = Tr::tr("The provider's message does not say which period was paid, so the "
                            "desk cannot renew from it.");
    } else if (errorCode == u"invalid_provider_billing_period") {
        ev.finding = Tr::tr("The provider sent a period that ends before it starts (%1 → %2), so "
                            "nothing was recorded.")
                         .arg(when(eventStart), when(eventEnd));
    } else if (errorCode == u"statement_disagrees") {
        ev.finding
            = Tr::tr("A provider statement lists this renewal with another amount, currency, "
                     "period or subscription than the one recorded.");
    } else if (errorCode == u"not_in_statement") {
        ev.finding = Tr::tr("The renewal is recorded here and paid on a day a provider statement "
                            "covers, but the statement does not list it.");
    } else {
        ev.finding = format::humanize(errorCode) + u'.';
    }
    return ev;
}

} // namespace

CaseEvidence buildCaseEvidence(const QString &errorCode, const QString &eventJson,
    const QString &localStateJson, bool subscriptionInDeskNow)
{
    CaseEvidence ev = evidenceLines(errorCode, eventJson, localStateJson);
    // local_state is the desk's state when the case opened: a subscription created since (by
    // the case's snapshot, an import) is in the desk now, which the title must not deny (#42,
    // 12).
    if (subscriptionInDeskNow && ev.localTitle == Tr::tr("no subscription in the desk"))
        ev.localTitle = Tr::tr("no subscription in the desk when the case opened (it is now)");
    ev.nextStep = nextStep(errorCode);
    for (auto &line : ev.lines) {
        if (line.differs && line.note.isEmpty()) // a line may say more (the gap's size)
            line.note = line.other.isEmpty() ? Tr::tr("blocks the renewal") : Tr::tr("differs");
    }
    return ev;
}

} // namespace rd::ui
