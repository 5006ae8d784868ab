#include "ui/models/auditdetails.h"

#include "ui/models/format.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimeZone>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::AuditDetails)
};

QString rfc3339(qint64 micros)
{
    return QDateTime::fromMSecsSinceEpoch(micros / 1000, QTimeZone::utc())
        .toString(Qt::ISODateWithMs);
}

struct Shown
{
    QString text;
    QString tooltip;
};

/// One state field in words: a period as "1 Mar → 1 Apr 2026" (UTC in the tooltip), a flag as
/// yes/no, anything else as its text.
Shown show(const QJsonValue &v)
{
    if (v.isUndefined() || v.isNull())
        return {};
    if (v.isObject() && v.toObject().contains(u"start"_qs)) {
        const QDateTime start = format::instant(v.toObject().value(u"start"_qs).toString());
        const QDateTime end = format::instant(v.toObject().value(u"end"_qs).toString());
        return {format::period(start, end), format::utcTooltip(start, end)};
    }
    if (v.isBool())
        return {v.toBool() ? Tr::tr("yes") : Tr::tr("no"), {}};
    if (v.isDouble())
        return {QString::number(v.toInteger()), {}};
    if (v.isString())
        return {v.toString(), {}};
    const QByteArray compact = v.isObject()
        ? QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact)
        : QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
    return {QString::fromUtf8(compact), {}};
}

QString label(const QString &key)
{
    static const QList<std::pair<QString, const char *>> names {
        {u"status"_qs, QT_TRANSLATE_NOOP("rd::ui::AuditDetails", "status")},
        {u"currentPeriod"_qs, QT_TRANSLATE_NOOP("rd::ui::AuditDetails", "current period")},
        {u"cancelAtPeriodEnd"_qs,
            QT_TRANSLATE_NOOP("rd::ui::AuditDetails", "cancels at period end")},
        {u"providerVersion"_qs, QT_TRANSLATE_NOOP("rd::ui::AuditDetails", "provider version")},
        {u"revision"_qs, QT_TRANSLATE_NOOP("rd::ui::AuditDetails", "revision")},
        {u"snapshotId"_qs, QT_TRANSLATE_NOOP("rd::ui::AuditDetails", "provider snapshot")},
        {u"caseId"_qs, QT_TRANSLATE_NOOP("rd::ui::AuditDetails", "case")},
        {u"subscriptionId"_qs,
            QT_TRANSLATE_NOOP("rd::ui::AuditDetails", "subscription (internal id)")},
    };
    for (const auto &[k, name] : names) {
        if (k == key)
            return Tr::tr(name);
    }
    // camelCase -> words
    QString words;
    for (const QChar c : key) {
        if (c.isUpper() && !words.isEmpty())
            words += u' ';
        words += c.toLower();
    }
    return words;
}

} // namespace

QString renewalAfterStateSql(const QString &audit, const QString &subscription)
{
    // The next record of the chain that holds a state before it: a money movement's (#40)
    // holds none, and changes no state. (Not jsonb's "?": Qt reads it as a placeholder.)
    return u"CASE WHEN %1.transition = 'subscription_renewed' THEN coalesce(("
           "SELECT n.details->'before' FROM public.subscription_transition_audits n "
           "WHERE n.subscription_id = %1.subscription_id AND n.chain_seq > %1.chain_seq "
           "AND n.details->'before' IS NOT NULL ORDER BY n.chain_seq LIMIT 1), "
           "jsonb_build_object('revision', %2.revision, 'providerVersion', "
           "%2.provider_version))::text END"_qs.arg(audit, subscription);
}

QVector<ComparisonLine> auditDetailLines(const QString &detailsJson, const QVariant &periodStart,
    const QVariant &periodEnd, const QString &nextStateJson)
{
    const QJsonObject details = QJsonDocument::fromJson(detailsJson.toUtf8()).object();
    const QJsonObject before = details.value(u"before"_qs).toObject();
    QJsonObject after = details.value(u"after"_qs).toObject();
    QString versionNote;
    if (after.isEmpty() && !before.isEmpty() && !periodStart.isNull() && !periodEnd.isNull()) {
        // A renewal records the state before it; the after-state is what it does (migration
        // 0029, step 7): the period it set, revision + 1, and the event's provider version
        // when it carried one, which only the state after it still holds.
        after = before;
        after.insert(u"currentPeriod"_qs,
            QJsonObject {{u"start"_qs, rfc3339(periodStart.toLongLong())},
                {u"end"_qs, rfc3339(periodEnd.toLongLong())}});
        const qint64 revision = before.value(u"revision"_qs).toInteger() + 1;
        after.insert(u"revision"_qs, revision);
        const QJsonObject next = QJsonDocument::fromJson(nextStateJson.toUtf8()).object();
        if (!next.isEmpty() && next.value(u"revision"_qs).toInteger() == revision) {
            after.insert(u"providerVersion"_qs, next.value(u"providerVersion"_qs));
        } else {
            after.remove(u"providerVersion"_qs);
            versionNote = Tr::tr("not recorded");
        }
    }

    QVector<ComparisonLine> lines;
    // The subscription's state, in a fixed order, then any other field either side has.
    QStringList keys {u"status"_qs, u"currentPeriod"_qs, u"cancelAtPeriodEnd"_qs,
        u"providerVersion"_qs, u"revision"_qs};
    for (const QJsonObject &o : {before, after}) {
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (!keys.contains(it.key()) && it.key() != u"subscriptionId")
                keys << it.key();
        }
    }
    const bool hasStates = !before.isEmpty() || !after.isEmpty();
    for (const QString &key : std::as_const(keys)) {
        if (!hasStates || (!before.contains(key) && !after.contains(key)))
            continue;
        Shown b = show(before.value(key));
        Shown a = show(after.value(key));
        if (key == u"status") { // the provider's status word, in the desk's language
            b.text = format::storedWord(b.text);
            a.text = format::storedWord(a.text);
        }
        if (key == u"providerVersion" && !versionNote.isEmpty())
            a = {versionNote,
                Tr::tr("The renewal's provider version is known from the state after it, which a "
                       "later change no longer shows")};
        // Periods compare as what they show: "…00Z" and "…00.000000Z" are one instant.
        // An unknown provider version is not a change.
        const bool unknown = key == u"providerVersion" && !versionNote.isEmpty();
        const bool differs = !after.isEmpty() && !unknown && b.text != a.text;
        lines.append({label(key), b.text, after.isEmpty() ? QString() : a.text, b.tooltip,
            a.tooltip, differs, differs ? Tr::tr("changed") : QString()});
    }

    // What else the record says, in the "after" column.
    if (details.contains(u"paidAmountMinor"_qs))
        lines.append({Tr::tr("amount paid"), {},
            format::money(details.value(u"paidAmountMinor"_qs).toInteger(),
                details.value(u"currency"_qs).toString()),
            {}, details.value(u"currency"_qs).toString(), false, {}});
    if (details.contains(u"changes"_qs)) {
        const QJsonValue changes = details.value(u"changes"_qs);
        QStringList changed;
        if (changes.isArray()) {
            for (const QJsonValue &c : changes.toArray())
                changed << (c.isObject() ? label(c.toObject().value(u"field"_qs).toString())
                                         : label(c.toString()));
        } else if (changes.isObject()) {
            for (const QString &k : changes.toObject().keys())
                changed << label(k);
        }
        changed.removeAll(QString());
        lines.append({Tr::tr("fields changed"), {},
            changed.isEmpty() ? Tr::tr("none") : changed.join(u", "_qs), {}, {}, false, {}});
    }
    for (auto it = details.begin(); it != details.end(); ++it) {
        static const QStringList shown {
            u"before"_qs, u"after"_qs, u"paidAmountMinor"_qs, u"currency"_qs, u"changes"_qs};
        if (shown.contains(it.key()))
            continue;
        lines.append({label(it.key()), {}, show(it.value()).text, {}, {}, false, {}});
    }
    return lines;
}

QVector<ComparisonLine> caseEntryLines(const CaseEntry &e)
{
    QVector<ComparisonLine> lines;
    const auto add = [&lines](const QString &field, const QString &value) {
        if (!value.isEmpty())
            lines.append({field, {}, value, {}, {}, false, {}});
    };
    add(Tr::tr("case"), QString::number(e.caseId));
    add(Tr::tr("subscription"),
        e.subscription.isEmpty() ? QString() : e.provider + u" · "_qs + e.subscription);
    add(Tr::tr("renewal key"), e.renewalKey);
    add(Tr::tr("action"), format::humanize(e.action));
    add(Tr::tr("outcome"), e.outcome == e.action ? QString() : format::humanize(e.outcome));
    add(Tr::tr("by"), e.actor);
    add(Tr::tr("reason"), e.reason.isEmpty() ? QString() : format::humanize(e.reason));
    add(Tr::tr("note"), e.comment);
    const QJsonObject details = QJsonDocument::fromJson(e.detailsJson.toUtf8()).object();
    for (auto it = details.begin(); it != details.end(); ++it) {
        if (it.key() == u"caseId")
            continue;
        add(label(it.key()), show(it.value()).text);
    }
    return lines;
}

} // namespace rd::ui
