#include "ui/actions/caseactions.h"

#include "ui/models/format.h"
#include "ui/models/snapshotinput.h"

#include "domain/core/adapters/normalization.h"
#include "domain/core/errors.h"
#include "domain/core/operator_note.h"
#include "domain/core/renewal_event.h"
#include "domain/store/action_refused.h"
#include "domain/store/case_actions.h"
#include "domain/store/operator_session.h"
#include "domain/store/snapshot_attachment_text.h"

#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtConcurrent/QtConcurrentRun>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::CaseActions)
};

rd::OperatorNote noteFor(const CaseActionRequest &request)
{
    return {request.reason.toStdString(), request.comment.trimmed().toStdString()};
}

/// The period an action left the subscription in, as the action answered it ("period now ...").
QString periodText(const std::optional<rd::CurrentPeriod> &period)
{
    if (!period)
        return Tr::tr("no current period");
    return format::period(format::instant(QString::fromStdString(period->start)),
        format::instant(QString::fromStdString(period->end)));
}

class DomainCaseActions final : public CaseActions
{
public:
    explicit DomainCaseActions(QString conninfo) : m_conninfo(std::move(conninfo)) { }

    bool isAvailable(Action) const override { return true; }
    QString unavailableReason(Action) const override { return {}; }

    QFuture<ActionResult> run(Action action, const CaseActionRequest &request) override
    {
        // Off the GUI thread, on a connection of its own; the database decides, as the
        // connection's login role, and refuses what that role may not do.
        return QtConcurrent::run([conninfo = m_conninfo.toStdString(), action, request] {
            return runCaseAction(conninfo, action, request);
        });
    }

    QFuture<SnapshotVerdict> preview(qint64 caseId, const QString &snapshotJson) override
    {
        return QtConcurrent::run([conninfo = m_conninfo.toStdString(), caseId, snapshotJson] {
            return previewSnapshot(conninfo, caseId, snapshotJson);
        });
    }

private:
    QString m_conninfo;
};

/// A rejection code as people read it ("Renewal period is not contiguous").
QString rejectionText(const std::optional<rd::RejectionCode> &code)
{
    return code ? format::humanize(QString::fromStdString(std::string(rd::toString(*code))))
                : QString();
}

} // namespace

QString reapplyBlockedReason(const QString &eventJson)
{
    // The database's own test (reapply_case, rd_case_is_applicable): a period object.
    const QJsonObject event = QJsonDocument::fromJson(eventJson.toUtf8()).object();
    // Money back (#40) goes through the movement's own function: always re-appliable.
    if (event.value(u"period"_qs).isObject() || event.value(u"movements"_qs).isArray())
        return {};
    return Tr::tr(
        "The provider's message does not say which period was paid, so the renewal core "
        "cannot apply it: attach a provider snapshot instead (Attach provider snapshot…).");
}

QString snapshotBlockedReason(const QString &eventJson)
{
    // attach_provider_snapshot's own test: a case about money back.
    const QJsonObject event = QJsonDocument::fromJson(eventJson.toUtf8()).object();
    if (!event.value(u"movements"_qs).isArray())
        return {};
    return Tr::tr("A provider snapshot records renewals, never refunds or disputes: re-apply "
                  "the case once its renewal is recorded, or dismiss it with a note.");
}

namespace {

ActionResult reapply(const std::string &conninfo, const CaseActionRequest &request)
{
    using Kind = ActionResult::Kind;
    return answerOf(Tr::tr("Could not re-apply: %1"), [&] {
        rd::OperatorSession session(conninfo);
        const auto result = session.run(
            [&](rd::DbRef db) { return rd::reapplyCase(db, request.caseId, noteFor(request)); });
        if (!result.resolved()) {
            const QString code = result.rejection
                ? QString::fromStdString(std::string(rd::toString(*result.rejection)))
                : QString();
            return ActionResult {Kind::StillOpen,
                Tr::tr("Still rejected: %1. The case stays open.").arg(format::humanize(code)),
                code};
        }
        const QString now = periodText(result.periodAfter);
        const bool applied = result.outcome == rd::ApplyOutcome::Applied;
        const QString summary
            = (applied ? Tr::tr("Applied: period now %1.").arg(now)
                       : Tr::tr("Already applied: the renewal was recorded before; "
                                "period now %1.")
                             .arg(now))
            + u' ' + Tr::tr("Case %1 resolved.").arg(request.caseId);
        return ActionResult {Kind::Resolved, summary, applied ? u"applied"_qs : u"duplicate"_qs};
    });
}

ActionResult dismiss(const std::string &conninfo, const CaseActionRequest &request)
{
    return answerOf(Tr::tr("Could not dismiss: %1"), [&] {
        rd::OperatorSession session(conninfo);
        session.run(
            [&](rd::DbRef db) { return rd::dismissCase(db, request.caseId, noteFor(request)); });
        return ActionResult {ActionResult::Kind::Resolved,
            Tr::tr("Case %1 dismissed.").arg(request.caseId), u"dismissed"_qs};
    });
}

/// A name the database spells ("already_yours"), as ActionResult::code carries it.
QString codeOf(std::string_view name)
{
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

ActionResult claim(const std::string &conninfo, const CaseActionRequest &request)
{
    return answerOf(Tr::tr("Could not claim: %1"), [&] {
        rd::OperatorSession session(conninfo);
        const auto r = session.run([&](rd::DbRef db) {
            return rd::claimCase(db, request.caseId, request.comment.trimmed().toStdString());
        });
        const QString code = codeOf(rd::toString(r.outcome));
        if (r.outcome == rd::ClaimOutcome::AlreadyYours)
            return ActionResult {ActionResult::Kind::Done,
                Tr::tr("Case %1 was already assigned to you.").arg(request.caseId), code};
        return ActionResult {ActionResult::Kind::Done,
            r.takenFrom.empty() ? Tr::tr("Case %1 is assigned to you.").arg(request.caseId)
                                : Tr::tr("Case %1 is assigned to you (taken over from %2).")
                                      .arg(request.caseId)
                                      .arg(QString::fromStdString(r.takenFrom)),
            code};
    });
}

ActionResult release(const std::string &conninfo, const CaseActionRequest &request)
{
    return answerOf(Tr::tr("Could not release: %1"), [&] {
        rd::OperatorSession session(conninfo);
        const auto r = session.run([&](rd::DbRef db) {
            return rd::releaseCase(db, request.caseId, request.comment.trimmed().toStdString());
        });
        const QString code = codeOf(rd::toString(r.outcome));
        if (r.outcome == rd::ReleaseOutcome::NotClaimed)
            return ActionResult {ActionResult::Kind::Done,
                Tr::tr("Case %1 was not assigned to anyone.").arg(request.caseId), code};
        return ActionResult {ActionResult::Kind::Done,
            Tr::tr("Case %1 is back in the queue (it was assigned to %2).")
                .arg(request.caseId)
                .arg(QString::fromStdString(r.releasedFrom)),
            code};
    });
}

ActionResult note(const std::string &conninfo, const CaseActionRequest &request)
{
    return answerOf(Tr::tr("Could not add the note: %1"), [&] {
        rd::OperatorSession session(conninfo);
        session.run([&](rd::DbRef db) {
            return rd::noteCase(db, request.caseId, request.comment.trimmed().toStdString());
        });
        return ActionResult {ActionResult::Kind::Done,
            Tr::tr("Note added to case %1.").arg(request.caseId), u"noted"_qs};
    });
}

ActionResult reopen(const std::string &conninfo, const CaseActionRequest &request)
{
    return answerOf(Tr::tr("Could not reopen: %1"), [&] {
        rd::OperatorSession session(conninfo);
        const auto r = session.run([&](rd::DbRef db) {
            return rd::reopenCase(db, request.caseId, request.comment.trimmed().toStdString());
        });
        return ActionResult {ActionResult::Kind::Done,
            r.dismissedBy.empty()
                ? Tr::tr("Case %1 is open again, back in the queue.").arg(request.caseId)
                : Tr::tr("Case %1 is open again, back in the queue (dismissed by %2).")
                      .arg(request.caseId)
                      .arg(QString::fromStdString(r.dismissedBy)),
            u"reopened"_qs};
    });
}

} // namespace

namespace {

rd::ProviderSnapshot snapshotFromText(
    rd::OperatorSession &session, qint64 caseId, const QString &text)
{
    // A provider's own subscription object is read for the case's provider; a snapshot in
    // Renewal Desk's form names its provider itself and may be attached without a case.
    std::string providerKey;
    std::optional<rd::ProviderKind> kind;
    if (caseId > 0) {
        const auto provider = session.providerOfCase(caseId);
        providerKey = provider.providerKey;
        if (provider.kind)
            kind = rd::providerKindFromString(*provider.kind);
    }
    return readSnapshotText(text.toStdString(), providerKey, kind, rd::Timestamp::now());
}

std::optional<std::int64_t> optionalCase(qint64 caseId)
{
    return caseId > 0 ? std::optional<std::int64_t>(caseId) : std::nullopt;
}

/// One value of the subscription's state (rd_subscription_state_json) in the desk's words.
QString stateValueText(const std::string &field, const nlohmann::json &value)
{
    if (value.is_null())
        return field == "currentPeriod" ? Tr::tr("no current period") : Tr::tr("none");
    if (field == "currentPeriod" && value.is_object()) {
        const auto end = [&](const char *key) {
            return format::instant(value.contains(key) && value[key].is_string()
                    ? QString::fromStdString(value[key].get<std::string>())
                    : QString());
        };
        return format::period(end("start"), end("end"));
    }
    if (value.is_boolean())
        return value.get<bool>() ? Tr::tr("yes") : Tr::tr("no");
    if (value.is_string())
        return QString::fromStdString(value.get<std::string>());
    return QString::fromStdString(value.dump());
}

/// "current period 18 Sep → 18 Oct 2026, now 18 Oct → 18 Nov 2026": one change a snapshot
/// made, as the operator reads it (never the database's JSON).
QString changeText(
    const std::string &field, const nlohmann::json &before, const nlohmann::json &after)
{
    static const QHash<QString, const char *> names {
        {u"status"_qs, QT_TRANSLATE_NOOP("rd::ui::CaseActions", "status")},
        {u"currentPeriod"_qs, QT_TRANSLATE_NOOP("rd::ui::CaseActions", "current period")},
        {u"cancelAtPeriodEnd"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseActions", "cancels at period end")},
        {u"providerVersion"_qs, QT_TRANSLATE_NOOP("rd::ui::CaseActions", "provider version")},
    };
    const QString key = QString::fromStdString(field);
    const auto name = names.constFind(key);
    const QString label = name != names.cend() ? Tr::tr(*name) : format::humanize(key).toLower();
    return Tr::tr("%1 was %2, now %3")
        .arg(label, stateValueText(field, before), stateValueText(field, after));
}

// What became (or would become) of renewals, as sentences (the CLI prints the same ones):
// the case's renewal recorded from the snapshot, why it is not, the renewals left behind.
QString renewalWords(const rd::SnapshotAttachment &a, bool preview)
{
    QStringList out;
    for (const auto &sentence : rd::renewalSentences(a, preview)) {
        QString text = QString::fromStdString(sentence);
        text[0] = text[0].toUpper();
        out << text + u'.';
    }
    return out.join(u' ');
}

// `text` and `more`, one space between them when both have something.
QString joined(const QString &text, const QString &more)
{
    return more.isEmpty() ? text : text.isEmpty() ? more : text + u' ' + more;
}

/// Attaches the request's snapshot; throws what the store throws, InputError for a snapshot
/// that cannot be read.
ActionResult attachSnapshotOrThrow(const std::string &conninfo, const CaseActionRequest &request)
{
    using Kind = ActionResult::Kind;
    rd::OperatorSession session(conninfo);
    const auto snapshot = snapshotFromText(session, request.caseId, request.snapshotJson);
    const auto result = session.run([&](rd::DbRef db) {
        return rd::attachSnapshot(db, snapshot, optionalCase(request.caseId), noteFor(request));
    });
    // What became of the case is the database's judgment of its renewal after the snapshot.
    const auto &caseResult = result.caseAfter;
    const bool stillOpen = caseResult && !caseResult->resolved;
    const Kind kind = stillOpen ? Kind::StillOpen : Kind::Resolved;
    const QString code = stillOpen && caseResult->rejection
        ? QString::fromStdString(std::string(rd::toString(*caseResult->rejection)))
        : QString::fromStdString(std::string(rd::toString(result.outcome)));
    QString caseSentence;
    if (caseResult)
        caseSentence = stillOpen ? Tr::tr("Case %1 stays open: its renewal is still rejected (%2).")
                                       .arg(request.caseId)
                                       .arg(rejectionText(caseResult->rejection))
            : caseResult->renewalOutcome == rd::ApplyOutcome::Applied
            ? Tr::tr("Case %1 resolved: its renewal was applied.").arg(request.caseId)
            : result.renewalFromCase
            ? Tr::tr("Case %1 resolved: the snapshot recorded its renewal.").arg(request.caseId)
            : Tr::tr("Case %1 resolved: its renewal is recorded.").arg(request.caseId);
    caseSentence = joined(caseSentence, renewalWords(result, false));
    if (result.outcome == rd::SnapshotAttachment::Outcome::Unchanged)
        return ActionResult {kind,
            Tr::tr("The same snapshot was attached before: nothing changed.") + u' ' + caseSentence,
            code};
    QStringList changes;
    for (const auto &[field, change] : result.changes.items())
        changes << changeText(field, change["before"], change["after"]);
    QString summary
        = Tr::tr("Snapshot attached: period now %1.").arg(periodText(result.periodAfter));
    if (!changes.isEmpty())
        summary += u' ' + Tr::tr("Changed: %1.").arg(changes.join(u"; "_qs));
    if (!caseSentence.isEmpty())
        summary += u' ' + caseSentence;
    if (!result.applicableCases.empty())
        summary += u' '
            + Tr::tr("%n other case(s) can now be re-applied.", nullptr,
                static_cast<int>(result.applicableCases.size()));
    return ActionResult {kind, summary, code};
}

ActionResult attach(const std::string &conninfo, const CaseActionRequest &request)
{
    return answerOf(Tr::tr("Could not attach the snapshot: %1"), [&] {
        try {
            return attachSnapshotOrThrow(conninfo, request);
        } catch (const rd::InputError &e) {
            return ActionResult {ActionResult::Kind::Refused,
                Tr::tr("The snapshot is not valid: %1").arg(QString::fromUtf8(e.what())),
                u"invalid_snapshot"_qs};
        }
    });
}

} // namespace

ActionResult runCaseAction(
    const std::string &conninfo, CaseActions::Action action, const CaseActionRequest &request)
{
    using Action = CaseActions::Action;
    switch (action) {
    case Action::Reapply:
        return reapply(conninfo, request);
    case Action::Dismiss:
        return dismiss(conninfo, request);
    case Action::AttachSnapshot:
        return attach(conninfo, request);
    case Action::Claim:
        return claim(conninfo, request);
    case Action::Release:
        return release(conninfo, request);
    case Action::Note:
        return note(conninfo, request);
    case Action::Reopen:
        return reopen(conninfo, request);
    }
    return ActionResult::failed(Tr::tr("Unknown case action."));
}

namespace {

// A refused preview with its code first ("snapshot_case_mismatch: ..."), in ActionResult's
// words for the refusal.
SnapshotVerdict refusedVerdict(const rd::ActionRefused &refusal)
{
    const ActionResult refused = ActionResult::refused(refusal);
    return {SnapshotVerdict::Kind::Refused, refused.code + u": "_qs + refused.summary};
}

} // namespace

SnapshotVerdict previewSnapshot(
    const std::string &conninfo, qint64 caseId, const QString &snapshotJson)
{
    using Kind = SnapshotVerdict::Kind;
    try {
        rd::OperatorSession session(conninfo);
        const auto snapshot = snapshotFromText(session, caseId, snapshotJson);
        const auto answer = session.run(
            [&](rd::DbRef db) { return rd::previewSnapshot(db, snapshot, optionalCase(caseId)); });
        if (answer.refused)
            return refusedVerdict(*answer.refused);
        const auto &c = answer.wouldBe->caseAfter;
        // Said before anything is written: a renewal recorded from the case, or left behind.
        const QString renewals = renewalWords(*answer.wouldBe, true);
        if (c && c->resolved)
            return {Kind::Verdict,
                joined(c->renewalOutcome == rd::ApplyOutcome::Applied
                        ? Tr::tr("Case %1 will be resolved: its renewal will be applied.")
                              .arg(caseId)
                        : answer.wouldBe->renewalFromCase
                        ? Tr::tr("Case %1 will be resolved: the snapshot records its renewal.")
                              .arg(caseId)
                        : Tr::tr("Case %1 will be resolved: its renewal is recorded.").arg(caseId),
                    renewals)};
        if (c)
            return {Kind::Verdict,
                joined(Tr::tr("Case %1 stays open: its renewal would still be rejected (%2).")
                           .arg(caseId)
                           .arg(rejectionText(c->rejection)),
                    renewals)};
        return {Kind::Verdict, joined(Tr::tr("No case is affected."), renewals)};
    } catch (const rd::ActionRefused &e) {
        return refusedVerdict(e);
    } catch (const std::exception &e) {
        return {Kind::Failed, QString::fromUtf8(e.what())};
    }
}

std::unique_ptr<CaseActions> makeDomainCaseActions(const QString &conninfo)
{
    return std::make_unique<DomainCaseActions>(conninfo);
}

} // namespace rd::ui
