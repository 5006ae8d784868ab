#include "ui/models/auditverifier.h"

#include "domain/core/errors.h"
#include "domain/store/audit_verification.h"
#include "ui/models/chainbreaktext.h"
#include "ui/models/iodevicestreambuf.h"

#include <QCoreApplication>
#include <QFile>
#include <QLocale>
#include <QMetaObject>
#include <QPointer>
#include <QSaveFile>
#include <QStringList>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <istream>
#include <ostream>
#include <stdexcept>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::AuditVerifier)
};

} // namespace
namespace {

QString describe(const ChainBreak &b)
{
    return chainBreakText(b);
}

/// What opens the break: its chain, whose it is, the row and what is wrong with it.
void pointAt(AuditVerifyReport &report, const ChainBreak &b)
{
    report.breakChain = QString::fromStdString(b.chain);
    report.breakChainId = QString::fromStdString(b.chainId);
    report.breakSubject = b.subscription.empty()
        ? QString()
        : QString::fromStdString(b.provider + " " + b.subscription);
    report.breakRowId = b.rowId;
    report.breakSeq = b.seq;
    report.breakProblem = QString::fromStdString(b.problem);
}

/// What a verification found of the chains themselves (the anchor apart).
void fillFrom(AuditVerifyReport &report, const AuditVerification &v)
{
    report.rows = v.rows;
    report.chains = v.chains;
    report.at = QDateTime::fromString(QString::fromStdString(v.at), Qt::ISODateWithMs);
    report.breakCount = int(v.breaks.size());
    report.moreBreaks = v.moreBreaks;
    if (!v.breaks.empty()) {
        report.firstBreak = describe(v.breaks.front());
        pointAt(report, v.breaks.front());
    }
}

template<typename Read>
AuditAnchorCheck readAnchorFile(const QString &path, Read read)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw std::runtime_error(
            Tr::tr("cannot read the anchor %1: %2").arg(path, file.errorString()).toStdString());
    IODeviceStreamBuf buffer(file);
    std::istream in(&buffer);
    return read(in);
}

AuditVerifyReport verify(const std::string &conninfo, const QString &anchorPath, int batchRows,
    std::shared_ptr<std::atomic<bool>> cancel, std::function<void(AuditVerifyProgress)> onProgress)
{
    AuditVerifyReport report;
    report.anchorPath = anchorPath;
    try {
        // The anchor is read first (parsed as it is read, not held): a file that is not an
        // anchor is said before minutes of work.
        if (!anchorPath.isEmpty())
            readAnchorFile(anchorPath, [](std::istream &in) { return readAuditAnchor(in); });
        AuditVerifyOptions options;
        options.batchRows = batchRows;
        options.cancel = cancel.get();
        options.onProgress = onProgress;
        fillFrom(report, verifyAuditChains(conninfo, options));
        if (!anchorPath.isEmpty()) {
            const auto checked = readAnchorFile(anchorPath,
                [&conninfo](std::istream &in) { return checkAuditAnchor(conninfo, in); });
            report.anchorHeads = int(checked.heads);
            report.anchorDigest = QString::fromStdString(checked.digest);
            report.anchorMismatches = int(checked.mismatchCount);
            if (!checked.mismatches.empty()) {
                const auto &m = checked.mismatches.front();
                report.firstAnchorMismatch = describe(m);
                if (report.breakChain.isEmpty())
                    pointAt(report, m);
            }
        }
        report.intact = report.breakCount == 0 && report.anchorMismatches == 0;
    } catch (const AuditVerificationCanceled &) {
        report.canceled = true;
    } catch (const InputError &e) {
        // The store says "heads: not an audit anchor (...)" when there is no list of heads, and
        // names "digest" when the file is not what was exported.
        if (e.field() == "digest")
            report.error
                = Tr::tr("%1 is refused: %2").arg(anchorPath, QString::fromStdString(e.message()));
        else if (e.message().rfind("not an audit anchor", 0) == 0)
            report.error = Tr::tr("%1 is not an audit anchor (no \"heads\" list)").arg(anchorPath);
        else
            report.error = Tr::tr("%1 is not an audit anchor: %2")
                               .arg(anchorPath, QString::fromStdString(e.what()));
    } catch (const std::exception &e) {
        report.error = QString::fromUtf8(e.what());
    }
    return report;
}

} // namespace

AuditVerifier::AuditVerifier(QString conninfo, QObject *parent)
    : QObject(parent), m_conninfo(std::move(conninfo))
{
    qRegisterMetaType<rd::ui::AuditVerifyReport>();
}

AuditVerifier::~AuditVerifier()
{
    // The worker holds its own copy of the flag and reports through a QPointer: it ends at its
    // next batch and finds no one to tell.
    if (m_cancel)
        m_cancel->store(true);
}

void AuditVerifier::start(const QString &anchorPath)
{
    if (m_running)
        return;
    m_running = true;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    QPointer<AuditVerifier> self(this);
    const std::string conninfo = m_conninfo.toStdString();
    const int batchRows = m_batchRows;
    auto cancel = m_cancel;
    QThreadPool::globalInstance()->start([self, conninfo, anchorPath, batchRows, cancel] {
        const auto report
            = verify(conninfo, anchorPath, batchRows, cancel, [self](const AuditVerifyProgress &p) {
                  if (!self)
                      return;
                  QMetaObject::invokeMethod(
                      self,
                      [self, p] {
                          if (self)
                              emit self->progress(p.rows, p.expectedRows, p.chains);
                      },
                      Qt::QueuedConnection);
              });
        if (!self)
            return;
        QMetaObject::invokeMethod(
            self,
            [self, report] {
                if (!self)
                    return;
                self->m_running = false;
                emit self->finished(report);
            },
            Qt::QueuedConnection);
    });
}

void AuditVerifier::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

QFuture<AnchorWritten> AuditVerifier::writeAnchor(const QString &conninfo, const QString &path)
{
    return QtConcurrent::run([conninfo, path]() -> AnchorWritten {
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            throw std::runtime_error(
                tr("cannot write %1: %2").arg(path, file.errorString()).toStdString());
        // Written as the heads come from the server: a million of them are never held here.
        long long heads = 0;
        std::string digest;
        {
            IODeviceStreamBuf buffer(file);
            std::ostream out(&buffer);
            heads = exportAuditAnchor(conninfo.toStdString(), out, AnchorLayout::Indented, &digest);
        }
        if (!file.commit())
            throw std::runtime_error(
                tr("cannot write %1: %2").arg(path, file.errorString()).toStdString());
        return AnchorWritten {qint64(heads), QString::fromStdString(digest)};
    });
}

QFuture<AuditVerifyReport> AuditVerifier::writeVerification(
    const QString &conninfo, const QString &path)
{
    return QtConcurrent::run([conninfo, path]() -> AuditVerifyReport {
        const auto v = verifyAuditChains(conninfo.toStdString(), AuditVerifyOptions {});
        AuditVerifyReport report;
        fillFrom(report, v);
        report.intact = v.breaks.empty() && !v.moreBreaks;
        const QLocale locale;
        QStringList lines;
        lines << tr("Audit chains verified at %1 (UTC): %2 rows in %3 chains.")
                     .arg(QString::fromStdString(v.at), locale.toString(report.rows),
                         locale.toString(report.chains));
        if (report.intact) {
            lines << tr("Result: intact. Every row's hash matches its content and links to the "
                        "row before it, and every billing period matches the audit row that "
                        "recorded it.");
        } else {
            lines << tr("Result: BROKEN, %1 break(s)%2. The rows below do not verify: what "
                        "they say cannot be proven unaltered.")
                         .arg(locale.toString(report.breakCount),
                             v.moreBreaks ? tr(" (and more than listed)") : QString());
            for (const auto &b : v.breaks)
                lines << tr("Broken: %1").arg(describe(b));
        }
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write((lines.join(u'\n') + u'\n').toUtf8()) < 0
            || !file.commit())
            throw std::runtime_error(
                tr("cannot write %1: %2").arg(path, file.errorString()).toStdString());
        return report;
    });
}

} // namespace rd::ui
