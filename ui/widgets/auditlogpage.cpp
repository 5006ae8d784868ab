#include "ui/widgets/auditlogpage.h"

#include "ui/models/asyncresult.h"
#include "ui/models/auditdetails.h"
#include "ui/models/columns.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/pagedtablemodel.h"
#include "ui/widgets/comparisonview.h"
#include "ui/widgets/tableview.h"

#include <QCoreApplication>
#include <algorithm>

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTimeZone>
#include <QVBoxLayout>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::AuditLogPage)
};

} // namespace
namespace {

namespace L = auditlog;

/// A date (local midnight) or an RFC 3339 instant; invalid with `error` set otherwise.
QDateTime readInstant(const QString &text, const QString &what, QString *error)
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return {};
    const QDate date = QDate::fromString(t, Qt::ISODate);
    if (date.isValid() && t.size() == 10)
        return QDateTime(date, QTime(0, 0), QTimeZone::systemTimeZone()).toUTC();
    const QDateTime instant = QDateTime::fromString(t, Qt::ISODateWithMs);
    if (instant.isValid() && instant.timeSpec() != Qt::LocalTime)
        return instant.toUTC();
    if (error && error->isEmpty())
        *error = Tr::tr("\"%1\" (%2) is not a date (2026-11-30) or a time with its offset "
                        "(2026-11-30T09:00:00Z)")
                     .arg(t, what);
    return {};
}

} // namespace

AuditLogPage::AuditLogPage(DatabasePool *pool, QWidget *parent)
    : QWidget(parent)
    , m_pool(pool)
    , m_table(new TableView)
    , m_detailsModel(new ComparisonModel(this))
    , m_details(new TableView)
    , m_from(new QLineEdit)
    , m_to(new QLineEdit)
    , m_what(new QComboBox)
    , m_provider(new QComboBox)
    , m_actor(new QLineEdit)
    , m_dbRole(new QLineEdit)
    , m_subscription(new QLineEdit)
    , m_case(new QLineEdit)
    , m_chainState(new QLabel)
    , m_progress(new QProgressBar)
    , m_verify(new QPushButton(tr("Verify")))
    , m_verifyAnchor(new QPushButton(tr("Verify against anchor…")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_openBreak(new QPushButton(tr("Open broken record")))
    , m_export(new QPushButton(tr("Export for auditor…")))
    , m_verifier(new AuditVerifier(pool->conninfo(), this))
{
    m_model = new PagedTableModel(pool, L::fields(), L::columns(), L::Key, this);

    m_from->setObjectName(u"auditlog-from"_qs);
    m_from->setPlaceholderText(tr("From (2026-11-01)"));
    m_to->setObjectName(u"auditlog-to"_qs);
    m_to->setPlaceholderText(tr("Before (2026-12-01)"));
    m_from->setToolTip(tr("A date (local midnight) or a time with its offset, "
                          "2026-11-30T09:00:00Z"));
    m_to->setToolTip(m_from->toolTip());
    m_what->setObjectName(u"auditlog-what"_qs);
    m_what->addItem(tr("Every transition and action"), QString());
    for (const QString &t : L::transitions())
        m_what->addItem(tr("Subscription %1").arg(format::humanize(t.mid(13)).toLower()), t);
    for (const QString &a : L::caseActions())
        m_what->addItem(tr("Case %1").arg(format::humanize(a).toLower()), a);
    m_provider->setObjectName(u"auditlog-provider"_qs);
    m_provider->addItem(tr("All providers"), QString());
    m_provider->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_provider->setMinimumContentsLength(12);
    m_actor->setObjectName(u"auditlog-actor"_qs);
    m_actor->setPlaceholderText(tr("Actor (alice)"));
    m_actor->setToolTip(tr("An operator's login or an import's name; a provider's webhook is "
                           "found with the provider filter"));
    m_dbRole->setObjectName(u"auditlog-dbrole"_qs);
    m_dbRole->setPlaceholderText(tr("Database role"));
    m_subscription->setObjectName(u"auditlog-subscription"_qs);
    m_subscription->setPlaceholderText(tr("Subscription (sub_… or uuid)"));
    m_case->setObjectName(u"auditlog-case"_qs);
    m_case->setPlaceholderText(tr("Case"));
    for (QLineEdit *e : {m_from, m_to, m_actor, m_dbRole, m_subscription, m_case}) {
        e->setClearButtonEnabled(true);
        connect(e, &QLineEdit::returnPressed, this, &AuditLogPage::reload);
        connect(e, &QLineEdit::textChanged, this, [this](const QString &t) {
            if (t.isEmpty())
                reload();
        });
    }
    m_from->setMaximumWidth(150);
    m_to->setMaximumWidth(150);
    m_case->setMaximumWidth(80);
    for (QComboBox *box : {m_what, m_provider})
        connect(box, &QComboBox::currentIndexChanged, this, &AuditLogPage::reload);

    auto *filters = new QHBoxLayout;
    for (QWidget *w : std::initializer_list<QWidget *> {
             m_from, m_to, m_what, m_actor, m_dbRole, m_provider, m_subscription, m_case})
        filters->addWidget(w);

    m_chainState->setObjectName(u"auditlog-chain-state"_qs);
    m_chainState->setText(tr("Hash chains not verified in this session."));
    m_chainState->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A break is said whole: the label wraps (and its tooltip repeats it) instead of cutting
    // the message at the chain's id.
    m_chainState->setWordWrap(true);
    m_chainState->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Minimum);
    m_progress->setVisible(false);
    m_progress->setMaximumWidth(220);
    m_cancel->setVisible(false);
    m_openBreak->setVisible(false);
    m_verify->setObjectName(u"auditlog-verify"_qs);
    m_verify->setToolTip(tr("Recompute every hash of every chain (renewalctl audit verify)"));
    m_verifyAnchor->setToolTip(tr("Verify, and check that the chains' heads recorded in an "
                                  "anchor file are still in place"));
    m_export->setToolTip(tr("The filtered rows as CSV (ISO UTC instants) and an anchor of "
                            "every chain's head beside it"));
    // The chains' state on a line of its own, the whole width: a break's message (whose chain,
    // which row, what is wrong, the anchor) reads as a sentence, not a column of fragments.
    auto *chains = new QHBoxLayout;
    chains->addWidget(m_progress);
    chains->addWidget(m_cancel);
    chains->addWidget(m_openBreak);
    chains->addStretch(1);
    chains->addWidget(m_verify);
    chains->addWidget(m_verifyAnchor);
    chains->addWidget(m_export);

    m_table->setObjectName(u"audit-log"_qs);
    m_table->setModel(m_model);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // When and who are what an auditor reads first: whole, while the rest scrolls.
    m_table->setWholeColumns({0, 3});
    m_details->setObjectName(u"audit-log-details"_qs);
    showComparison(m_details, m_detailsModel);
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_table);
    split->addWidget(m_details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_chainState);
    layout->addLayout(chains);
    layout->addLayout(filters);
    layout->addWidget(split, 1);

    connect(m_table, &TableView::openRequested, this, &AuditLogPage::openRow);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &AuditLogPage::showDetails);
    connect(m_model, &PagedTableModel::loadFailed, this, &AuditLogPage::statusMessage);
    connect(m_model, &QAbstractItemModel::modelReset, this, &AuditLogPage::showDetails);
    connect(m_verify, &QPushButton::clicked, this, [this] { verify(); });
    connect(m_verifyAnchor, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Verify against anchor"),
            QString(), tr("Audit anchors (*.json);;All files (*)"));
        if (!path.isEmpty())
            verify(path);
    });
    connect(m_cancel, &QPushButton::clicked, m_verifier, &AuditVerifier::cancel);
    connect(m_openBreak, &QPushButton::clicked, this, [this] {
        if (m_breakChain == u"reconciliation_case_history")
            emit caseOpenRequested(m_breakChainId.toLongLong());
        else if (!m_breakChainId.isEmpty())
            emit auditRecordOpenRequested(m_breakChainId, m_breakSeq, m_breakProblem);
    });
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export for auditor"), u"audit-log.csv"_qs, tr("CSV (*.csv)"));
        if (!path.isEmpty())
            exportForAuditor(path);
    });
    connect(m_verifier, &AuditVerifier::progress, this,
        [this](qint64 rows, qint64 expected, qint64 chains) {
            m_progress->setRange(0, 1000);
            m_progress->setValue(
                expected > 0 ? int(std::min<qint64>(1000, rows * 1000 / expected)) : 0);
            m_chainState->setText(tr("Verifying… %1 of about %2 rows, %3 chains")
                                      .arg(QLocale().toString(rows), QLocale().toString(expected),
                                          QLocale().toString(chains)));
        });
    connect(m_verifier, &AuditVerifier::finished, this, &AuditLogPage::verified);

    loadChoices();
    reload();
}

QString AuditLogPage::anchorPathFor(const QString &csvPath)
{
    const QFileInfo info(csvPath);
    return info.dir().filePath(info.completeBaseName() + u".anchor.json"_qs);
}

QString AuditLogPage::verificationPathFor(const QString &csvPath)
{
    const QFileInfo info(csvPath);
    return info.dir().filePath(info.completeBaseName() + u".verification.txt"_qs);
}

void AuditLogPage::loadChoices()
{
    deliverResult(
        this, m_pool->call(&L::loadProviders),
        [this](const QStringList &providers) {
            const QString current = m_provider->currentData().toString();
            const QSignalBlocker block(m_provider);
            while (m_provider->count() > 1)
                m_provider->removeItem(1);
            for (const QString &p : providers)
                m_provider->addItem(p, p);
            m_provider->setCurrentIndex(std::max(0, m_provider->findData(current)));
        },
        [this](const QString &message) { emit statusMessage(message); });
}

L::Filter AuditLogPage::filter(QString *error) const
{
    L::Filter f;
    QString problem;
    f.from = readInstant(m_from->text(), tr("from"), &problem);
    f.to = readInstant(m_to->text(), tr("before"), &problem);
    f.what = m_what->currentData().toString();
    f.provider = m_provider->currentData().toString();
    f.actor = m_actor->text().trimmed();
    f.dbRole = m_dbRole->text().trimmed();
    f.subscription = m_subscription->text().trimmed();
    const QString caseText = m_case->text().trimmed();
    if (!caseText.isEmpty()) {
        bool ok = false;
        QString digits = caseText;
        if (digits.startsWith(u"case"_qs, Qt::CaseInsensitive))
            digits = digits.mid(4).trimmed();
        f.caseId = digits.toLongLong(&ok);
        if (!ok || f.caseId <= 0) {
            f.caseId = 0;
            if (problem.isEmpty())
                problem = tr("\"%1\" is not a case number").arg(caseText);
        }
    }
    if (error)
        *error = problem;
    return f;
}

void AuditLogPage::setFilter(const L::Filter &f)
{
    const QSignalBlocker a(m_what), b(m_provider);
    const auto instant = [](const QDateTime &t) {
        return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString();
    };
    for (QLineEdit *e : {m_from, m_to, m_actor, m_dbRole, m_subscription, m_case})
        e->blockSignals(true);
    m_from->setText(instant(f.from));
    m_to->setText(instant(f.to));
    m_what->setCurrentIndex(std::max(0, m_what->findData(f.what)));
    if (m_provider->findData(f.provider) < 0 && !f.provider.isEmpty())
        m_provider->addItem(f.provider, f.provider);
    m_provider->setCurrentIndex(std::max(0, m_provider->findData(f.provider)));
    m_actor->setText(f.actor);
    m_dbRole->setText(f.dbRole);
    m_subscription->setText(f.subscription);
    m_case->setText(f.caseId > 0 ? QString::number(f.caseId) : QString());
    for (QLineEdit *e : {m_from, m_to, m_actor, m_dbRole, m_subscription, m_case})
        e->blockSignals(false);
    reload();
}

void AuditLogPage::reload()
{
    QString error;
    const L::Filter f = filter(&error);
    if (!error.isEmpty()) {
        emit statusMessage(error);
        return; // the list keeps what it showed: nothing was read with half a filter
    }
    m_model->setFetcher(L::fetcher(f));
}

void AuditLogPage::refresh()
{
    m_stale = false;
    m_model->refresh();
}

void AuditLogPage::dataChanged()
{
    if (isVisible())
        refresh();
    else
        m_stale = true;
}

void AuditLogPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale) {
        m_stale = false;
        refresh();
    }
}

void AuditLogPage::openRow(const QModelIndex &index)
{
    if (!index.isValid() || index.data(int(Role::Placeholder)).toBool())
        return;
    const RowRef r = m_model->row(index.row());
    if (!r)
        return;
    if (r[L::Source].toInt() == 0)
        emit caseOpenRequested(r[L::CaseId].toLongLong());
    else if (r[L::Source].toInt() == 1)
        emit subscriptionOpenRequested(r[L::SubscriptionId].toString());
    // A removal of delivery bodies (2) opens nothing: its row says all it records.
}

void AuditLogPage::showDetails()
{
    const QModelIndex current = m_table->currentIndex();
    const RowRef r = current.isValid() ? m_model->row(current.row()) : nullptr;
    // A case action has no before-state: its lines get the pane's width.
    const bool caseEntry = r && r[L::Source].toInt() == 0;
    m_details->setColumnHidden(ComparisonModel::LocalColumn, caseEntry);
    m_details->setColumnHidden(ComparisonModel::NoteColumn, caseEntry);
    if (!r || r[L::Source].toInt() == 2) {
        m_detailsModel->setLines(tr("before"), tr("after"), {});
        return;
    }
    if (caseEntry) {
        // A case action: what was done to which case, by whom and why.
        CaseEntry e;
        e.caseId = r[L::CaseId].toLongLong();
        e.action = r[L::What].toString();
        e.outcome = r[L::Outcome].toString();
        e.actor = r[L::Actor].toString();
        e.reason = r[L::Reason].toString();
        e.comment = r[L::Comment].toString();
        e.provider = r[L::Provider].toString();
        e.subscription = r[L::SubscriptionRef].toString();
        e.renewalKey = r[L::RenewalKey].toString();
        e.detailsJson = r[L::Details].toString();
        m_detailsModel->setLines(tr("before"), tr("recorded"), caseEntryLines(e));
        return;
    }
    m_detailsModel->setLines(tr("before"), tr("after"),
        auditDetailLines(r[L::Details].toString(), r[L::PeriodStart], r[L::PeriodEnd],
            r[L::NextState].toString()));
}

void AuditLogPage::verify(const QString &anchorPath)
{
    if (m_verifier->isRunning())
        return;
    m_verify->setEnabled(false);
    m_verifyAnchor->setEnabled(false);
    m_openBreak->setVisible(false);
    m_cancel->setVisible(true);
    m_progress->setRange(0, 0);
    m_progress->setVisible(true);
    m_chainState->setStyleSheet({});
    m_chainState->setText(tr("Verifying…"));
    m_verifier->start(anchorPath);
}

void AuditLogPage::verified(const AuditVerifyReport &report)
{
    m_verify->setEnabled(true);
    m_verifyAnchor->setEnabled(true);
    m_cancel->setVisible(false);
    m_progress->setVisible(false);
    const QLocale locale;
    const QString when = format::localDateTime(report.at);
    m_chainState->setToolTip(report.at.isValid() ? format::utcTooltip(report.at) : QString());
    if (report.canceled) {
        m_chainState->setStyleSheet({});
        m_chainState->setText(tr("Verification canceled."));
        return;
    }
    if (!report.error.isEmpty()) {
        m_chainState->setStyleSheet(u"color:#b02020"_qs);
        m_chainState->setText(tr("Could not verify: %1").arg(report.error));
        return;
    }
    const QString anchor = report.anchorPath.isEmpty() ? QString()
        : report.anchorMismatches == 0
        ? tr(" (anchor %1 matched: %2 heads, digest %3)")
              .arg(QFileInfo(report.anchorPath).fileName(), locale.toString(report.anchorHeads),
                  report.anchorDigest)
        : tr(" — anchor %1 does NOT match: %2 of %3 heads changed or gone; first: %4")
              .arg(QFileInfo(report.anchorPath).fileName(),
                  locale.toString(report.anchorMismatches), locale.toString(report.anchorHeads),
                  report.firstAnchorMismatch);
    if (report.intact) {
        m_chainState->setStyleSheet(u"color:#1a7f37"_qs);
        m_chainState->setText(
            tr("✓ verified %1 rows in %2 chains at %3%4")
                .arg(locale.toString(report.rows), locale.toString(report.chains), when, anchor));
        return;
    }
    m_chainState->setStyleSheet(u"color:#b02020"_qs);
    m_breakChain = report.breakChain;
    m_breakChainId = report.breakChainId;
    m_breakSeq = report.breakSeq;
    m_breakProblem = report.breakProblem;
    m_openBreak->setVisible(!m_breakChainId.isEmpty());
    m_openBreak->setText(m_breakChain == u"reconciliation_case_history"
            ? tr("Open case %1").arg(m_breakChainId)
            : report.breakSubject.isEmpty() ? tr("Open subscription")
                                            : tr("Open subscription %1").arg(report.breakSubject));
    m_openBreak->setToolTip(m_breakChain == u"reconciliation_case_history"
            ? tr("The case's history, where the broken entry is")
            : tr("The subscription's audit trail, the record at position %1 flagged")
                  .arg(m_breakSeq));
    QString text;
    if (report.breakCount == 0) {
        text = tr("✗ %1 rows in %2 chains verified at %3, but%4")
                   .arg(locale.toString(report.rows), locale.toString(report.chains), when, anchor);
    } else {
        // A matching anchor vouches for the chains' newest rows only: said, so that
        // "matched" under a break does not read as "all is well".
        const QString anchorNote = !report.anchorPath.isEmpty() && report.anchorMismatches == 0
            ? tr(" The anchor covers each chain's newest row only; the break is in an older one.")
            : QString();
        text = tr("✗ chain broken: %1 (%2%3 break(s) in %4 rows, verified at %5)%6%7")
                   .arg(report.firstBreak, locale.toString(report.breakCount),
                       report.moreBreaks ? u"+"_qs : QString(), locale.toString(report.rows), when,
                       anchor, anchorNote);
    }
    m_chainState->setText(text);
    m_chainState->setToolTip(text);
}

void AuditLogPage::exportForAuditor(const QString &csvPath)
{
    const QString anchorPath = anchorPathFor(csvPath);
    const QString conninfo = m_pool->conninfo();
    emit statusMessage(tr("Exporting the audit log to %1…").arg(csvPath));
    deliverResult(
        this, m_model->exportCsv(csvPath),
        [this, conninfo, csvPath, anchorPath](qint64 rows) {
            deliverResult(
                this, AuditVerifier::writeAnchor(conninfo, anchorPath),
                [this, rows, csvPath, anchorPath, conninfo](const AnchorWritten &anchor) {
                    // The digest is what to publish: a copy of the anchor is checked against it.
                    const QString exported
                        = tr(
                            "Exported %1 rows to %2 and the anchor of %3 chains to %4 (digest %5).")
                              .arg(QLocale().toString(rows), csvPath,
                                  QLocale().toString(anchor.heads), anchorPath, anchor.digest);
                    // And what the chains are now, in a file beside them and on the page: an
                    // export of a broken chain says so, which one and where (#42, item 6).
                    const QString verificationPath = verificationPathFor(csvPath);
                    deliverResult(
                        this, AuditVerifier::writeVerification(conninfo, verificationPath),
                        [this, rows, exported, verificationPath, heads = anchor.heads](
                            const AuditVerifyReport &report) {
                            verified(report);
                            emit statusMessage(report.intact ? exported + u' '
                                        + tr("The chains verify (%1).").arg(verificationPath)
                                                             : exported + u' '
                                        + tr("The audit chains are BROKEN: %1 break(s), first: "
                                             "%2. Said in %3.")
                                              .arg(QLocale().toString(report.breakCount),
                                                  report.firstBreak, verificationPath));
                            emit exportFinished(rows, heads, {});
                        },
                        [this](const QString &message) {
                            emit statusMessage(message);
                            emit exportFinished(0, 0, message);
                        });
                },
                [this](const QString &message) {
                    emit statusMessage(message);
                    emit exportFinished(0, 0, message);
                });
        },
        [this](const QString &message) {
            emit statusMessage(message);
            emit exportFinished(0, 0, message);
        });
}

} // namespace rd::ui
