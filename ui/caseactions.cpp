#include "caseactions.h"

#include "format.h"

#include "domain/renewal_event.hpp"
#include "domain/renewal_service.hpp"

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

class DomainCaseActions final : public CaseActions
{
public:
    explicit DomainCaseActions(QString conninfo) : m_conninfo(std::move(conninfo)) { }

    bool isAvailable(Action action) const override { return action == Action::Reapply; }

    QString unavailableReason(Action action) const override
    {
        switch (action) {
        case Action::Reapply:
            return {};
        case Action::Dismiss:
            return tr("Not available in this build: dismissing a case needs the reconciliation "
                      "actions of the core.");
        case Action::AttachSnapshot:
            return tr("Not available in this build: attaching a provider snapshot needs the "
                      "reconciliation actions of the core.");
        }
        return {};
    }

    QFuture<CaseActionOutcome> run(Action action, const CaseActionRequest &request) override
    {
        if (action != Action::Reapply) {
            CaseActionOutcome refused {
                CaseActionOutcome::Kind::Refused, unavailableReason(action), u"unavailable"_qs};
            return QtFuture::makeReadyFuture(refused);
        }
        return QtConcurrent::run([conninfo = m_conninfo.toStdString(), request] {
            return reapplyCase(conninfo, request);
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
        rd::RenewalApplier applier(conninfo);
        auto &conn = applier.connection();
        std::string eventText;
        std::string sessionUser;
        {
            pqxx::read_transaction tx(conn);
            const auto r = tx.exec_params(
                "SELECT event::text, status, session_user FROM reconciliation_cases WHERE id = $1",
                request.caseId);
            if (r.empty())
                return {
                    Kind::Refused, tr("Case %1 does not exist.").arg(request.caseId), "not_found"};
            if (r[0][1].as<std::string>() != "open")
                return {Kind::Refused,
                    tr("Case %1 is already %2.")
                        .arg(request.caseId)
                        .arg(QString::fromStdString(r[0][1].as<std::string>())),
                    "not_open"};
            eventText = r[0][0].as<std::string>();
            sessionUser = r[0][2].as<std::string>();
        }
        const rd::SuccessfulRenewalEvent event
            = rd::renewalEventFromJson(nlohmann::json::parse(eventText));
        const rd::ApplyOutcome outcome = applier.apply(event, rd::Actor {"operator", sessionUser});

        if (outcome.result == rd::ApplyResult::Rejected) {
            return {Kind::StillOpen,
                tr("Still rejected: %1. The case stays open.")
                    .arg(format::humanize(QString::fromStdString(outcome.errorCode))),
                QString::fromStdString("rejected:" + outcome.errorCode)};
        }
        const bool applied = outcome.result == rd::ApplyResult::Applied;
        pqxx::work tx(conn);
        const auto resolved = tx.exec_params(
            "UPDATE reconciliation_cases SET status = 'resolved', resolution = $2, "
            "resolved_at = now(), resolved_by = session_user WHERE id = $1 AND status = 'open'",
            request.caseId, applied ? "reapplied" : "already_applied");
        if (applied) {
            // The operator's reason and comment belong on the renewal's audit row.
            tx.exec_params("UPDATE subscription_transition_audits SET reason = $2, comment = $3 "
                           "WHERE billing_period_id = $1 AND transition = 'subscription_renewed'",
                outcome.billingPeriodId, request.reason.toStdString(),
                request.comment.toStdString());
        }
        const auto period = tx.exec_params1(
            "SELECT rd_rfc3339(current_period_start), rd_rfc3339(current_period_end) "
            "FROM subscriptions WHERE provider_key = $1 AND provider_subscription_id = $2",
            event.providerKey, event.providerSubscriptionId);
        tx.commit();
        const QString now = periodText(period, 0);
        QString summary = applied ? tr("Applied: period now %1.").arg(now)
                                  : tr("Already applied: the renewal was recorded before; "
                                       "period now %1.")
                                        .arg(now);
        if (resolved.affected_rows() == 0)
            summary += u' ' + tr("The case had been closed meanwhile by someone else.");
        else
            summary += u' ' + tr("Case %1 resolved.").arg(request.caseId);
        return {Kind::Resolved, summary, applied ? u"applied"_qs : u"duplicate"_qs};
    } catch (const std::exception &e) {
        return {Kind::Failed, tr("Could not re-apply: %1").arg(QString::fromUtf8(e.what())),
            u"error"_qs};
    }
}

std::unique_ptr<CaseActions> makeDomainCaseActions(const QString &conninfo)
{
    return std::make_unique<DomainCaseActions>(conninfo);
}

} // namespace rd::ui
