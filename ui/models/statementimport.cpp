#include "ui/models/statementimport.h"

#include "domain/core/errors.h"
#include "domain/store/action_refused.h"
#include "domain/store/operator_session.h"

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
                report.text = Tr::tr("Cannot read %1: %2").arg(path, f.errorString());
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
        report.text = QString::fromStdString(describeStatementImport(result));
    } catch (const ActionRefused &e) {
        report.kind = StatementImportReport::Kind::Refused;
        report.text = QString::fromStdString(e.code() + ": " + e.what());
    } catch (const InputError &e) {
        report.kind = StatementImportReport::Kind::Refused;
        report.text
            = Tr::tr("The statement cannot be read: %1").arg(QString::fromStdString(e.what()));
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
