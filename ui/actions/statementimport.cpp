#include "ui/actions/statementimport.h"

#include "ui/actions/jsonfields.h"

#include "domain/core/errors.h"
#include "domain/store/operator_session.h"
#include "domain/store/statement_import.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::StatementImport)
};

} // namespace

namespace {

// The CLI's totals (rd::statementTotalsText), or "none" in the desk's language.
QString totalsText(const nlohmann::json &totals)
{
    const std::string text = rd::statementTotalsText(totals);
    return text.empty() ? Tr::tr("none") : QString::fromStdString(text);
}

std::optional<std::string> dayOrNothing(const QString &day)
{
    return day.isEmpty() ? std::nullopt : std::optional(day.toStdString());
}

} // namespace

QString statementImportText(const rd::StatementImportResult &r)
{
    const auto &s = r.summary;
    QString out;
    const auto line = [&out](const QString &l) { out += l + u'\n'; };
    const auto &repeats = s.value("repeats", nlohmann::json());
    if (r.alreadyImported && repeats.is_object())
        line(Tr::tr("This statement was imported already, as run %1 by %2 at %3; compared again "
                    "with today's ledger:")
                 .arg(jsonText(repeats, "runId"), jsonText(repeats, "importedBy"),
                     jsonText(repeats, "finishedAt")));
    // A dry run's run has no number (a preview takes none, #42, 12).
    line(r.dryRun ? Tr::tr("Preview, rolled back (a dry run): nothing is kept")
                  : Tr::tr("Statement run %1").arg(r.runId()));
    const QString completeness = jsonText(s, "completeness");
    const bool unproven = completeness == u"unproven";
    if (completeness == u"fetched")
        line(u"  "_qs + Tr::tr("complete: every page fetched from the provider's API in this run"));
    else if (completeness == u"manifest")
        line(u"  "_qs + Tr::tr("complete: every page checked against the fetch's manifest"));
    else if (completeness == u"stated")
        line(u"  "_qs
            + Tr::tr("complete as stated by %1 (--pages-complete), not proven")
                  .arg(jsonText(s, "importedBy")));
    else if (unproven)
        line(u"  "_qs
            + Tr::tr("completeness NOT PROVEN (pages without the manifest `statement fetch "
                     "--save` writes): nothing is looked for as missing from it, and it cannot "
                     "close a month; import it with its manifest, fetch it, or state "
                     "--pages-complete"));
    const auto files = s.value("files", nlohmann::json::array());
    line(u"  "_qs
        + Tr::tr("provider %1, paid %2 to %3 (UTC, both included), %4 file(s), %5 object(s)")
              .arg(jsonText(s, "providerKey"), jsonText(s, "from"), jsonText(s, "to"),
                  QString::number(files.is_array() ? files.size() : 0),
                  QString::number(jsonInteger(s, "objects"))));
    line(u"  "_qs + Tr::tr("renewals in the statement: %1").arg(jsonInteger(s, "renewals")));
    line(u"    "_qs
        + Tr::tr("matched %1, backfilled %2, not applied (cases) %3, differing %4")
              .arg(jsonInteger(s, "matched"))
              .arg(jsonInteger(s, "backfilled"))
              .arg(jsonInteger(s, "unapplied"))
              .arg(jsonInteger(s, "differing")));
    if (jsonInteger(s, "unreadable") > 0)
        line(u"  "_qs
            + Tr::tr("objects that could not be read (a case each): %1")
                  .arg(jsonInteger(s, "unreadable")));
    line(u"  "_qs
        + Tr::tr("recorded here but not in the statement: %1")
              .arg(unproven ? Tr::tr("not looked for (completeness not proven)")
                            : QString::number(jsonInteger(s, "notInStatement"))));
    line(u"  "_qs
        + Tr::tr("totals, statement: %1")
              .arg(totalsText(s.value("statementTotals", nlohmann::json()))));
    line(u"  "_qs
        + Tr::tr("totals, ledger:    %1")
              .arg(totalsText(s.value("ledgerTotals", nlohmann::json()))));
    const auto &moneyBack = s.value("moneyBack", nlohmann::json());
    if (moneyBack.is_object()) {
        const auto sums = [](const nlohmann::json &totals) {
            const std::string text = rd::statementMoneyBackText(
                totals, Tr::tr("refunded").toStdString(), Tr::tr("disputed").toStdString());
            return text.empty() ? Tr::tr("none") : QString::fromStdString(text);
        };
        line(u"  "_qs
            + Tr::tr("money back in the statement: %1 (refunds, disputes and their reversals)")
                  .arg(jsonInteger(moneyBack, "lines")));
        line(u"    "_qs
            + Tr::tr("matched %1, backfilled %2, not applied (cases) %3, differing %4")
                  .arg(jsonInteger(moneyBack, "matched"))
                  .arg(jsonInteger(moneyBack, "backfilled"))
                  .arg(jsonInteger(moneyBack, "unapplied"))
                  .arg(jsonInteger(moneyBack, "differing")));
        line(u"  "_qs
            + Tr::tr("money back recorded here but not in the statement: %1")
                  .arg(unproven ? Tr::tr("not looked for (completeness not proven)")
                          : !moneyBack.value("listed", false)
                          ? Tr::tr("not looked for (not every money back list is here)")
                          : QString::number(jsonInteger(moneyBack, "notInStatement"))));
        line(u"  "_qs
            + Tr::tr("money back, statement: %1")
                  .arg(sums(moneyBack.value("statementTotals", nlohmann::json()))));
        line(u"  "_qs
            + Tr::tr("money back, ledger:    %1")
                  .arg(sums(moneyBack.value("ledgerTotals", nlohmann::json()))));
    }
    const auto &closed = s.value("closedMonths", nlohmann::json());
    if (closed.is_array() && !closed.empty()) {
        for (const auto &m : closed)
            line(u"  "_qs
                + Tr::tr("%1 is closed for this provider (by %2 at %3): its close report stays "
                         "as it was")
                      .arg(jsonText(m, "month"), jsonText(m, "closedBy"), jsonText(m, "closedAt")));
        line(u"  "_qs
            + Tr::tr("backfilled after close: %1 (marked \"after close\" in the Ledger, as any "
                     "renewal recorded late)")
                  .arg(jsonInteger(s, "backfilledAfterClose")));
    }
    if (r.openFindings.empty()) {
        line(u"  "_qs + Tr::tr("nothing is left open"));
        return out;
    }
    line(u"  "_qs + Tr::tr("open cases: %1").arg(r.openFindings.size()));
    for (const auto &f : r.openFindings)
        line(u"    "_qs
            + Tr::tr("case %1  %2  %3  (subscription %4): %5")
                  .arg(jsonText(f, "caseId"), jsonText(f, "finding"),
                      jsonText(f, "providerRenewalKey"), jsonText(f, "providerSubscriptionId"),
                      jsonText(f, "errorCode")));
    return out;
}

StatementImportResult importStatement(
    const std::string &conninfo, const StatementImportRequest &request)
{
    using Kind = ActionResult::Kind;
    StatementImportResult result = answerOf(u"%1"_qs, [&] {
        StatementImportResult report;
        report.dryRun = request.dryRun;
        std::vector<StatementFile> files;
        for (const auto &path : request.files) {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly)) {
                report.kind = Kind::Refused;
                report.code = u"unreadable_file"_qs;
                report.summary = Tr::tr("Cannot read %1: %2").arg(path, f.errorString());
                return report;
            }
            const QByteArray bytes = f.readAll();
            files.push_back({QFileInfo(path).fileName().toStdString(), bytes.toStdString()});
        }
        try {
            OperatorSession session(conninfo);
            const auto imported = session.run([&](DbRef db) {
                return importStatementFiles(db, request.providerKey.toStdString(), files,
                    dayOrNothing(request.from), dayOrNothing(request.to), request.dryRun);
            });
            report.kind = Kind::Done;
            report.code = imported.alreadyImported ? u"already_imported"_qs : u"imported"_qs;
            report.runId = imported.runId();
            report.openCases = static_cast<qint64>(imported.openFindings.size());
            report.summary = statementImportText(imported);
        } catch (const ActionRefused &e) {
            // With its code ("statement_overlaps: ..."), as the CLI prints it.
            static_cast<ActionResult &>(report) = ActionResult::refused(e);
            report.summary = report.code + u": "_qs + report.summary;
        } catch (const InputError &e) {
            report.kind = Kind::Refused;
            report.code = u"unreadable_statement"_qs;
            report.summary
                = Tr::tr("The statement cannot be read: %1").arg(QString::fromStdString(e.what()));
        }
        return report;
    });
    result.dryRun = request.dryRun;
    return result;
}

QFuture<StatementImportResult> importStatementAsync(
    const QString &conninfo, const StatementImportRequest &request)
{
    return QtConcurrent::run([conninfo = conninfo.toStdString(), request] {
        return importStatement(conninfo, request);
    });
}

} // namespace rd::ui
