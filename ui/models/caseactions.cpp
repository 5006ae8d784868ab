#include "ui/models/caseactions.h"

#include "ui/models/format.h"
#include "ui/models/snapshotinput.h"

#include "domain/core/errors.h"
#include "domain/core/renewal_event.h"
#include "domain/store/case_actions.h"
#include "domain/store/database_target.h"

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

namespace rd::ui {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("CaseActions", text);
}

QString periodText(const pqxx::row &row, int startColumn)
{
    if (row[startColumn].is_null())
        return tr("no current period");
    return format::period(format::instant(QString::fromStdString(row[startColumn].c_str())),
        format::instant(QString::fromStdString(row[startColumn + 1].c_str())));
}

/// The database takes reason codes ("provider_confirmed"); the dialog offers sentences.
std::string reasonCode(const QString &label)
{
    std::string code;
    for (const QChar c : label.toLower()) {
        if (c.isLetterOrNumber() && c.unicode() < 128)
            code += static_cast<char>(c.unicode());
        else if (!code.empty() && code.back() != '_')
            code += '_';
    }
    while (!code.empty() && code.back() == '_')
        code.pop_back();
    if (code.empty() || !(code[0] >= 'a' && code[0] <= 'z'))
        code = "other" + (code.empty() ? std::string() : "_" + code);
    return code.substr(0, 62);
}

rd::OperatorNote noteFor(const CaseActionRequest &request)
{
    return {reasonCode(request.reason), request.comment.trimmed().toStdString()};
}

QString currentPeriod(pqxx::connection &conn, qint64 caseId)
{
    pqxx::read_transaction tx(conn);
    const auto r = tx.exec_params(
        "SELECT rd_rfc3339(s.current_period_start), rd_rfc3339(s.current_period_end) "
        "FROM reconciliation_cases c JOIN subscriptions s ON s.provider_key = c.provider_key "
        "AND s.provider_subscription_id = c.provider_subscription_id WHERE c.id = $1",
        caseId);
    return r.empty() ? tr("no current period") : periodText(r[0], 0);
}

class DomainCaseActions final : public CaseActions
{
public:
    explicit DomainCaseActions(QString conninfo) : m_conninfo(std::move(conninfo)) { }

    bool isAvailable(Action) const override { return true; }
    QString unavailableReason(Action) const override { return {}; }

    QFuture<CaseActionOutcome> run(Action action, const CaseActionRequest &request) override
    {
        // Off the GUI thread, on a connection of its own; the database decides, as the
        // connection's login role, and refuses what that role may not do.
        return QtConcurrent::run([conninfo = m_conninfo.toStdString(), action, request] {
            switch (action) {
            case Action::Reapply:
                return reapplyCase(conninfo, request);
            case Action::Dismiss:
                return dismissCase(conninfo, request);
            case Action::AttachSnapshot:
                return attachSnapshot(conninfo, request);
            }
            return CaseActionOutcome {};
        });
    }

private:
    QString m_conninfo;
};

} // namespace

QStringList caseActionReasons(CaseActions::Action action)
{
    switch (action) {
    case CaseActions::Action::Reapply:
        return {tr("Local state corrected"), tr("Provider confirmed the renewal"),
            tr("Transient rejection"), tr("Other")};
    case CaseActions::Action::Dismiss:
        return {tr("Provider event was wrong"), tr("Duplicate of another case"),
            tr("Handled outside the desk"), tr("Other")};
    case CaseActions::Action::AttachSnapshot:
        return {tr("Provider state fetched"), tr("Customer support request"), tr("Other")};
    }
    return {};
}

CaseActionOutcome reapplyCase(const std::string &conninfo, const CaseActionRequest &request)
{
    using Kind = CaseActionOutcome::Kind;
    try {
        auto conn = rd::connectTo(conninfo);
        const auto result = rd::reapplyCase(*conn, request.caseId, noteFor(request));
        if (!result.resolved()) {
            const std::string error(result.rejection ? rd::toString(*result.rejection) : "");
            return {Kind::StillOpen,
                tr("Still rejected: %1. The case stays open.")
                    .arg(format::humanize(QString::fromStdString(error))),
                QString::fromStdString("rejected:" + error)};
        }
        const QString now = currentPeriod(*conn, request.caseId);
        const bool applied = result.result == rd::ApplyResult::Applied;
        const QString summary = (applied ? tr("Applied: period now %1.").arg(now)
                                         : tr("Already applied: the renewal was recorded before; "
                                              "period now %1.")
                                               .arg(now))
            + u' ' + tr("Case %1 resolved.").arg(request.caseId);
        return {Kind::Resolved, summary, applied ? u"applied"_qs : u"duplicate"_qs};
    } catch (const rd::ActionRefused &e) {
        return {Kind::Refused, QString::fromUtf8(e.what()), QString::fromStdString(e.code())};
    } catch (const std::exception &e) {
        return {Kind::Failed, tr("Could not re-apply: %1").arg(QString::fromUtf8(e.what())),
            u"error"_qs};
    }
}

CaseActionOutcome dismissCase(const std::string &conninfo, const CaseActionRequest &request)
{
    using Kind = CaseActionOutcome::Kind;
    try {
        auto conn = rd::connectTo(conninfo);
        rd::dismissCase(*conn, request.caseId, noteFor(request));
        return {Kind::Resolved, tr("Case %1 dismissed.").arg(request.caseId), u"dismissed"_qs};
    } catch (const rd::ActionRefused &e) {
        return {Kind::Refused, QString::fromUtf8(e.what()), QString::fromStdString(e.code())};
    } catch (const std::exception &e) {
        return {Kind::Failed, tr("Could not dismiss: %1").arg(QString::fromUtf8(e.what())),
            u"error"_qs};
    }
}

rd::ProviderSnapshot snapshotFromText(pqxx::connection &conn, const CaseActionRequest &request)
{
    // A provider's own subscription object is read for the case's provider; a snapshot in
    // Renewal Desk's form names its provider itself and may be attached without a case.
    std::string providerKey;
    std::optional<rd::ProviderKind> kind;
    if (request.caseId > 0) {
        pqxx::read_transaction tx(conn);
        const auto r = tx.exec_params("SELECT c.provider_key, p.kind FROM reconciliation_cases c "
                                      "LEFT JOIN billing_providers p "
                                      "ON p.provider_key = c.provider_key WHERE c.id = $1",
            request.caseId);
        if (r.empty())
            throw rd::ActionRefused(
                rd::Refusal::CaseNotFound, "there is no case " + std::to_string(request.caseId));
        providerKey = r[0][0].as<std::string>();
        if (!r[0][1].is_null())
            kind = rd::providerKindFromString(r[0][1].as<std::string>());
    }
    return readSnapshotText(request.snapshotJson.toStdString(), providerKey, kind, nowTimestamp());
}

CaseActionOutcome attachSnapshot(const std::string &conninfo, const CaseActionRequest &request)
{
    using Kind = CaseActionOutcome::Kind;
    try {
        auto conn = rd::connectTo(conninfo);
        const auto snapshot = snapshotFromText(*conn, request);
        const auto result = rd::attachSnapshot(*conn, snapshot,
            request.caseId > 0 ? std::optional<std::int64_t>(request.caseId) : std::nullopt,
            noteFor(request));
        // What became of the case is the database's judgment of its renewal after the snapshot.
        const auto &caseResult = result.caseAfter;
        const bool stillOpen = caseResult && !caseResult->resolved;
        const Kind kind = stillOpen ? Kind::StillOpen : Kind::Resolved;
        QString caseSentence;
        if (caseResult)
            caseSentence = stillOpen
                ? tr("Case %1 stays open: its renewal is still rejected (%2).")
                      .arg(request.caseId)
                      .arg(format::humanize(QString::fromStdString(caseResult->rejection
                              ? std::string(rd::toString(*caseResult->rejection))
                              : std::string())))
                : caseResult->renewal == rd::ApplyResult::Applied
                ? tr("Case %1 resolved: its renewal was applied.").arg(request.caseId)
                : tr("Case %1 resolved: its renewal is recorded.").arg(request.caseId);
        if (result.result == rd::SnapshotAttachment::Result::Unchanged)
            return {kind,
                tr("The same snapshot was attached before: nothing changed.") + u' ' + caseSentence,
                u"unchanged"_qs};
        QStringList changes;
        for (const auto &[field, change] : result.changes.items())
            changes << tr("%1 %2 → %3")
                           .arg(format::humanize(QString::fromStdString(field)),
                               QString::fromStdString(change["before"].dump()),
                               QString::fromStdString(change["after"].dump()));
        QString summary
            = tr("Snapshot attached: period now %1.").arg(currentPeriod(*conn, request.caseId));
        if (!changes.isEmpty())
            summary += u' ' + tr("Changed: %1.").arg(changes.join(u"; "_qs));
        if (!caseSentence.isEmpty())
            summary += u' ' + caseSentence;
        if (!result.applicableCases.empty())
            summary += u' '
                + QCoreApplication::translate("CaseActions",
                    "%n other case(s) can now be re-applied.", nullptr,
                    static_cast<int>(result.applicableCases.size()));
        return {kind, summary, QString::fromStdString(std::string(rd::toString(result.result)))};
    } catch (const rd::ActionRefused &e) {
        return {Kind::Refused, QString::fromUtf8(e.what()), QString::fromStdString(e.code())};
    } catch (const rd::InputError &e) {
        return {Kind::Refused, tr("The snapshot is not valid: %1").arg(QString::fromUtf8(e.what())),
            u"invalid_snapshot"_qs};
    } catch (const std::exception &e) {
        return {Kind::Failed,
            tr("Could not attach the snapshot: %1").arg(QString::fromUtf8(e.what())), u"error"_qs};
    }
}

std::unique_ptr<CaseActions> makeDomainCaseActions(const QString &conninfo)
{
    return std::make_unique<DomainCaseActions>(conninfo);
}

} // namespace rd::ui
