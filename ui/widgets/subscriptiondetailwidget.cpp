#include "ui/widgets/subscriptiondetailwidget.h"

#include "domain/core/currency.h"

#include "ui/models/auditdetails.h"
#include "ui/models/columns.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/format.h"
#include "ui/models/recordtablemodel.h"
#include "ui/widgets/comparisonview.h"
#include "ui/widgets/tableview.h"
#include "ui/widgets/timelinewidget.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTimeZone>
#include <QVBoxLayout>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::SubscriptionDetailWidget)
};

} // namespace
namespace {

using D = SubscriptionDetail;

Column deliveryState()
{
    return {Tr::tr("State"), [](RowRef r, int role) -> QVariant {
                const bool published = !r[D::OPublishedAt].isNull();
                const bool failed = !published && !r[D::OLastError].toString().isEmpty();
                if (role == Qt::DisplayRole)
                    return published ? Tr::tr("published")
                                     : (failed ? Tr::tr("failed, retrying") : Tr::tr("pending"));
                if (role == Qt::ForegroundRole && failed)
                    return QBrush(QColor(0xb0, 0x20, 0x20));
                return {};
            }};
}

TableView *makeTable(QAbstractItemModel *model, const QString &name)
{
    auto *view = new TableView;
    view->setObjectName(name);
    view->setModel(model);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    return view;
}

} // namespace

SubscriptionDetailWidget::SubscriptionDetailWidget(QWidget *parent)
    : QWidget(parent), m_header(new QLabel), m_timeline(new TimelineWidget), m_tabs(new QTabWidget)
{
    m_header->setTextFormat(Qt::RichText);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The header wraps in a narrow window instead of setting the window's minimum width.
    m_header->setWordWrap(true);

    m_periods = new RecordTableModel(D::PeriodFieldCount,
        {columns::period(tr("Period"), D::PStart, D::PEnd),
            columns::money(tr("Paid"), D::PAmount, D::PCurrency),
            columns::text(tr("Renewal key"), D::PRenewalKey),
            columns::instant(tr("Paid at"), D::PPaidAt),
            columns::word(tr("Recorded by"), D::PRecordedBy),
            columns::text(tr("Provider event"), D::PEventId),
            // Money back (#40) under its renewal: the signed sum, each movement in the tooltip.
            Column {tr("Money back"),
                [](RowRef r, int role) -> QVariant {
                    if (r[D::PMoneyBackMinor].isNull())
                        return {};
                    if (role == Qt::DisplayRole) {
                        const qint64 back = r[D::PMoneyBackMinor].toLongLong();
                        return (back < 0          ? u"−"_qs
                                       : back > 0 ? u"+"_qs
                                                  : QString())
                            + format::money(back < 0 ? -back : back, r[D::PCurrency].toString());
                    }
                    if (role == Qt::ToolTipRole)
                        return r[D::PMovements];
                    if (role == int(Role::Raw))
                        return r[D::PMoneyBackMinor];
                    return {};
                },
                Qt::AlignRight | Qt::AlignVCenter,
                // Last in the export too: a reader by position finds the columns before.
                {tr("Money back"), tr("Money back minor units")},
                [](RowRef r) {
                    if (r[D::PMoneyBackMinor].isNull())
                        return QStringList {QString(), QString()};
                    const qint64 back = r[D::PMoneyBackMinor].toLongLong();
                    return QStringList {QString::fromStdString(rd::formatMinorUnits(
                                            back, r[D::PCurrency].toString().toStdString())),
                        QString::number(back)};
                },
                {csv::Kind::Number, csv::Kind::Number}}},
        D::PId, this);
    QVector<Column> auditColumns {columns::instant(tr("When"), D::ACreatedAt),
        // Payment trouble's records (#41) in words: "Payment failed: attempt 2 of in_123
        // (card_declined), next attempt 4 Jan 2027"; other transitions by their name.
        Column {tr("Transition"),
            [code = columns::code(tr("Transition"), D::ATransition)](
                RowRef r, int role) -> QVariant {
                if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
                    const QString summary = access::auditSummary(r[D::ATransition].toString(),
                        r[D::ADetails].toString(), r[D::AReason].toString(),
                        r[D::AComment].toString());
                    if (!summary.isEmpty())
                        return summary;
                }
                return code.data(r, role);
            }},
        Column {tr("Actor"),
            [](RowRef r, int role) -> QVariant {
                if (role == Qt::DisplayRole)
                    return r[D::AActorType].toString() + u": "_qs + r[D::AActorId].toString();
                return {};
            }},
        columns::text(tr("Database role"), D::ADbRole), columns::text(tr("Reason"), D::AReason),
        columns::text(tr("Comment"), D::AComment), columns::text(tr("Renewal key"), D::ARenewalKey),
        columns::count(tr("Position"), D::AChainSeq)};
    // The record a verification found broken reads red, whichever column is looked at.
    for (Column &c : auditColumns) {
        c.data = [this, inner = c.data](RowRef r, int role) -> QVariant {
            const bool flagged = m_flag.seq > 0 && m_flag.subscription == m_shownSubscription
                && r[D::AChainSeq].toLongLong() == m_flag.seq;
            if (flagged && role == Qt::BackgroundRole)
                return QBrush(QColor(0xfb, 0xdc, 0xdc));
            if (flagged && role == Qt::ToolTipRole)
                return tr("Does not verify: %1").arg(m_flag.problem);
            return inner(r, role);
        };
    }
    m_audits = new RecordTableModel(D::AuditFieldCount, auditColumns, D::AId, this);
    m_outbox = new RecordTableModel(D::OutboxFieldCount,
        {columns::instant(tr("Created"), D::OCreatedAt), columns::code(tr("Intent"), D::OEventType),
            deliveryState(), columns::count(tr("Attempts"), D::OAttempts),
            columns::instant(tr("Published"), D::OPublishedAt),
            columns::instant(tr("Next attempt"), D::ONextAttemptAt),
            columns::text(tr("Last error"), D::OLastError)},
        D::OId, this);
    m_cases = new RecordTableModel(D::CaseFieldCount,
        {columns::count(tr("Case"), D::CId), columns::code(tr("Reason"), D::CErrorCode),
            columns::text(tr("Status"), D::CStatus),
            columns::text(tr("Renewal key"), D::CRenewalKey),
            columns::count(tr("Seen"), D::COccurrences),
            columns::instant(tr("Last seen"), D::CLastSeen),
            columns::text(tr("Resolution"), D::CResolution)},
        D::CId, this);

    m_auditView = makeTable(m_audits, u"audit-trail"_qs);
    m_auditView->setSelectionMode(QAbstractItemView::SingleSelection);
    // The selected record's details beside the list, before → after in words.
    m_auditDetailsModel = new ComparisonModel(this);
    m_auditDetails = new TableView;
    m_auditDetails->setObjectName(u"audit-details"_qs);
    showComparison(m_auditDetails, m_auditDetailsModel);
    m_auditFlag = new QLabel;
    m_auditFlag->setObjectName(u"audit-flag"_qs);
    m_auditFlag->setWordWrap(true);
    m_auditFlag->setStyleSheet(u"color:#b02020;font-weight:bold"_qs);
    m_auditFlag->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_auditFlag->hide();
    auto *auditSplit = new QSplitter(Qt::Horizontal);
    auditSplit->setObjectName(u"audit-split"_qs);
    auditSplit->addWidget(m_auditView);
    auditSplit->addWidget(m_auditDetails);
    auditSplit->setStretchFactor(0, 1);
    auditSplit->setStretchFactor(1, 1);
    auditSplit->setChildrenCollapsible(false);
    connect(m_auditView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) { showAuditDetails(current.row()); });

    auto *casesView = makeTable(m_cases, u"subscription-cases"_qs);
    connect(casesView, &TableView::openRequested, this, [this](const QModelIndex &index) {
        emit caseOpenRequested(m_cases->row(index.row())[D::CId].toLongLong());
    });

    m_periodsView = makeTable(m_periods, u"billing-periods"_qs);
    m_tabs->addTab(m_periodsView, tr("Billing periods"));
    auto *auditTab = new QWidget;
    auto *auditLayout = new QVBoxLayout(auditTab);
    auditLayout->setContentsMargins(0, 0, 0, 0);
    auditLayout->addWidget(m_auditFlag);
    auditLayout->addWidget(auditSplit, 1);
    m_tabs->addTab(auditTab, tr("Audit trail"));
    m_tabs->addTab(makeTable(m_outbox, u"subscription-outbox"_qs), tr("Outbox"));
    m_tabs->addTab(casesView, tr("Cases"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_header);
    layout->addWidget(m_timeline);
    layout->addWidget(m_tabs, 1);
    clear(tr("Select a subscription."));
}

void SubscriptionDetailWidget::showTab(int index)
{
    m_tabs->setCurrentIndex(index);
}

void SubscriptionDetailWidget::selectBillingPeriod(const QString &billingPeriodId)
{
    m_pendingPeriod = billingPeriodId;
    const int row = m_periods->rowOfKey(billingPeriodId);
    if (row < 0)
        return;
    m_pendingPeriod.clear();
    m_tabs->setCurrentIndex(0);
    m_periodsView->selectRow(row);
    m_periodsView->scrollTo(m_periods->index(row, 0));
}

void SubscriptionDetailWidget::flagAuditRecord(
    const QString &subscriptionId, qint64 chainSeq, const QString &problem)
{
    m_flag = {subscriptionId, chainSeq, problem};
    if (subscriptionId == m_shownSubscription)
        applyAuditFlag();
}

void SubscriptionDetailWidget::applyAuditFlag()
{
    if (m_flag.seq <= 0 || m_flag.subscription != m_shownSubscription) {
        m_auditFlag->hide();
        return;
    }
    m_tabs->setCurrentIndex(1);
    int row = -1;
    for (int r = 0; r < m_audits->rowCount() && row < 0; ++r) {
        if (m_audits->row(r)[D::AChainSeq].toLongLong() == m_flag.seq)
            row = r;
    }
    if (row >= 0) {
        m_auditFlag->setText(tr("✗ The record at position %1 does not verify: %2")
                                 .arg(m_flag.seq)
                                 .arg(m_flag.problem));
        m_auditView->selectRow(row);
        m_auditView->scrollTo(m_audits->index(row, 0));
    } else {
        m_auditFlag->setText(tr("✗ The record at position %1 does not verify: %2. It is not "
                                "among the %3 newest listed here (removed, or older: the Audit "
                                "log filtered to this subscription lists every one).")
                                 .arg(m_flag.seq)
                                 .arg(m_flag.problem)
                                 .arg(SubscriptionDetail::kMaxAudits));
    }
    m_auditFlag->show();
    m_audits->dataChanged(m_audits->index(0, 0),
        m_audits->index(m_audits->rowCount() - 1, m_audits->columnCount() - 1));
}

QString SubscriptionDetailWidget::selectedBillingPeriod() const
{
    const QModelIndex current = m_periodsView->currentIndex();
    if (!current.isValid() || !m_periodsView->selectionModel()->isRowSelected(current.row()))
        return {};
    return current.data(int(Role::Key)).toString();
}

void SubscriptionDetailWidget::clear(const QString &message)
{
    m_shownSubscription.clear();
    m_auditFlag->hide();
    m_header->setText(u"<span style='color:gray'>"_qs + message.toHtmlEscaped() + u"</span>"_qs);
    m_timeline->setSpans({}, {});
    m_periods->setRows({});
    m_audits->setRows({});
    m_outbox->setRows({});
    m_cases->setRows({});
    showAuditDetails(-1);
}

void SubscriptionDetailWidget::showAuditDetails(int row)
{
    const RowRef r = row >= 0 && row < m_audits->rowCount() ? m_audits->row(row) : nullptr;
    if (!r) {
        m_auditDetailsModel->setLines(tr("before"), tr("after"), {});
        return;
    }
    m_auditDetailsModel->setLines(tr("before"), tr("after"),
        auditDetailLines(r[D::ADetails].toString(), r[D::APeriodStart], r[D::APeriodEnd],
            r[D::ANextState].toString()));
}

QString SubscriptionDetailWidget::auditDetailsText() const
{
    QStringList lines;
    for (const ComparisonLine &l : m_auditDetailsModel->lines())
        lines << l.field + u": "_qs + l.local + u" → "_qs + l.other;
    return lines.join(u'\n');
}

void SubscriptionDetailWidget::setDetail(const SubscriptionDetail &d)
{
    const QDateTime start = columns::fromMicros(d.periodStart);
    const QDateTime end = columns::fromMicros(d.periodEnd);
    int openCases = 0;
    QVector<TimelineWidget::Span> pending;
    for (qsizetype i = 0; i < d.cases.size(); i += D::CaseFieldCount) {
        if (d.cases[i + D::CStatus].toString() != u"open")
            continue;
        ++openCases;
        const QJsonObject event
            = QJsonDocument::fromJson(d.cases[i + D::CEvent].toString().toUtf8()).object();
        const QJsonObject period = event.value(u"period"_qs).toObject();
        const auto s = format::micros(period.value(u"start"_qs).toString());
        const auto e = format::micros(period.value(u"end"_qs).toString());
        if (s && e) {
            // The gap or overlap it leaves is a band of the timeline with its own label.
            const QString reason = format::humanize(d.cases[i + D::CErrorCode].toString());
            const QString currency = event.value(u"currency"_qs).toString();
            const QString amount = currency.isEmpty()
                ? QString()
                : u" "_qs + format::money(event.value(u"paidAmountMinor"_qs).toInteger(), currency);
            pending.append({*s, *e,
                tr("rejected%1 · case %2").arg(amount).arg(d.cases[i + D::CId].toLongLong()),
                tr("Rejected, waiting in case %1: %2")
                    .arg(d.cases[i + D::CId].toLongLong())
                    .arg(reason)});
        }
    }
    QVector<TimelineWidget::Span> paid;
    for (qsizetype i = 0; i < d.periods.size(); i += D::PeriodFieldCount) {
        const QString currency = d.periods[i + D::PCurrency].toString();
        const qint64 paidMinor = d.periods[i + D::PAmount].toLongLong();
        QString amount = format::money(paidMinor, currency);
        const QDateTime ps = columns::fromMicros(d.periods[i + D::PStart]);
        const QDateTime pe = columns::fromMicros(d.periods[i + D::PEnd]);
        QString tooltip
            = tr("%1 · %2 · %3")
                  .arg(format::period(ps, pe), amount, d.periods[i + D::PRenewalKey].toString());
        // Each movement under its renewal (#40): the bar says net, its tooltip every movement.
        if (!d.periods[i + D::PMoneyBackMinor].isNull()) {
            const QString net = format::money(
                paidMinor + d.periods[i + D::PMoneyBackMinor].toLongLong(), currency);
            amount = tr("%1 (net %2)").arg(amount, net);
            tooltip += u"\n"_qs + d.periods[i + D::PMovements].toString();
        }
        paid.append({d.periods[i + D::PStart].toLongLong(), d.periods[i + D::PEnd].toLongLong(),
            amount, tooltip});
    }
    std::optional<TimelineWidget::Span> current;
    if (!d.periodStart.isNull() && !d.periodEnd.isNull())
        current = TimelineWidget::Span {d.periodStart.toLongLong(), d.periodEnd.toLongLong(),
            tr("current period"),
            tr("Current period %1, no billing period recorded for it")
                .arg(format::period(start, end))};
    m_timeline->setSpans(paid, pending, current);

    const bool active = d.status == u"active";
    QString html = u"<b style='font-size:large'>%1</b> &nbsp;·&nbsp; %2 &nbsp;·&nbsp; "_qs.arg(
        d.subscriptionId.toHtmlEscaped(), d.provider.toHtmlEscaped());
    html += (active ? u"<b>%1</b>"_qs : u"<b style='color:#8a5a00'>%1</b>"_qs)
                .arg(format::storedWord(d.status).toHtmlEscaped());
    html += u" &nbsp;·&nbsp; "_qs
        + tr("current period <b>%1</b>").arg(format::period(start, end).toHtmlEscaped());
    html += u" &nbsp;·&nbsp; "_qs
        + (d.cancelAtPeriodEnd
                ? u"<b style='color:#b02020'>"_qs + tr("cancels at period end") + u"</b>"_qs
                : tr("renews automatically"));
    html += u" &nbsp;·&nbsp; "_qs + tr("revision %1").arg(d.revision);
    if (openCases > 0)
        html += u" &nbsp;·&nbsp; <b style='color:#b02020'>"_qs
            + tr("%n open case(s)", nullptr, openCases) + u"</b>"_qs;
    // Payment trouble (#41): its access when it is not in good standing.
    const QString accessText = access::accessLine(d.access);
    if (!accessText.isEmpty()) {
        const QString colour = d.access.verdict == u"in_grace" ? u"#8a5a00"_qs : u"#b02020"_qs;
        html += u" &nbsp;·&nbsp; <b style='color:%1'>"_qs.arg(colour) + accessText.toHtmlEscaped()
            + u"</b>"_qs;
    }
    if (m_timeline->irregularities() > 0)
        html += u" &nbsp;·&nbsp; <b style='color:#d96c00'>"_qs
            + tr("%n gap(s)/overlap(s) in paid periods", nullptr, m_timeline->irregularities())
            + u"</b>"_qs;
    m_header->setText(html);
    m_header->setToolTip(accessText.isEmpty()
            ? format::utcTooltip(start, end)
            : format::utcTooltip(start, end) + u"\n"_qs + accessText + u": "_qs + d.access.reason);

    // The selected billing period stays selected when the same subscription is read again
    // (a live update); a period asked for (selectBillingPeriod) is selected once it is shown.
    const QString asked = m_pendingPeriod;
    const QString keepPeriod = d.id == m_shownSubscription ? selectedBillingPeriod() : QString();
    m_shownSubscription = d.id;
    m_periods->setRows(d.periods);
    m_audits->setRows(d.audits);
    m_outbox->setRows(d.outbox);
    m_cases->setRows(d.cases);
    for (auto *table : findChildren<TableView *>()) {
        if (table != m_auditDetails)
            table->resizeColumnsToContents();
    }
    // The newest record's details show until another is selected.
    if (m_audits->rowCount() > 0)
        m_auditView->selectRow(0);
    else
        showAuditDetails(-1);
    const int periods = int(d.periods.size() / D::PeriodFieldCount);
    m_tabs->setTabText(0,
        d.periodsTruncated ? tr("Billing periods (latest %1)").arg(periods)
                           : tr("Billing periods (%1)").arg(periods));
    m_tabs->setTabText(1, tr("Audit trail (%1)").arg(d.audits.size() / D::AuditFieldCount));
    m_tabs->setTabText(2, tr("Outbox (%1)").arg(d.outbox.size() / D::OutboxFieldCount));
    m_tabs->setTabText(3,
        openCases > 0 ? tr("Cases (%1 open)").arg(openCases)
                      : tr("Cases (%1)").arg(d.cases.size() / D::CaseFieldCount));
    if (!asked.isEmpty()) {
        selectBillingPeriod(asked);
    } else if (const int row = m_periods->rowOfKey(keepPeriod); row >= 0) {
        m_periodsView->selectRow(row);
    }
    // Asked for a period this subscription does not list (older than the newest
    // kMaxPeriods): nothing is selected later by surprise.
    m_pendingPeriod.clear();
    // A broken record flagged for this subscription stays flagged on a live update; another
    // subscription drops it.
    if (m_flag.subscription != d.id)
        m_flag = {};
    applyAuditFlag();
}

} // namespace rd::ui
