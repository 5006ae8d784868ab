#include "ui/widgets/casespage.h"

#include "ui/models/asyncresult.h"
#include "ui/models/caseevidence.h"
#include "ui/models/columns.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/recordtablemodel.h"
#include "ui/widgets/comparisonview.h"
#include "ui/widgets/operatornotedialog.h"
#include "ui/widgets/snapshotdialog.h"
#include "ui/widgets/tableview.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace rd::ui {
namespace {

struct Queue
{
    QVector<QVariant> cells;
    int openCount = 0;
    bool canOperate = false;
    QString sessionUser;
};

Queue loadQueue(QSqlDatabase &db, CasesPage::Scope scope)
{
    Queue q;
    QString where;
    switch (scope) {
    case CasesPage::Scope::Open:
        where = u"status = 'open'"_qs;
        break;
    case CasesPage::Scope::HealedAutomatically:
        where = u"status = 'resolved' AND resolved_by = 'system'"_qs;
        break;
    case CasesPage::Scope::Resolved:
        where = u"status = 'resolved'"_qs;
        break;
    case CasesPage::Scope::Dismissed:
        where = u"status = 'dismissed'"_qs;
        break;
    case CasesPage::Scope::All:
        where = u"true"_qs;
        break;
    }
    // Served by reconciliation_cases_queue (status, last_seen_at DESC, id); the history by
    // reconciliation_case_history_chain (case_id, chain_seq).
    QSqlQuery rows = execSql(db,
        u"SELECT c.id, c.error_code, c.provider_key, c.provider_subscription_id, "
        "c.provider_renewal_key, rd_rfc3339(c.first_seen_at), rd_rfc3339(c.last_seen_at), "
        "c.occurrences, coalesce(c.subscription_id::text, ''), jsonb_pretty(c.event), "
        "c.event::text, c.local_state::text, c.first_provider_event_id, "
        "c.last_provider_event_id, "
        "CASE WHEN c.status = 'open' THEN 'open' "
        "     WHEN c.resolved_by = 'system' THEN 're-applied automatically' "
        "     ELSE replace(coalesce(c.resolution, c.status), '_', ' ') || ' by ' "
        "          || coalesce(c.resolved_by, '?') END, "
        "c.status = 'open', "
        "(SELECT string_agg(concat_ws('|', rd_rfc3339(h.created_at), h.action, h.outcome, "
        "     h.actor, replace(coalesce(h.comment, ''), '|', '/'), coalesce(h.error_code, '')), "
        "     E'\\n' ORDER BY h.chain_seq) "
        "   FROM reconciliation_case_history h WHERE h.case_id = c.id) "
        "FROM reconciliation_cases c WHERE "_qs
            + where + u" ORDER BY c.last_seen_at DESC, c.id LIMIT 1000"_qs);
    readRows(rows,
        {Field::Int, Field::Interned, Field::Interned, Field::Text, Field::Text, Field::Micros,
            Field::Micros, Field::Int, Field::Text, Field::Text, Field::Text, Field::Text,
            Field::Text, Field::Text, Field::Interned, Field::Bool, Field::Text},
        q.cells);
    QSqlQuery meta = execSql(db,
        u"SELECT (SELECT count(*) FROM reconciliation_cases WHERE status = 'open'), "
        "coalesce(pg_has_role(session_user, to_regrole('renewal_operator')::oid, 'MEMBER'), "
        "has_table_privilege('reconciliation_cases', 'UPDATE')), session_user::text"_qs);
    if (meta.next()) {
        q.openCount = meta.value(0).toInt();
        q.canOperate = meta.value(1).toBool();
        q.sessionUser = meta.value(2).toString();
    }
    return q;
}

// One step of a case's history, in the desk's words.
QString caseStepText(const QString &action, const QString &outcome, const QString &error)
{
    if (action == u"opened")
        return QObject::tr("opened");
    if (action == u"occurrence")
        return QObject::tr("delivered again");
    if (action == u"reapply")
        return outcome == u"applied" ? QObject::tr("re-applied: renewal recorded")
            : outcome == u"duplicate"
            ? QObject::tr("re-applied: renewal was already recorded")
            : QObject::tr("re-applied: still rejected (%1)").arg(format::humanize(error));
    if (action == u"snapshot_attached")
        return QObject::tr("provider snapshot attached");
    if (action == u"dismissed")
        return QObject::tr("dismissed");
    if (action == u"reopened")
        return QObject::tr("reopened");
    return action;
}

QString actionName(CaseActions::Action action)
{
    switch (action) {
    case CaseActions::Action::Reapply:
        return QObject::tr("Re-apply");
    case CaseActions::Action::Dismiss:
        return QObject::tr("Dismiss");
    case CaseActions::Action::AttachSnapshot:
        return QObject::tr("Attach provider snapshot");
    }
    return {};
}

} // namespace

CasesPage::CasesPage(DatabasePool *pool, CaseActions *actions, QWidget *parent)
    : QWidget(parent)
    , m_pool(pool)
    , m_actions(actions)
    , m_table(new TableView)
    , m_splitter(new QSplitter(Qt::Vertical))
    , m_title(new QLabel)
    , m_finding(new QLabel)
    , m_history(new QLabel)
    , m_evidence(new TableView)
    , m_evidenceModel(new ComparisonModel(this))
    , m_json(new QPlainTextEdit)
    , m_snapshot(new QPushButton(tr("Attach provider snapshot…")))
    , m_reapply(new QPushButton(tr("Re-apply…")))
    , m_dismiss(new QPushButton(tr("Dismiss…")))
    , m_openSubscription(new QPushButton(tr("Open subscription")))
    , m_outcome(new QLabel)
    , m_scopeBox(new QComboBox)
{
    m_model = new RecordTableModel(FieldCount,
        {columns::count(tr("Case"), Id), columns::code(tr("Reason"), ErrorCode),
            columns::text(tr("Provider"), Provider),
            columns::text(tr("Subscription"), SubscriptionRef),
            columns::text(tr("Renewal key"), RenewalKey), columns::age(tr("Age"), FirstSeen),
            columns::count(tr("Seen"), Occurrences), columns::instant(tr("Last seen"), LastSeen),
            columns::text(tr("Status"), Status)},
        Id, this);
    m_table->setObjectName(u"cases"_qs);
    m_table->setModel(m_model);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);

    m_title->setTextFormat(Qt::RichText);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_finding->setWordWrap(true);
    m_history->setWordWrap(true);
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
    buttons->addWidget(m_snapshot);
    buttons->addWidget(m_reapply);
    buttons->addWidget(m_dismiss);

    auto *detail = new QWidget;
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 4, 0, 0);
    detailLayout->addWidget(m_title);
    detailLayout->addWidget(m_finding);
    detailLayout->addWidget(m_history);
    detailLayout->addWidget(evidenceSplit, 1);
    detailLayout->addWidget(m_outcome);
    detailLayout->addLayout(buttons);

    // The queue is the open cases; the others stay reachable (what healed by itself, what
    // people resolved or dismissed), each with its history.
    m_scopeBox->setObjectName(u"case-scope"_qs);
    m_scopeBox->addItem(tr("Open cases"), int(Scope::Open));
    m_scopeBox->addItem(tr("Healed automatically"), int(Scope::HealedAutomatically));
    m_scopeBox->addItem(tr("Resolved"), int(Scope::Resolved));
    m_scopeBox->addItem(tr("Dismissed"), int(Scope::Dismissed));
    m_scopeBox->addItem(tr("All cases"), int(Scope::All));
    auto *top = new QWidget;
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    auto *scopeRow = new QHBoxLayout;
    scopeRow->addWidget(new QLabel(tr("Show:")));
    scopeRow->addWidget(m_scopeBox);
    scopeRow->addStretch(1);
    topLayout->addLayout(scopeRow);
    topLayout->addWidget(m_table);
    connect(m_scopeBox, &QComboBox::currentIndexChanged, this,
        [this] { setScope(Scope(m_scopeBox->currentData().toInt())); });

    m_splitter->setObjectName(u"cases-split"_qs);
    m_splitter->addWidget(top);
    m_splitter->addWidget(detail);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setSizes({260, 480});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) { showCase(current.isValid() ? current.row() : -1); });
    connect(m_reapply, &QPushButton::clicked, this,
        [this] { askAndRun(CaseActions::Action::Reapply); });
    connect(m_dismiss, &QPushButton::clicked, this,
        [this] { askAndRun(CaseActions::Action::Dismiss); });
    connect(m_snapshot, &QPushButton::clicked, this,
        [this] { askAndRun(CaseActions::Action::AttachSnapshot); });
    connect(m_openSubscription, &QPushButton::clicked, this, [this] {
        const int r = m_model->rowOfKey(QString::number(m_currentCase));
        if (r < 0)
            return;
        const QString id = m_model->row(r)[SubscriptionUuid].toString();
        if (id.isEmpty())
            emit statusMessage(m_openSubscription->toolTip());
        else
            emit subscriptionOpenRequested(id);
    });
    // Enter opens the subscription, or says why there is none (a disabled button ignores click).
    connect(m_table, &TableView::openRequested, this, [this] {
        if (m_openSubscription->isEnabled())
            m_openSubscription->click();
        else if (!m_openSubscription->toolTip().isEmpty())
            emit statusMessage(m_openSubscription->toolTip());
    });
    showCase(-1);
}

QString CasesPage::outcomeText() const
{
    return m_outcome->text();
}

void CasesPage::refresh()
{
    deliverResult(
        this, m_pool->run([scope = m_scope](QSqlDatabase &db) { return loadQueue(db, scope); }),
        [this](Queue q) {
            const qint64 keep = m_pendingSelect ? m_pendingSelect : m_currentCase;
            m_pendingSelect = 0;
            m_canOperate = q.canOperate;
            m_sessionUser = q.sessionUser;
            m_model->setRows(std::move(q.cells));
            if (m_openCount != q.openCount) {
                m_openCount = q.openCount;
                emit openCountChanged(m_openCount);
            }
            const int r = keep ? m_model->rowOfKey(QString::number(keep)) : -1;
            if (r >= 0) {
                m_table->selectRow(r);
                showCase(r);
            } else if (m_model->rowCount() > 0 && !m_busy && m_currentCase == 0) {
                m_table->selectRow(0);
            } else if (r < 0 && m_currentCase != 0 && !m_busy) {
                // The case left the queue (resolved): keep its outcome on screen.
                m_table->clearSelection();
            }
            updateButtons();
        },
        [this](const QString &message) { emit statusMessage(message); },
        // A queue read for an earlier refresh (another scope, before an action) is dropped.
        m_queueRequest.next());
}

void CasesPage::setScope(Scope scope)
{
    if (scope == m_scope)
        return;
    m_scope = scope;
    const int index = m_scopeBox->findData(int(scope));
    if (index >= 0 && index != m_scopeBox->currentIndex())
        m_scopeBox->setCurrentIndex(index);
    m_currentCase = 0;
    refresh();
}

bool CasesPage::openCase(qint64 caseId)
{
    const int r = m_model->rowOfKey(QString::number(caseId));
    if (r < 0) {
        m_pendingSelect = caseId;
        refresh();
        return false;
    }
    m_table->selectRow(r);
    return true;
}

void CasesPage::showCase(int row)
{
    if (row < 0 || row >= m_model->rowCount()) {
        if (m_currentCase == 0) {
            m_title->setText(u"<span style='color:gray'>"_qs
                + tr("No case selected. Open cases appear here as renewals are rejected.")
                + u"</span>"_qs);
            m_finding->clear();
            m_history->clear();
            m_evidenceModel->setLines({}, {}, {});
            m_json->clear();
        }
        updateButtons();
        return;
    }
    const RowRef r = m_model->row(row);
    const qint64 id = r[Id].toLongLong();
    if (id != m_currentCase)
        m_outcome->clear();
    m_currentCase = id;
    const QString code = r[ErrorCode].toString();
    m_title->setText(u"<b style='font-size:large'>"_qs + tr("Case %1").arg(id)
        + u"</b> &nbsp;·&nbsp; <b>"_qs + format::humanize(code).toHtmlEscaped()
        + u"</b> &nbsp;·&nbsp; "_qs + r[Provider].toString().toHtmlEscaped() + u" &nbsp;·&nbsp; "_qs
        + r[SubscriptionRef].toString().toHtmlEscaped() + u" &nbsp;·&nbsp; "_qs
        + r[RenewalKey].toString().toHtmlEscaped() + u" &nbsp;·&nbsp; "_qs
        + tr("seen %1×").arg(r[Occurrences].toLongLong()) + u" &nbsp;·&nbsp; "_qs
        + tr("%1 old").arg(format::age(columns::fromMicros(r[FirstSeen])))
        + (r[IsOpen].toBool()
                ? QString()
                : u" &nbsp;·&nbsp; <b>"_qs + r[Status].toString().toHtmlEscaped() + u"</b>"_qs));

    const CaseEvidence ev
        = buildCaseEvidence(code, r[EventJson].toString(), r[LocalStateJson].toString());
    // A closed case says so first: its evidence is what was found while it was open.
    m_finding->setText(r[IsOpen].toBool()
            ? ev.finding
            : tr("Closed: %1. When it was open: %2").arg(r[Status].toString(), ev.finding));
    const qint64 seen = r[Occurrences].toLongLong();
    const QDateTime first = columns::fromMicros(r[FirstSeen]);
    const QDateTime last = columns::fromMicros(r[LastSeen]);
    m_history->setText(seen > 1
            ? tr("History: first delivered as %1, %2 ago; delivered %3 times, last as %4, %5 ago.")
                  .arg(r[FirstEvent].toString(), format::age(first))
                  .arg(seen)
                  .arg(r[LastEvent].toString(), format::age(last))
            : tr("History: delivered once, as %1, %2 ago.")
                  .arg(r[FirstEvent].toString(), format::age(first)));
    m_history->setToolTip(format::utcTooltip(first, last));
    // Every step the case went through, as its tamper-evident history records it.
    QStringList steps;
    for (const QString &line : r[HistoryText].toString().split(u'\n', Qt::SkipEmptyParts)) {
        const QStringList f = line.split(u'|');
        if (f.size() < 6)
            continue;
        const QDateTime at = QDateTime::fromString(f[0], Qt::ISODateWithMs);
        QString what = caseStepText(f[1], f[2], f[5]);
        if (!f[4].isEmpty())
            what += u": "_qs + f[4];
        steps << tr("%1 · %2 · %3").arg(format::localDateTime(at), what, f[3]);
    }
    if (!steps.isEmpty())
        m_history->setText(m_history->text() + u"\n"_qs + steps.join(u'\n'));
    m_evidenceModel->setLines(ev.localTitle, ev.incomingTitle, ev.lines);
    m_json->setPlainText(r[EventPretty].toString());
    updateButtons();
}

void CasesPage::updateButtons()
{
    const int currentRow
        = m_currentCase != 0 ? m_model->rowOfKey(QString::number(m_currentCase)) : -1;
    const bool hasCase = currentRow >= 0;
    const bool isOpen = hasCase && m_model->row(currentRow)[IsOpen].toBool();
    const QString viewerReason = tr("Your database role (%1) may only look: acting on cases "
                                    "needs renewal_operator.")
                                     .arg(m_sessionUser);
    auto setup = [&](QPushButton *button, CaseActions::Action action) {
        const bool available = m_actions->isAvailable(action);
        button->setEnabled(available && m_canOperate && isOpen && !m_busy);
        if (!available)
            button->setToolTip(m_actions->unavailableReason(action));
        else if (!m_canOperate)
            button->setToolTip(viewerReason);
        else
            button->setToolTip({});
    };
    setup(m_reapply, CaseActions::Action::Reapply);
    setup(m_dismiss, CaseActions::Action::Dismiss);
    setup(m_snapshot, CaseActions::Action::AttachSnapshot);
    // A case whose subscription is not in the desk (subscription_not_found) has nothing to
    // open: say so rather than show whatever subscription was open before.
    const bool hasSubscription
        = hasCase && !m_model->row(currentRow)[SubscriptionUuid].toString().isEmpty();
    m_openSubscription->setEnabled(hasSubscription);
    m_openSubscription->setToolTip(hasCase && !hasSubscription
            ? tr("The provider's subscription %1 is not in the desk: import it, or attach a "
                 "provider snapshot to create it.")
                  .arg(m_model->row(currentRow)[SubscriptionRef].toString())
            : QString());
}

SnapshotDialog *CasesPage::openSnapshotDialog()
{
    if (m_currentCase == 0 || m_busy)
        return nullptr;
    // Window-modal and not exec(): the desk keeps refreshing while the operator reads the
    // preview (and tests can drive the dialog).
    auto *dialog = new SnapshotDialog(m_pool, m_actions, m_currentCase, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (dialog->caseId() != m_currentCase) {
            m_outcome->setStyleSheet(u"color:#b02020; font-weight:bold"_qs);
            m_outcome->setText(
                tr("Case %1 is no longer selected: nothing was attached.").arg(dialog->caseId()));
            return;
        }
        runAction(CaseActions::Action::AttachSnapshot, dialog->reason(), dialog->comment(),
            dialog->snapshotJson());
    });
    dialog->open();
    return dialog;
}

void CasesPage::askAndRun(CaseActions::Action action)
{
    if (action == CaseActions::Action::AttachSnapshot) {
        openSnapshotDialog();
        return;
    }
    OperatorNoteDialog dialog(
        actionName(action), m_currentCase, action == CaseActions::Action::Dismiss, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    runAction(action, dialog.reason(), dialog.comment());
}

void CasesPage::runAction(CaseActions::Action action, const QString &reason, const QString &comment,
    const QString &snapshotJson)
{
    if (m_currentCase == 0 || m_busy)
        return;
    m_busy = true;
    updateButtons();
    m_outcome->setStyleSheet({});
    m_outcome->setText(tr("%1 case %2…").arg(actionName(action)).arg(m_currentCase));
    deliverResult(
        this, m_actions->run(action, {m_currentCase, reason, comment, snapshotJson}),
        [this](const CaseActionOutcome &outcome) { actionDone(outcome); },
        [this](const QString &message) {
            actionDone({CaseActionOutcome::Kind::Failed, message, u"error"_qs});
        });
}

void CasesPage::actionDone(const CaseActionOutcome &outcome)
{
    m_busy = false;
    const bool good = outcome.kind == CaseActionOutcome::Kind::Resolved;
    m_outcome->setStyleSheet(
        good ? u"color:#1b6e20; font-weight:bold"_qs : u"color:#b02020; font-weight:bold"_qs);
    m_outcome->setText(outcome.summary);
    emit actionFinished(outcome);
    refresh();
}

} // namespace rd::ui
