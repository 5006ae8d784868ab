#include "ui/widgets/casedetailpanel.h"

#include "ui/models/caseevidence.h"
#include "ui/models/casequeue.h"
#include "ui/models/caserow.h"
#include "ui/models/columns.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/format.h"
#include "ui/models/recordtablemodel.h"
#include "ui/widgets/comparisonview.h"
#include "ui/widgets/tableview.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace rd::ui {
namespace {

// A step's time: local, with the zone and UTC in the tooltip.
Column stepTime(const QString &title, int field)
{
    Column c = columns::instant(title, field);
    c.data = [field, display = c.data](RowRef r, int role) -> QVariant {
        if (role != Qt::ToolTipRole)
            return display(r, role);
        const QDateTime utc = columns::fromMicros(r[field]);
        if (!utc.isValid())
            return {};
        return QLocale().toString(utc.toLocalTime(), u"d MMM yyyy HH:mm:ss t"_qs) + u'\n'
            + format::utcTooltip(utc);
    };
    return c;
}

QString separated(const QString &text)
{
    return u" &nbsp;·&nbsp; "_qs + text;
}

} // namespace

CaseDetailPanel::CaseDetailPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel)
    , m_finding(new QLabel)
    , m_history(new QLabel)
    , m_historyTable(new TableView)
    , m_evidence(new TableView)
    , m_evidenceModel(new ComparisonModel(this))
    , m_json(new QPlainTextEdit)
    , m_outcome(new QLabel)
    , m_openSubscription(new QPushButton(tr("Open subscription")))
    , m_claim(new QPushButton(tr("Claim")))
    , m_release(new QPushButton(tr("Release")))
    , m_note(new QPushButton(tr("Add note…")))
    , m_snapshot(new QPushButton(tr("Attach provider snapshot…")))
    , m_reapply(new QPushButton(tr("Re-apply…")))
    , m_dismiss(new QPushButton(tr("Dismiss…")))
    , m_reopen(new QPushButton(tr("Reopen…")))
{
    using H = CaseHistoryRow;
    m_historyModel = new RecordTableModel(H::StepFieldCount,
        {stepTime(tr("When"), H::StepAt), columns::text(tr("Actor"), H::StepActor),
            columns::text(tr("Database role"), H::StepRole),
            columns::text(tr("Action"), H::StepAction),
            columns::text(tr("Outcome"), H::StepOutcome),
            columns::text(tr("Reason"), H::StepReason),
            columns::text(tr("Comment"), H::StepComment)},
        H::StepSeq, this);
    m_historyTable->setObjectName(u"case-history-table"_qs);
    m_openSubscription->setObjectName(u"case-open-subscription"_qs);
    m_historyTable->setModel(m_historyModel);
    m_historyTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_historyTable->horizontalHeader()->setStretchLastSection(true);
    m_historyTable->setColumnsFitted(true); // fitted per case (setHistory)

    m_title->setTextFormat(Qt::RichText);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true); // a long title wraps: it must not set the window's width
    m_finding->setWordWrap(true);
    m_history->setWordWrap(true);
    m_history->setTextFormat(Qt::RichText);
    m_history->setObjectName(u"case-history"_qs);
    m_finding->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_finding->setObjectName(u"case-finding"_qs);
    // A TableView like every other table: Ctrl+C copies the selected lines (for a ticket or
    // an e-mail), the context menu exports the evidence to CSV.
    m_evidence->setObjectName(u"case-evidence"_qs);
    showComparison(m_evidence, m_evidenceModel);
    m_json->setReadOnly(true);
    m_json->setLineWrapMode(QPlainTextEdit::NoWrap); // JSON reads by its indentation
    m_json->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_json->setObjectName(u"case-event-json"_qs);
    m_outcome->setWordWrap(true);
    m_outcome->setObjectName(u"case-outcome"_qs);
    m_outcome->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *evidenceSplit = new QSplitter(Qt::Horizontal);
    evidenceSplit->setObjectName(u"case-evidence-split"_qs);
    evidenceSplit->addWidget(m_evidence);
    evidenceSplit->addWidget(m_json);
    evidenceSplit->setStretchFactor(0, 3);
    evidenceSplit->setStretchFactor(1, 2);
    evidenceSplit->setSizes({660, 400}); // the comparison first; the raw event is for reading

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_openSubscription);
    buttons->addStretch(1);
    for (QPushButton *b : {m_claim, m_release, m_note})
        buttons->addWidget(b);
    buttons->addSpacing(16);
    buttons->addWidget(m_snapshot);
    buttons->addWidget(m_reapply);
    buttons->addWidget(m_dismiss);
    // Only on a dismissed case (updateButtons): it takes Dismiss's place in the row.
    m_reopen->setObjectName(u"case-reopen"_qs);
    m_reopen->setVisible(false);
    buttons->addWidget(m_reopen);

    // The evidence, and under it every step the case went through (its tamper-evident
    // history: who, as which database role, why, with what outcome).
    auto *historyBox = new QWidget;
    auto *historyLayout = new QVBoxLayout(historyBox);
    historyLayout->setContentsMargins(0, 2, 0, 0);
    historyLayout->setSpacing(2);
    historyLayout->addWidget(m_history);
    historyLayout->addWidget(m_historyTable, 1);
    auto *evidenceAndHistory = new QSplitter(Qt::Vertical);
    evidenceAndHistory->setObjectName(u"case-evidence-history-split"_qs);
    evidenceAndHistory->addWidget(evidenceSplit);
    evidenceAndHistory->addWidget(historyBox);
    evidenceAndHistory->setStretchFactor(0, 3);
    evidenceAndHistory->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_finding);
    layout->addWidget(evidenceAndHistory, 1);
    layout->addWidget(m_outcome);
    layout->addLayout(buttons);

    for (auto action :
        {CaseActions::Action::Claim, CaseActions::Action::Release, CaseActions::Action::Note,
            CaseActions::Action::AttachSnapshot, CaseActions::Action::Reapply,
            CaseActions::Action::Dismiss, CaseActions::Action::Reopen}) {
        connect(button(action), &QPushButton::clicked, this,
            [this, action] { emit actionRequested(action); });
    }
    connect(
        m_openSubscription, &QPushButton::clicked, this, &CaseDetailPanel::openSubscriptionClicked);
}

QString CaseDetailPanel::titleText() const
{
    return m_title->text();
}

QString CaseDetailPanel::findingText() const
{
    return m_finding->text();
}

QString CaseDetailPanel::outcomeText() const
{
    return m_outcome->text();
}

QPushButton *CaseDetailPanel::button(CaseActions::Action action) const
{
    switch (action) {
    case CaseActions::Action::Reapply:
        return m_reapply;
    case CaseActions::Action::Dismiss:
        return m_dismiss;
    case CaseActions::Action::AttachSnapshot:
        return m_snapshot;
    case CaseActions::Action::Claim:
        return m_claim;
    case CaseActions::Action::Release:
        return m_release;
    case CaseActions::Action::Note:
        return m_note;
    case CaseActions::Action::Reopen:
        return m_reopen;
    }
    return nullptr;
}

void CaseDetailPanel::showNoCase()
{
    m_title->setText(u"<span style='color:gray'>"_qs
        + tr("No case selected. Open cases appear here as renewals are rejected.") + u"</span>"_qs);
    m_finding->clear();
    m_history->clear();
    m_historyModel->setRows({});
    m_evidenceModel->setLines({}, {}, {});
    m_json->clear();
}

void CaseDetailPanel::showCase(RowRef r, const Viewer &viewer)
{
    using F = CaseRow;
    const qint64 id = r[F::Id].toLongLong();
    const bool open = r[F::IsOpen].toBool();
    const QString code = r[F::ErrorCode].toString();
    const QString holder = r[F::AssignedTo].toString();
    const QString you = viewer.sessionUser;
    m_title->setText(u"<b style='font-size:large'>"_qs + tr("Case %1").arg(id) + u"</b>"_qs
        + separated(u"<b>"_qs + format::humanize(code).toHtmlEscaped() + u"</b>"_qs)
        + separated(r[F::Provider].toString().toHtmlEscaped())
        + separated(r[F::SubscriptionRef].toString().toHtmlEscaped())
        + separated(r[F::RenewalKey].toString().toHtmlEscaped())
        + separated(tr("seen %1×").arg(r[F::Occurrences].toLongLong()))
        + separated(tr("%1 old").arg(format::age(columns::fromMicros(r[F::FirstSeen]))))
        + (viewer.aged ? u" &nbsp;<b>"_qs
                    + tr("⚠ open longer than %1").arg(ageBoundText(viewer.markAgedAfterSecs))
                    + u"</b>"_qs
                       : QString())
        + (!open ? QString()
                : holder.isEmpty()
                ? separated(tr("unassigned"))
                : separated(tr("assigned to <b>%1</b>")
                                .arg(holder == you ? tr("you (%1)").arg(you.toHtmlEscaped())
                                                   : holder.toHtmlEscaped())))
        + (open ? QString()
                : separated(u"<b style='color:#1b6e20'>"_qs
                    + r[F::Status].toString().toHtmlEscaped() + u"</b>"_qs)));

    const CaseEvidence ev = buildCaseEvidence(code, r[F::EventJson].toString(),
        r[F::LocalStateJson].toString(), !r[F::SubscriptionUuid].toString().isEmpty());
    // A closed case says so first: its evidence is what was found while it was open. An open
    // one says what to do next.
    m_finding->setText(open
            ? (ev.nextStep.isEmpty() ? ev.finding
                                     : ev.finding + u'\n' + tr("Next step: %1").arg(ev.nextStep))
            : tr("Closed: %1. When it was open: %2").arg(r[F::Status].toString(), ev.finding));
    const qint64 seen = r[F::Occurrences].toLongLong();
    const QDateTime first = columns::fromMicros(r[F::FirstSeen]);
    const QDateTime last = columns::fromMicros(r[F::LastSeen]);
    // A case a statement import raised names the statement's object ("statement:<sha256>"),
    // which was never delivered.
    const bool fromStatement = r[F::FirstEvent].toString().startsWith(u"statement:"_qs);
    m_history->setText(u"<b>"_qs + tr("History") + u"</b> &nbsp;"_qs
        + (seen > 1 ? tr("first delivered as %1, %2 ago; delivered %3 times, last as %4, %5 ago.")
                          .arg(r[F::FirstEvent].toString().toHtmlEscaped(), format::age(first))
                          .arg(seen)
                          .arg(r[F::LastEvent].toString().toHtmlEscaped(), format::age(last))
                : fromStatement
                ? tr("found by a statement import, %1 ago (object %2).")
                      .arg(format::age(first), r[F::FirstEvent].toString().toHtmlEscaped())
                : tr("delivered once, as %1, %2 ago.")
                      .arg(r[F::FirstEvent].toString().toHtmlEscaped(), format::age(first))));
    m_history->setToolTip(format::utcTooltip(first, last));
    m_evidenceModel->setLines(ev.localTitle, ev.incomingTitle, ev.lines);
    m_json->setPlainText(r[F::EventPretty].toString());
}

void CaseDetailPanel::setHistory(const QVector<CaseHistoryStep> &steps)
{
    m_historyModel->setRows(caseHistoryCells(steps));
    // The history is short (often one row, which TableView does not fit to): its columns fit
    // what this case's history says, up to a limit; the comment stretches.
    const int maxWidth = m_historyTable->fontMetrics().horizontalAdvance(u'M') * 28;
    for (int c = 0; c + 1 < m_historyModel->columnCount(); ++c) {
        m_historyTable->resizeColumnToContents(c);
        m_historyTable->setColumnWidth(c, std::min(m_historyTable->columnWidth(c) + 8, maxWidth));
    }
}

void CaseDetailPanel::clearHistory()
{
    m_historyModel->setRows({});
}

void CaseDetailPanel::showOutcome(const QString &text, bool good)
{
    m_outcome->setStyleSheet(
        good ? u"color:#1b6e20; font-weight:bold"_qs : u"color:#b02020; font-weight:bold"_qs);
    m_outcome->setText(text);
}

void CaseDetailPanel::showRunning(const QString &text)
{
    m_outcome->setStyleSheet({});
    m_outcome->setText(text);
}

void CaseDetailPanel::clearOutcome()
{
    m_outcome->clear();
}

void CaseDetailPanel::updateButtons(
    const CaseActions &actions, RowRef current, const ActionState &state)
{
    using F = CaseRow;
    using Action = CaseActions::Action;
    const bool hasCase = current != nullptr;
    const bool isOpen = hasCase && current[F::IsOpen].toBool();
    const bool canOperate = state.canOperate;
    auto setup = [&](QPushButton *button, Action action) {
        const bool available = actions.isAvailable(action);
        button->setEnabled(available && canOperate && isOpen && !state.busy);
        if (!available)
            button->setToolTip(actions.unavailableReason(action));
        else if (!canOperate)
            button->setToolTip(state.blockedReason);
        else
            button->setToolTip({});
    };
    setup(m_reapply, Action::Reapply);
    setup(m_dismiss, Action::Dismiss);
    setup(m_snapshot, Action::AttachSnapshot);
    // Re-apply cannot work on a renewal without its period (needs_snapshot): disabled, with
    // the reason, instead of asking for a note and then being refused.
    if (isOpen && canOperate && actions.isAvailable(Action::Reapply)) {
        const QString blocked = reapplyBlockedReason(current[F::EventJson].toString());
        if (!blocked.isEmpty()) {
            m_reapply->setEnabled(false);
            m_reapply->setToolTip(blocked);
        }
    }
    if (isOpen && canOperate && actions.isAvailable(Action::AttachSnapshot)) {
        const QString blocked = snapshotBlockedReason(current[F::EventJson].toString());
        if (!blocked.isEmpty()) {
            m_snapshot->setEnabled(false);
            m_snapshot->setToolTip(blocked);
        }
    }
    // Reopen: a dismissed case only (a resolved one's renewal is recorded), in Dismiss's place,
    // and only where the database would reopen it (its refusal, if any, is the tooltip).
    const bool dismissed = hasCase && current[F::IsDismissed].toBool();
    const QString refusal = dismissed ? current[F::ReopenRefusal].toString() : QString();
    setup(m_reopen, Action::Reopen);
    m_reopen->setEnabled(dismissed && refusal.isEmpty() && canOperate && !state.busy
        && actions.isAvailable(Action::Reopen));
    m_reopen->setVisible(dismissed);
    m_dismiss->setVisible(!dismissed);
    if (dismissed && canOperate && actions.isAvailable(Action::Reopen))
        m_reopen->setToolTip(!refusal.isEmpty()
                ? tr("The database would not reopen this case: %1").arg(refusal)
                : tr("Dismissed by mistake? Put the case back in the queue, open, "
                     "with a note saying why; its history keeps the dismissal."));
    // Claim, release and note: a note goes on any case, open or closed; claims are of open
    // cases. Taking over or releasing another's claim asks for the note the database requires.
    const QString holder = hasCase ? current[F::AssignedTo].toString() : QString();
    const bool mine = !holder.isEmpty() && holder == state.sessionUser;
    setup(m_claim, Action::Claim);
    setup(m_release, Action::Release);
    setup(m_note, Action::Note);
    m_claim->setEnabled(m_claim->isEnabled() && !mine);
    m_claim->setText(holder.isEmpty() || mine ? tr("Claim") : tr("Take over…"));
    m_release->setEnabled(m_release->isEnabled() && !holder.isEmpty());
    m_release->setText(holder.isEmpty() || mine ? tr("Release") : tr("Release…"));
    m_note->setEnabled(canOperate && hasCase && !state.busy);
    if (canOperate) {
        m_claim->setToolTip(mine ? tr("The case is assigned to you.")
                : holder.isEmpty()
                ? tr("Assign the case to you (%1): the queue shows it as yours.")
                      .arg(state.sessionUser)
                : tr("The case is claimed by %1: taking it over needs a note saying why.")
                      .arg(holder));
        m_release->setToolTip(holder.isEmpty() ? tr("Nobody has claimed the case.")
                : mine                         ? tr("Give the case back to the queue.")
                                               : tr("The case is claimed by %1: releasing it "
                                                                            "needs a note saying why.")
                             .arg(holder));
        m_note->setToolTip(tr("A note in the case's history (not an action): what you "
                              "learned, for whoever works the case next."));
    } else {
        m_note->setToolTip(state.blockedReason);
    }
    // A case whose subscription is not in the desk (subscription_not_found) has nothing to
    // open: say so rather than show whatever subscription was open before.
    const bool hasSubscription = hasCase && !current[F::SubscriptionUuid].toString().isEmpty();
    m_openSubscription->setEnabled(hasSubscription);
    m_openSubscription->setToolTip(hasCase && !hasSubscription
            ? tr("The provider's subscription %1 is not in the desk: import it, or attach a "
                 "provider snapshot to create it.")
                  .arg(current[F::SubscriptionRef].toString())
            : QString());
}

} // namespace rd::ui
