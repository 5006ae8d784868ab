#include "ui/widgets/statementsdialog.h"

#include "ui/models/columns.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/recordtablemodel.h"
#include "ui/widgets/tableview.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace rd::ui {
namespace {

enum RunField {
    RunId,
    RunProvider,
    RunDays,
    RunImportedBy,
    RunFinishedAt,
    RunRenewals,
    RunMatched,
    RunBackfilled,
    RunUnapplied,
    RunDiffering,
    RunNotInStatement,
    RunOpenCases,
    RunMoneyBack,
    RunMoneyBackNotInStatement,
    RunFieldCount
};

enum FindingField {
    FindingLine,
    FindingRenewalKey,
    FindingSubscription,
    FindingKind,
    FindingMoneyBack,
    FindingCase,
    FindingCaseStatus,
    FindingFieldCount
};

} // namespace

StatementsDialog::StatementsDialog(DatabasePool *pool, QWidget *parent)
    : QDialog(parent)
    , m_pool(pool)
    , m_runsView(new TableView)
    , m_findingsView(new TableView)
    , m_message(new QLabel)
{
    setWindowTitle(tr("Statements"));
    m_runsModel = new RecordTableModel(RunFieldCount,
        {columns::count(tr("Run"), RunId), columns::text(tr("Provider"), RunProvider),
            columns::text(tr("Days (UTC)"), RunDays),
            columns::text(tr("Imported by"), RunImportedBy),
            columns::instant(tr("Imported at"), RunFinishedAt),
            columns::count(tr("Renewals"), RunRenewals), columns::count(tr("Matched"), RunMatched),
            columns::count(tr("Backfilled"), RunBackfilled),
            columns::count(tr("Unapplied"), RunUnapplied, true),
            columns::count(tr("Differing"), RunDiffering, true),
            columns::count(tr("Not in statement"), RunNotInStatement, true),
            columns::count(tr("Open cases at import"), RunOpenCases, true),
            columns::count(tr("Money back"), RunMoneyBack),
            columns::count(tr("Money back missing"), RunMoneyBackNotInStatement, true)},
        RunId, this);
    m_findingsModel = new RecordTableModel(FindingFieldCount,
        {columns::count(tr("Line"), FindingLine),
            columns::text(tr("Renewal key"), FindingRenewalKey),
            columns::text(tr("Subscription"), FindingSubscription),
            columns::code(tr("Finding"), FindingKind),
            // A money back finding (#40): its movement's kind; its key is the movement's.
            columns::code(tr("Money back"), FindingMoneyBack),
            columns::text(tr("Case"), FindingCase),
            columns::code(tr("Case status"), FindingCaseStatus)},
        FindingLine, this);
    m_runsView->setObjectName(u"statement-runs"_qs);
    m_runsView->setModel(m_runsModel);
    m_runsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_runsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_findingsView->setObjectName(u"statement-findings"_qs);
    m_findingsView->setModel(m_findingsModel);
    m_findingsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_findingsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_findingsView->horizontalHeader()->setStretchLastSection(true);
    m_findingsView->setToolTip(tr("Enter or a double click opens the finding's case, else its "
                                  "subscription"));
    m_message->setObjectName(u"statements-message"_qs);
    m_message->setWordWrap(true);

    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_runsView);
    split->addWidget(m_findingsView);
    split->setStretchFactor(1, 2);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    auto *importButton = buttons->addButton(tr("&Import statement…"), QDialogButtonBox::ActionRole);
    connect(importButton, &QPushButton::clicked, this, &StatementsDialog::importRequested);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(m_message);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_runsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) { showRun(current.row()); });
    connect(m_findingsView, &TableView::openRequested, this,
        [this](const QModelIndex &index) { openFinding(index.row()); });
    // Wide enough for every count of a run (renewals, then money back) in English and German,
    // where the screen has the room.
    const int room = screen() ? screen()->availableGeometry().width() - 40 : 1400;
    resize(std::max(1180, std::min(room, 1440)), 620);
    reload();
}

QString StatementsDialog::messageText() const
{
    return m_message->text();
}

void StatementsDialog::reload()
{
    m_message->setText(tr("Reading the statement runs…"));
    deliverResult(
        this, m_pool->call(&loadStatementRuns, kStatementRunLimit),
        [this](const QVector<StatementRunRow> &runs) {
            m_runs = runs;
            QVector<QVariant> cells;
            for (const StatementRunRow &r : runs)
                cells << r.id << r.provider
                      << tr("%1 – %2").arg(r.from.toString(Qt::ISODate), r.to.toString(Qt::ISODate))
                      << r.importedBy
                      << (r.finishedAt.isValid() ? QVariant(r.finishedAt.toMSecsSinceEpoch() * 1000)
                                                 : QVariant())
                      << r.renewals << r.matched << r.backfilled << r.unapplied << r.differing
                      << r.notInStatement << r.openCases << r.moneyBack
                      << r.moneyBackNotInStatement;
            m_runsModel->setRows(std::move(cells));
            m_runsView->resizeColumnsToContents();
            m_message->setText(runs.isEmpty()
                    ? tr("No statement was imported yet (renewalctl statement import).")
                    : tr("%n statement run(s). Select one for its findings.", nullptr,
                        int(runs.size())));
            if (!runs.isEmpty())
                m_runsView->selectRow(0);
            emit runsLoaded();
        },
        [this](const QString &message) { m_message->setText(message); });
}

void StatementsDialog::showRun(int row)
{
    if (row < 0 || row >= m_runs.size())
        return;
    const qint64 runId = m_runs[row].id;
    m_message->setText(tr("Reading the findings of run %1…").arg(runId));
    deliverResult(
        this, m_pool->call(&loadStatementFindings, runId),
        [this, runId](const QVector<StatementFindingRow> &findings) {
            m_findings = findings;
            QVector<QVariant> cells;
            for (const StatementFindingRow &f : findings)
                cells << f.line << f.renewalKey << f.subscription << f.finding << f.moneyBack
                      << (f.caseId > 0 ? QString::number(f.caseId) : QString()) << f.caseStatus;
            m_findingsModel->setRows(std::move(cells));
            m_findingsView->resizeColumnsToContents();
            m_message->setText(findings.size() >= kStatementFindingLimit
                    ? tr("Run %1: the first %2 findings, those with a case first.")
                          .arg(runId)
                          .arg(kStatementFindingLimit)
                    : tr("Run %1: %n finding(s). Enter opens a finding's case, else its "
                         "subscription.",
                        nullptr, int(findings.size()))
                          .arg(runId));
            emit findingsLoaded();
        },
        [this](const QString &message) { m_message->setText(message); }, m_findingsRequest.next());
}

void StatementsDialog::openFinding(int row)
{
    if (row < 0 || row >= m_findings.size())
        return;
    const StatementFindingRow &f = m_findings[row];
    FoundItem item;
    item.matchedBy = tr("a statement finding");
    if (f.caseId > 0) {
        item.kind = FoundItem::Kind::Case;
        item.caseId = f.caseId;
        item.title = tr("Case %1 · %2").arg(f.caseId).arg(format::humanize(f.finding));
    } else if (!f.subscriptionUuid.isEmpty()) {
        item.kind = f.billingPeriodId.isEmpty() ? FoundItem::Kind::Subscription
                                                : FoundItem::Kind::BillingPeriod;
        item.subscriptionUuid = f.subscriptionUuid;
        item.billingPeriodId = f.billingPeriodId;
        item.title = tr("Subscription %1 (renewal %2)").arg(f.subscription, f.renewalKey);
    } else {
        m_message->setText(tr("Line %1 has no case, and subscription %2 is not known here.")
                               .arg(f.line)
                               .arg(f.subscription));
        return;
    }
    emit chosen(item);
}

} // namespace rd::ui
