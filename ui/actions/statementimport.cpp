#include "ui/actions/statementimport.h"

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

std::optional<std::string> dayOrNothing(const QString &day)
{
    return day.isEmpty() ? std::nullopt : std::optional(day.toStdString());
}

} // namespace

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
            report.summary = QString::fromStdString(describeStatementImport(imported));
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
