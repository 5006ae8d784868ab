#include "ui/models/statementimport.h"

#include "domain/core/currency.h"
#include "domain/core/errors.h"
#include "domain/store/action_refused.h"
#include "domain/store/operator_session.h"
#include "domain/store/provider_registry.h"

#include <QFile>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

namespace rd::ui {
namespace {

QString totalsLine(const nlohmann::json &totals)
{
    if (!totals.is_object() || totals.empty())
        return QObject::tr("none");
    QStringList parts;
    for (const auto &[currency, t] : totals.items()) {
        const auto amount = t.value("amountMinor", nlohmann::json());
        const std::int64_t minor = amount.is_number_integer() ? amount.get<std::int64_t>() : 0;
        parts << QObject::tr("%1 × %2 %3")
                     .arg(t.value("renewals", 0))
                     .arg(QString::fromStdString(currency),
                         QString::fromStdString(formatMinorUnits(minor, currency)));
    }
    return parts.join(QStringLiteral(", "));
}

QString describe(const StatementImportResult &r)
{
    const auto &s = r.summary;
    const auto n = [&](const char *key) { return s.value(key, 0); };
    QStringList lines;
    if (r.alreadyImported)
        lines << QObject::tr("This statement was imported already, as run %1 by %2: nothing "
                             "changed.")
                     .arg(r.runId())
                     .arg(QString::fromStdString(s.value("importedBy", "")));
    else
        lines << (r.dryRun ? QObject::tr("Preview (nothing was kept) of statement run %1")
                           : QObject::tr("Statement run %1 imported"))
                     .arg(r.runId());
    lines << QObject::tr("%1, paid %2 to %3 (UTC), %4 object(s) in %5 file(s)")
                 .arg(QString::fromStdString(s.value("providerKey", "")),
                     QString::fromStdString(s.value("from", "")),
                     QString::fromStdString(s.value("to", "")))
                 .arg(n("objects"))
                 .arg(s.value("files", nlohmann::json::array()).size());
    lines << QObject::tr("Renewals in the statement: %1 — matched %2, backfilled %3, not "
                         "applied %4, differing %5")
                 .arg(n("renewals"))
                 .arg(n("matched"))
                 .arg(n("backfilled"))
                 .arg(n("unapplied"))
                 .arg(n("differing"));
    lines << QObject::tr("Recorded here but not in the statement: %1").arg(n("notInStatement"));
    lines << QObject::tr("Totals, statement: %1")
                 .arg(totalsLine(s.value("statementTotals", nlohmann::json())));
    lines << QObject::tr("Totals, ledger: %1")
                 .arg(totalsLine(s.value("ledgerTotals", nlohmann::json())));
    if (r.openFindings.empty()) {
        lines << QObject::tr("Nothing is left open.");
    } else {
        lines << QObject::tr("Open cases: %1").arg(r.openFindings.size());
        for (const auto &f : r.openFindings)
            lines << QObject::tr("  case %1 — %2 %3 (subscription %4): %5")
                         .arg(f.value("caseId", 0))
                         .arg(QString::fromStdString(f.value("finding", "")),
                             QString::fromStdString(f.value("providerRenewalKey", "")),
                             QString::fromStdString(f.value("providerSubscriptionId", "")),
                             QString::fromStdString(f.value("errorCode", "")));
    }
    return lines.join(QLatin1Char('\n'));
}

std::optional<std::string> dayOrNothing(const QString &day)
{
    return day.isEmpty() ? std::nullopt : std::optional(day.toStdString());
}

} // namespace

QStringList statementProviderKeys(const QString &conninfo)
{
    QStringList keys;
    try {
        for (const auto &p : listBillingProviders(conninfo.toStdString()))
            keys << QString::fromStdString(p.key);
    } catch (const std::exception &) {
        // The dialog then takes a key typed by hand; the import says what is wrong with it.
    }
    return keys;
}

StatementImportReport importStatement(
    const std::string &conninfo, const StatementImportRequest &request)
{
    StatementImportReport report;
    report.dryRun = request.dryRun;
    try {
        std::vector<StatementFile> files;
        for (const auto &path : request.files) {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly)) {
                report.kind = StatementImportReport::Kind::Refused;
                report.text = QObject::tr("Cannot read %1: %2").arg(path, f.errorString());
                return report;
            }
            const QByteArray bytes = f.readAll();
            files.push_back({QFileInfo(path).fileName().toStdString(), bytes.toStdString()});
        }
        OperatorSession session(conninfo);
        const auto result = session.importStatement(request.providerKey.toStdString(), files,
            dayOrNothing(request.from), dayOrNothing(request.to), request.dryRun);
        report.kind = result.alreadyImported ? StatementImportReport::Kind::AlreadyImported
                                             : StatementImportReport::Kind::Imported;
        report.runId = result.runId();
        report.openCases = static_cast<qint64>(result.openFindings.size());
        report.text = describe(result);
    } catch (const ActionRefused &e) {
        report.kind = StatementImportReport::Kind::Refused;
        report.text = QString::fromStdString(e.code() + ": " + e.what());
    } catch (const InputError &e) {
        report.kind = StatementImportReport::Kind::Refused;
        report.text
            = QObject::tr("The statement cannot be read: %1").arg(QString::fromStdString(e.what()));
    } catch (const std::exception &e) {
        report.kind = StatementImportReport::Kind::Failed;
        report.text = QString::fromStdString(e.what());
    }
    return report;
}

QFuture<StatementImportReport> importStatementAsync(
    const QString &conninfo, const StatementImportRequest &request)
{
    return QtConcurrent::run([conninfo = conninfo.toStdString(), request] {
        return importStatement(conninfo, request);
    });
}

} // namespace rd::ui
