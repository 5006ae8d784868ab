#include "ui/widgets/casespage.h"

#include "ui/models/applicablecases.h"
#include "ui/models/asyncresult.h"
#include "ui/models/bulkcaserun.h"
#include "ui/models/caseevidence.h"
#include "ui/models/columns.h"
#include "ui/models/comparisonmodel.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/recordtablemodel.h"
#include "ui/models/utcmidnight.h"
#include "ui/widgets/applicabledialog.h"
#include "ui/widgets/bulkcasedialog.h"
#include "ui/widgets/buttonaction.h"
#include "ui/widgets/comparisonview.h"
#include "ui/widgets/dialogkeys.h"
#include "ui/widgets/newrowsbar.h"
#include "ui/widgets/operatornotedialog.h"
#include "ui/widgets/snapshotdialog.h"
#include "ui/widgets/tableview.h"

#include <QColor>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace rd::ui {
namespace {

struct Queue
{
    QVector<QVariant> cells;
    int openCount = 0;
    bool canOperate = false;
    bool onReplica = false;
    QString sessionUser;
    QVector<QPair<QString, qint64>> reasons; ///< the open cases' reasons, with their counts
};

/// What the queue lists.
using QueueFilter = CasesPage::QueueFilter;

// A case's columns, over `c` (a reconciliation_cases row), in Field order.
const QString kCaseColumns = uR"(SELECT c.id, c.error_code, c.provider_key,
        c.provider_subscription_id, c.provider_renewal_key, rd_rfc3339(c.first_seen_at),
        rd_rfc3339(c.last_seen_at), c.occurrences, coalesce(c.subscription_id::text, ''),
        jsonb_pretty(c.event), c.event::text, c.local_state::text, c.first_provider_event_id,
        c.last_provider_event_id,
        CASE WHEN c.status = 'open' THEN 'open'
             WHEN c.resolved_by = 'system' THEN 're-applied automatically'
             ELSE replace(coalesce(c.resolution, c.status), '_', ' ') || ' by '
                  || coalesce(c.resolved_by, '?') END,
        c.status = 'open', coalesce(c.assigned_to, ''), rd_rfc3339(c.assigned_at),
        c.status = 'dismissed' )"_qs;
const QVector<Field> kCaseFields {Field::Int, Field::Interned, Field::Interned, Field::Text,
    Field::Text, Field::Micros, Field::Micros, Field::Int, Field::Text, Field::Text, Field::Text,
    Field::Text, Field::Text, Field::Text, Field::Interned, Field::Bool, Field::Interned,
    Field::Micros, Field::Bool};

constexpr int kQueueLimit = 1000;

QString orderBy(CasesPage::Sort sort)
{
    // Each is one index read forwards or backwards within a status:
    // reconciliation_cases_queue (status, last_seen_at DESC, id) and
    // reconciliation_cases_by_age (status, first_seen_at, id) (migration 0012).
    switch (sort) {
    case CasesPage::Sort::LastSeenNewest:
        return u"c.last_seen_at DESC, c.id"_qs;
    case CasesPage::Sort::LastSeenOldest:
        return u"c.last_seen_at, c.id DESC"_qs;
    case CasesPage::Sort::OldestFirst:
        return u"c.first_seen_at, c.id"_qs;
    case CasesPage::Sort::NewestFirst:
        return u"c.first_seen_at DESC, c.id DESC"_qs;
    }
    return {};
}

// The cases of one status (and condition) in the queue's order, at most the queue's limit.
QString statusRange(const QString &status, const QString &condition, CasesPage::Sort sort)
{
    return u"(SELECT * FROM reconciliation_cases c WHERE c.status = '%1'%2 ORDER BY %3 LIMIT %4)"_qs
        .arg(status, condition.isEmpty() ? QString() : u" AND "_qs + condition, orderBy(sort))
        .arg(kQueueLimit);
}

Queue loadQueue(QSqlDatabase &db, const QueueFilter &f)
{
    const CasesPage::Scope scope = f.scope;
    const CasesPage::Sort sort = f.sort;
    const QString &search = f.search;
    Queue q;
    QString cases;
    QVariantList values;
    // A search keeps the cases whose subscription id contains the text (the trigram index
    // reconciliation_cases_id_contains, migration 0014): one bound value per status range.
    QString like;
    if (!search.isEmpty()) {
        like = search;
        like.replace(u'\\', u"\\\\"_qs).replace(u'%', u"\\%"_qs).replace(u'_', u"\\_"_qs);
        like = u'%' + like + u'%';
    }
    // Each status range carries the filters, its values bound in the order they appear.
    // "Mine" and "Unassigned" of the open cases read reconciliation_cases_open_by_assignee
    // (assigned_to, last_seen_at DESC, id) WHERE status = 'open' (migration 0015); an age
    // bound is a range of reconciliation_cases_by_age (status, first_seen_at, id).
    auto statusRange = [&](const QString &status, QString condition, CasesPage::Sort order) {
        QStringList conditions;
        if (!condition.isEmpty())
            conditions << condition;
        if (!like.isEmpty()) {
            conditions << u"c.provider_subscription_id LIKE ?"_qs;
            values << like;
        }
        if (f.assignee == CasesPage::Assignee::Mine)
            conditions << u"c.assigned_to = session_user"_qs;
        else if (f.assignee == CasesPage::Assignee::Unassigned)
            conditions << u"c.assigned_to IS NULL"_qs;
        if (!f.reason.isEmpty()) {
            conditions << u"c.error_code = ?"_qs;
            values << f.reason;
        }
        if (f.minAge >= 0) {
            conditions << u"c.first_seen_at <= now() - make_interval(secs => ?)"_qs;
            values << double(f.minAge);
        }
        if (f.maxAge >= 0) {
            conditions << u"c.first_seen_at > now() - make_interval(secs => ?)"_qs;
            values << double(f.maxAge);
        }
        // A UTC day as the Overview counts it: a range of reconciliation_cases_by_age, or
        // of reconciliation_cases_closed (resolved_at, migration 0018), which an open case
        // is not in.
        if (f.day.isValid()) {
            const QString at = f.dayClosed ? u"c.resolved_at"_qs : u"c.first_seen_at"_qs;
            conditions << at + u" >= CAST(? AS timestamptz) AND "_qs + at
                    + u" < CAST(? AS timestamptz)"_qs;
            values << utcMidnight(f.day) << utcMidnight(f.day.addDays(1));
        }
        return ::rd::ui::statusRange(status, conditions.join(u" AND "_qs), order);
    };
    switch (scope) {
    case CasesPage::Scope::Open:
        cases = statusRange(u"open"_qs, {}, sort);
        break;
    case CasesPage::Scope::HealedAutomatically:
        cases = statusRange(u"resolved"_qs, u"c.resolved_by = 'system'"_qs, sort);
        break;
    case CasesPage::Scope::Resolved:
        cases = statusRange(u"resolved"_qs, {}, sort);
        break;
    case CasesPage::Scope::Dismissed:
        cases = statusRange(u"dismissed"_qs, {}, sort);
        break;
    case CasesPage::Scope::All:
        // No index orders every status at once: each status's first rows in the order (one
        // index range each), merged.
        cases = statusRange(u"open"_qs, {}, sort) + u" UNION ALL "_qs
            + statusRange(u"resolved"_qs, {}, sort) + u" UNION ALL "_qs
            + statusRange(u"dismissed"_qs, {}, sort);
        break;
    }
    QSqlQuery rows = execSql(db,
        kCaseColumns + u" FROM ("_qs + cases + u") c ORDER BY "_qs + orderBy(sort) + u" LIMIT "_qs
            + QString::number(kQueueLimit),
        values);
    readRows(rows, kCaseFields, q.cells);
    QSqlQuery meta = execSql(db,
        u"SELECT (SELECT count(*) FROM reconciliation_cases WHERE status = 'open'), "
        "coalesce(pg_has_role(session_user, to_regrole('renewal_operator')::oid, 'MEMBER'), "
        "has_table_privilege('reconciliation_cases', 'UPDATE')), session_user::text, "
        "pg_is_in_recovery()"_qs);
    if (meta.next()) {
        q.openCount = meta.value(0).toInt();
        q.sessionUser = meta.value(2).toString();
        // A hot standby writes nothing, whatever the role may do on the primary.
        q.onReplica = meta.value(3).toBool();
        q.canOperate = meta.value(1).toBool() && !q.onReplica;
    }
    for (const OpenReason &r : loadOpenReasons(db))
        q.reasons.push_back({r.code, r.open});
    return q;
}

/// One case as it now is, and every step of its history.
struct CaseDetail
{
    qint64 id = 0;
    QVector<QVariant> row; ///< empty when the case does not exist
    QVector<QVariant> history;
};

QString tr(const char *text)
{
    return QCoreApplication::translate("rd::ui::CasesPage", text);
}

// One step of a case's history in the desk's words: what was done, and what came of it.
QString stepAction(const QString &action, bool automatic, const QString &snapshotId,
    const QString &role, const QString &otherRole)
{
    // Claims and notes: who held the case before a takeover or a release by someone else.
    if (action == u"claimed")
        return otherRole.isEmpty() ? tr("claimed")
                                   : tr("claimed, taken over from %1").arg(otherRole);
    if (action == u"released")
        return otherRole.isEmpty() || otherRole == role ? tr("released")
                                                        : tr("released %1's claim").arg(otherRole);
    if (action == u"noted")
        return tr("note");
    if (action == u"opened")
        return tr("renewal rejected");
    if (action == u"occurrence")
        return tr("delivered again");
    if (action == u"reapply")
        return automatic           ? tr("re-applied automatically")
            : snapshotId.isEmpty() ? tr("re-applied")
                                   : tr("re-applied after snapshot %1").arg(snapshotId);
    if (action == u"snapshot_attached")
        return snapshotId.isEmpty() ? tr("provider snapshot attached")
                                    : tr("provider snapshot %1 attached").arg(snapshotId);
    if (action == u"dismissed")
        return tr("dismissed");
    if (action == u"reopened")
        return tr("reopened");
    return format::humanize(action);
}

// `detail`: why a snapshot left the case's renewal unrecorded; `fromSnapshot`: the snapshot
// recorded the case's renewal as its period's (migration 0032).
QString stepOutcome(const QString &action, const QString &outcome, const QString &error,
    const QString &role, const QString &detail, bool fromSnapshot)
{
    if (action == u"claimed")
        return tr("assigned to %1").arg(role);
    if (action == u"released")
        return tr("back in the queue, unassigned");
    if (action == u"noted")
        return tr("noted (no action)");
    const QString why = format::humanize(error);
    if (action == u"opened")
        return tr("case opened: %1").arg(why);
    if (action == u"occurrence")
        return error.isEmpty() ? tr("still open") : tr("still open: %1").arg(why);
    if (action == u"reapply" || action == u"snapshot_attached") {
        if (outcome == u"applied")
            return tr("renewal applied: case resolved");
        if (outcome == u"duplicate")
            return fromSnapshot ? tr("renewal recorded with the snapshot: case resolved")
                                : tr("renewal already recorded: case resolved");
        if (outcome == u"rejected")
            return detail.isEmpty() ? tr("still rejected: %1").arg(why)
                                    : tr("still rejected: %1; %2").arg(why, detail);
        if (outcome == u"attached")
            return tr("subscription brought to the snapshot");
        if (outcome == u"unchanged")
            return tr("the same snapshot was attached before: nothing changed");
        if (outcome == u"created")
            return tr("subscription created from the snapshot");
    }
    if (action == u"dismissed")
        return tr("case dismissed");
    if (action == u"reopened")
        return tr("case open again");
    return format::humanize(outcome);
}

QString stepActor(const QString &action, const QString &role, const QString &recordedBy)
{
    if (role == u"system")
        return tr("automatic (renewal core)");
    // Who handed the rejected renewal in (migrations 0032, 0035): a delivery unless it says
    // otherwise.
    if (recordedBy == u"cli")
        return tr("renewalctl apply");
    if (recordedBy == u"statement")
        return tr("statement import");
    if (action == u"opened" || action == u"occurrence")
        return tr("webhook delivery");
    return tr("operator");
}

CaseDetail loadCaseDetail(QSqlDatabase &db, qint64 caseId)
{
    CaseDetail d;
    d.id = caseId;
    // One snapshot for the case and its history.
    execDirect(db, u"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"_qs);
    struct Rollback
    {
        QSqlDatabase &db;
        ~Rollback() { QSqlQuery(db).exec(u"ROLLBACK"_qs); }
    } rollback {db};
    {
        QSqlQuery row = execSql(
            db, kCaseColumns + u" FROM reconciliation_cases c WHERE c.id = ?"_qs, {caseId});
        readRows(row, kCaseFields, d.row);
        // reconciliation_case_history_chain (case_id, chain_seq).
        QSqlQuery h = execSql(db,
            u"SELECT h.chain_seq, rd_rfc3339(h.created_at), h.action, h.outcome, "
            "coalesce(h.error_code, ''), h.actor, coalesce(h.reason, ''), "
            "coalesce(h.comment, ''), "
            "coalesce(h.details->>'snapshotId', h.details->>'afterSnapshot', ''), "
            "coalesce(h.details->>'automatic', '') = 'true', "
            "coalesce(h.details->>'takenFrom', h.details->>'releasedFrom', ''), "
            "coalesce(rd_case_step_recorded_by(c, h), ''), coalesce(h.details->>'why', ''), "
            "coalesce(h.details->>'renewalFromCase', '') = 'true' "
            "FROM reconciliation_case_history h JOIN reconciliation_cases c ON c.id = h.case_id "
            "WHERE h.case_id = ? ORDER BY h.chain_seq"_qs,
            {caseId});
        while (h.next()) {
            const QString action = h.value(2).toString();
            const QString role = h.value(5).toString();
            const QString reason = h.value(6).toString();
            const auto at = format::micros(h.value(1).toString());
            d.history << h.value(0).toLongLong() << (at ? QVariant(*at) : QVariant())
                      << stepActor(action, role, h.value(11).toString()) << role
                      << stepAction(action, h.value(9).toBool(), h.value(8).toString(), role,
                             h.value(10).toString())
                      << stepOutcome(action, h.value(3).toString(), h.value(4).toString(), role,
                             h.value(12).toString(), h.value(13).toBool())
                      << (reason.isEmpty() ? QString() : reasonLabel(reason)) << reason
                      << h.value(7).toString();
        }
    }
    return d;
}

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

QString actionName(CaseActions::Action action)
{
    switch (action) {
    case CaseActions::Action::Reapply:
        return QObject::tr("Re-apply");
    case CaseActions::Action::Dismiss:
        return QObject::tr("Dismiss");
    case CaseActions::Action::AttachSnapshot:
        return QObject::tr("Attach provider snapshot");
    case CaseActions::Action::Claim:
        return QObject::tr("Claim");
    case CaseActions::Action::Release:
        return QObject::tr("Release");
    case CaseActions::Action::Note:
        return QObject::tr("Note on");
    case CaseActions::Action::Reopen:
        return QObject::tr("Reopen");
    }
    return {};
}

// "1 h", "1 day", "3 days", "1 week": an age bound or threshold as people say it.
QString durationText(qint64 secs)
{
    constexpr qint64 hour = 3600, day = 24 * hour, week = 7 * day;
    // Plurals in code: the desk ships no translations, and "1 day(s)" reads badly.
    if (secs >= week && secs % week == 0)
        return secs == week ? tr("1 week") : tr("%1 weeks").arg(secs / week);
    if (secs >= day && secs % day == 0)
        return secs == day ? tr("1 day") : tr("%1 days").arg(secs / day);
    if (secs >= hour && secs % hour == 0)
        return tr("%1 h").arg(secs / hour);
    if (secs >= 60 && secs % 60 == 0)
        return tr("%1 min").arg(secs / 60);
    return tr("%1 s").arg(secs);
}

/// The age filters offered (min, max seconds; -1 unbounded).
struct AgeChoice
{
    const char *label;
    qint64 min;
    qint64 max;
};
constexpr AgeChoice kAgeChoices[] = {
    {QT_TRANSLATE_NOOP("rd::ui::CasesPage", "Any age"), -1, -1},
    {QT_TRANSLATE_NOOP("rd::ui::CasesPage", "Older than 1 h"), 3600, -1},
    {QT_TRANSLATE_NOOP("rd::ui::CasesPage", "Older than 1 day"), 24 * 3600, -1},
    {QT_TRANSLATE_NOOP("rd::ui::CasesPage", "Older than 1 week"), 7 * 24 * 3600, -1},
    {QT_TRANSLATE_NOOP("rd::ui::CasesPage", "Newer than 1 h"), -1, 3600},
    {QT_TRANSLATE_NOOP("rd::ui::CasesPage", "Newer than 1 day"), -1, 24 * 3600},
};

QString casesText(qsizetype n)
{
    return n == 1 ? tr("1 case") : tr("%1 cases").arg(n);
}

QVariant ageData(qint64 min, qint64 max)
{
    return QVariantList {min, max};
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
    , m_historyTable(new TableView)
    , m_evidence(new TableView)
    , m_evidenceModel(new ComparisonModel(this))
    , m_json(new QPlainTextEdit)
    , m_snapshot(new QPushButton(tr("Attach provider snapshot…")))
    , m_reapply(new QPushButton(tr("Re-apply…")))
    , m_dismiss(new QPushButton(tr("Dismiss…")))
    , m_reopen(new QPushButton(tr("Reopen…")))
    , m_openSubscription(new QPushButton(tr("Open subscription")))
    , m_claim(new QPushButton(tr("Claim")))
    , m_release(new QPushButton(tr("Release")))
    , m_note(new QPushButton(tr("Add note…")))
    , m_bulkReapply(new QPushButton(tr("Re-apply selected…")))
    , m_bulkDismiss(new QPushButton(tr("Dismiss selected…")))
    , m_applicable(new QPushButton(tr("Re-apply applicable now…")))
    , m_selection(new QLabel)
    , m_assigneeBox(new QComboBox)
    , m_reasonBox(new QComboBox)
    , m_ageBox(new QComboBox)
    , m_markAfter(new QComboBox)
    , m_dayChip(new QToolButton)
    , m_outcome(new QLabel)
    , m_scopeBox(new QComboBox)
    , m_sortBox(new QComboBox)
    , m_search(new QLineEdit)
    , m_searchDelay(new QTimer(this))
{
    m_markAfterSecs = std::max<qint64>(
        1, QSettings().value(u"cases/markOlderThanSecs"_qs, 24 * 3600).toLongLong());
    // The age, with a marker (⚠) on an open case older than the threshold: it reads without
    // colour. Not bold: the column is fitted with the view's font.
    Column age = columns::age(tr("Age"), FirstSeen);
    age.data = [this, base = age.data](RowRef r, int role) -> QVariant {
        const bool aged = isAged(r);
        switch (role) {
        case Qt::DisplayRole:
            return aged ? u"⚠ "_qs + base(r, role).toString() : base(r, role);
        case Qt::ToolTipRole:
            return aged ? tr("Open for more than %1 (the queue's \"Mark older than\").")
                              .arg(durationText(m_markAfterSecs))
                    + u'\n' + base(r, role).toString()
                        : base(r, role);
        case Qt::ForegroundRole:
            return aged ? QVariant(QColor(0xa0, 0x30, 0x00)) : base(r, role);
        default:
            return base(r, role);
        }
    };
    Column assigned = columns::text(tr("Assigned to"), AssignedTo);
    assigned.data = [this, base = assigned.data](RowRef r, int role) -> QVariant {
        const QString who = r[AssignedTo].toString();
        switch (role) {
        case Qt::DisplayRole:
            if (who.isEmpty())
                return r[IsOpen].toBool() ? tr("—") : QString();
            return who == m_sessionUser ? tr("%1 (you)").arg(who) : who;
        case Qt::ToolTipRole:
            if (who.isEmpty())
                return r[IsOpen].toBool() ? tr("Unassigned: nobody has claimed it.") : QString();
            return tr("Claimed by %1 %2 ago")
                .arg(who, format::age(columns::fromMicros(r[AssignedAt])));
        default:
            return base(r, role);
        }
    };
    m_model = new RecordTableModel(FieldCount,
        {columns::count(tr("Case"), Id), columns::code(tr("Reason"), ErrorCode),
            columns::text(tr("Provider"), Provider),
            columns::text(tr("Subscription"), SubscriptionRef),
            columns::text(tr("Renewal key"), RenewalKey), age,
            columns::count(tr("Seen"), Occurrences), columns::instant(tr("Last seen"), LastSeen),
            columns::text(tr("Status"), Status), assigned},
        Id, this);
    m_historyModel = new RecordTableModel(StepFieldCount,
        {stepTime(tr("When"), StepAt), columns::text(tr("Actor"), StepActor),
            columns::text(tr("Database role"), StepRole), columns::text(tr("Action"), StepAction),
            columns::text(tr("Outcome"), StepOutcome), columns::text(tr("Reason"), StepReason),
            columns::text(tr("Comment"), StepComment)},
        StepSeq, this);
    m_historyTable->setObjectName(u"case-history-table"_qs);
    m_historyTable->setModel(m_historyModel);
    m_historyTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_historyTable->horizontalHeader()->setStretchLastSection(true);
    m_historyTable->setColumnsFitted(true); // fitted per case (loadCase)
    m_table->setObjectName(u"cases"_qs);
    m_table->setModel(m_model);
    // Several cases at once for the bulk actions; the panel shows the current one.
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setWholeColumns({5}); // the age and its ⚠ give way last
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);

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

    auto *detail = new QWidget;
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 4, 0, 0);
    detailLayout->addWidget(m_title);
    detailLayout->addWidget(m_finding);
    detailLayout->addWidget(evidenceAndHistory, 1);
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
    m_sortBox->setObjectName(u"case-sort"_qs);
    m_sortBox->addItem(tr("Last seen, newest first"), int(Sort::LastSeenNewest));
    m_sortBox->addItem(tr("Last seen, oldest first"), int(Sort::LastSeenOldest));
    m_sortBox->addItem(tr("Age, oldest first"), int(Sort::OldestFirst));
    m_sortBox->addItem(tr("Age, newest first"), int(Sort::NewestFirst));
    scopeRow->addSpacing(12);
    scopeRow->addWidget(new QLabel(tr("Sort:")));
    scopeRow->addWidget(m_sortBox);
    scopeRow->addSpacing(12);
    m_search->setObjectName(u"case-search"_qs);
    m_search->setClearButtonEnabled(true);
    m_search->setPlaceholderText(tr("Find subscription id…  (Ctrl+F)"));
    m_search->setToolTip(tr("Lists the cases whose subscription id contains what you type or "
                            "paste. Return opens the first match."));
    m_search->setMinimumWidth(fontMetrics().horizontalAdvance(u'M') * 12);
    scopeRow->addWidget(m_search, 1);
    topLayout->addLayout(scopeRow);

    // Whose, why, how old; and when a case is "old" (a preference, kept in QSettings).
    auto *filterRow = new QHBoxLayout;
    m_assigneeBox->setObjectName(u"case-assignee"_qs);
    m_assigneeBox->addItem(tr("Everyone's"), int(Assignee::All));
    m_assigneeBox->addItem(tr("Mine"), int(Assignee::Mine));
    m_assigneeBox->addItem(tr("Unassigned"), int(Assignee::Unassigned));
    m_reasonBox->setObjectName(u"case-reason"_qs);
    m_reasonBox->addItem(tr("Any reason"), QString());
    m_reasonBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_reasonBox->setMinimumContentsLength(18);
    m_ageBox->setObjectName(u"case-age"_qs);
    for (const AgeChoice &choice : kAgeChoices)
        m_ageBox->addItem(tr(choice.label), ageData(choice.min, choice.max));
    m_markAfter->setObjectName(u"case-mark-after"_qs);
    for (qint64 hours : {1, 4, 8, 24, 72, 168, 720})
        m_markAfter->addItem(durationText(hours * 3600), hours * 3600);
    syncMarkBox();
    m_markAfter->setToolTip(tr("Open cases older than this are marked ⚠ in the queue (a "
                               "preference of this desk, kept between sessions)."));
    filterRow->addWidget(new QLabel(tr("Assigned:")));
    filterRow->addWidget(m_assigneeBox);
    filterRow->addSpacing(12);
    filterRow->addWidget(new QLabel(tr("Reason:")));
    filterRow->addWidget(m_reasonBox, 1);
    filterRow->addSpacing(12);
    filterRow->addWidget(new QLabel(tr("Age:")));
    filterRow->addWidget(m_ageBox);
    // A day from the Overview's chart: shown while it filters, cleared by a click.
    m_dayChip->setObjectName(u"case-day"_qs);
    m_dayChip->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_dayChip->setAutoRaise(false);
    m_dayChip->setToolTip(tr("Only the cases of this UTC day. Click to show every day."));
    m_dayChip->hide();
    filterRow->addWidget(m_dayChip);
    filterRow->addSpacing(12);
    filterRow->addWidget(new QLabel(tr("Mark older than:")));
    filterRow->addWidget(m_markAfter);
    topLayout->addLayout(filterRow);
    m_newRows = new NewRowsBar(m_table);
    topLayout->addWidget(m_newRows);
    topLayout->addWidget(m_table);
    connect(m_newRows, &NewRowsBar::showRequested, this, [this](const QString &key) {
        if (const int r = m_model->rowOfKey(key); r >= 0) {
            m_table->selectRow(r);
            m_table->scrollTo(m_model->index(r, 0));
            m_table->setFocus();
        }
    });

    // The bulk actions over the selected rows, and the re-apply of what the core would apply.
    auto *bulkRow = new QHBoxLayout;
    m_selection->setObjectName(u"case-selection"_qs);
    bulkRow->addWidget(m_selection);
    bulkRow->addStretch(1);
    m_bulkReapply->setObjectName(u"case-bulk-reapply"_qs);
    m_bulkDismiss->setObjectName(u"case-bulk-dismiss"_qs);
    m_applicable->setObjectName(u"case-applicable"_qs);
    bulkRow->addWidget(m_applicable);
    bulkRow->addWidget(m_bulkReapply);
    bulkRow->addWidget(m_bulkDismiss);
    topLayout->addLayout(bulkRow);
    connect(m_assigneeBox, &QComboBox::currentIndexChanged, this,
        [this] { setAssignee(Assignee(m_assigneeBox->currentData().toInt())); });
    connect(m_reasonBox, &QComboBox::currentIndexChanged, this,
        [this] { setFilter(m_reasonBox->currentData().toString(), m_minAge, m_maxAge); });
    connect(m_ageBox, &QComboBox::currentIndexChanged, this, [this] {
        const QVariantList range = m_ageBox->currentData().toList();
        if (range.size() == 2)
            setFilter(m_reason, range[0].toLongLong(), range[1].toLongLong());
    });
    connect(m_dayChip, &QToolButton::clicked, this, &CasesPage::clearDay);
    connect(m_markAfter, &QComboBox::currentIndexChanged, this,
        [this] { setMarkAgedAfterSecs(m_markAfter->currentData().toLongLong()); });
    connect(m_bulkReapply, &QPushButton::clicked, this,
        [this] { askAndRunBulk(CaseActions::Action::Reapply); });
    connect(m_bulkDismiss, &QPushButton::clicked, this,
        [this] { askAndRunBulk(CaseActions::Action::Dismiss); });
    connect(m_applicable, &QPushButton::clicked, this, [this] { openApplicableDialog(m_reason); });
    connect(
        m_claim, &QPushButton::clicked, this, [this] { askAndRun(CaseActions::Action::Claim); });
    connect(m_release, &QPushButton::clicked, this,
        [this] { askAndRun(CaseActions::Action::Release); });
    connect(m_note, &QPushButton::clicked, this, [this] { askAndRun(CaseActions::Action::Note); });
    connect(
        m_reopen, &QPushButton::clicked, this, [this] { askAndRun(CaseActions::Action::Reopen); });
    connect(m_scopeBox, &QComboBox::currentIndexChanged, this,
        [this] { setScope(Scope(m_scopeBox->currentData().toInt())); });
    connect(m_sortBox, &QComboBox::currentIndexChanged, this,
        [this] { setSort(Sort(m_sortBox->currentData().toInt())); });
    m_searchDelay->setSingleShot(true);
    m_searchDelay->setInterval(250);
    connect(m_search, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_searchDelay, &QTimer::timeout, this, &CasesPage::refresh);
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        m_searchDelay->stop();
        m_openFirst = true; // the first match opens when the queue lands
        refresh();
    });

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
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &CasesPage::updateButtons);
    connect(m_reapply, &QPushButton::clicked, this,
        [this] { askAndRun(CaseActions::Action::Reapply); });
    connect(m_dismiss, &QPushButton::clicked, this,
        [this] { askAndRun(CaseActions::Action::Dismiss); });
    connect(m_snapshot, &QPushButton::clicked, this,
        [this] { askAndRun(CaseActions::Action::AttachSnapshot); });
    connect(m_openSubscription, &QPushButton::clicked, this, [this] {
        const RowRef r = currentRecord();
        if (!r)
            return;
        const QString id = r[SubscriptionUuid].toString();
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
    makeCaseActions();
    showCase(-1);
}

void CasesPage::makeCaseActions()
{
    // Shortcuts that clash with none of the desk's (Ctrl+K, Ctrl+F, Ctrl+G, F5, Ctrl+C, Ctrl+A
    // in a table, Ctrl+R and Ctrl+D of some platforms' Refresh and Delete): a letter for the
    // frequent ones, Shift for the ones that close a case.
    const struct
    {
        const char *name;
        QPushButton *button;
        QKeySequence keys;
    } entries[] {{"open-subscription", m_openSubscription, QKeySequence(Qt::CTRL | Qt::Key_O)},
        {"claim", m_claim, QKeySequence(Qt::CTRL | Qt::Key_M)},
        {"release", m_release, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M)},
        {"note", m_note, QKeySequence(Qt::CTRL | Qt::Key_N)}, {nullptr, nullptr, {}},
        {"attach-snapshot", m_snapshot, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A)},
        {"reapply", m_reapply, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R)},
        {"dismiss", m_dismiss, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D)},
        {"reopen", m_reopen, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O)},
        {nullptr, nullptr, {}}, {"applicable", m_applicable, {}},
        {"bulk-reapply", m_bulkReapply, {}}, {"bulk-dismiss", m_bulkDismiss, {}}};
    for (const auto &[name, button, keys] : entries) {
        QAction *action = nullptr;
        if (button) {
            action = new ButtonAction(button, keys, this);
            action->setObjectName(u"case-action-"_qs + QLatin1String(name));
        } else {
            action = new QAction(this);
            action->setSeparator(true);
        }
        // On the page as well: its shortcuts work where the page is shown without a menu.
        addAction(action);
        m_caseActions << action;
    }
}

QString CasesPage::outcomeText() const
{
    return m_outcome->text();
}

QString CasesPage::titleText() const
{
    return m_title->text();
}

QString CasesPage::findingText() const
{
    return m_finding->text();
}

void CasesPage::refresh()
{
    m_queueStale = true;
    const QueueFilter filter {m_scope, m_sort, m_search->text().trimmed(), m_assignee, m_reason,
        m_minAge, m_maxAge, m_day, m_dayClosed};
    deliverResult(
        this, m_pool->run([filter](QSqlDatabase &db) { return loadQueue(db, filter); }),
        [this, filter](Queue q) {
            m_queueStale = false;
            const qint64 pending = m_pendingSelect;
            const qint64 keep = pending ? pending : m_currentCase;
            m_pendingSelect = 0;
            m_canOperate = q.canOperate;
            m_onReplica = q.onReplica;
            m_sessionUser = q.sessionUser;
            syncReasonBox(q.reasons);
            m_model->setRows(std::move(q.cells));
            if (m_openCount != q.openCount) {
                m_openCount = q.openCount;
                emit openCountChanged(m_openCount);
            }
            int r = keep ? m_model->rowOfKey(QString::number(keep)) : -1;
            if (m_openFirst) {
                m_openFirst = false;
                if (m_model->rowCount() > 0) {
                    r = 0;
                    m_table->setFocus();
                }
            }
            if (r < 0 && pending != 0 && pending != m_currentCase && !m_busy) {
                // Opened from elsewhere (an inbox delivery) but not in this queue (closed, or
                // another scope): the panel shows it, as it now is.
                m_outcome->clear();
                m_historyModel->setRows({});
                m_caseRow.clear();
                m_currentCase = pending;
            }
            if (r >= 0) {
                // A refresh keeps a selection of several cases (the rows stay in place).
                if (m_table->currentIndex().row() != r
                    || !m_table->selectionModel()->isRowSelected(r, {}))
                    m_table->selectRow(r);
                showCase(r);
            } else if (m_model->rowCount() > 0 && !m_busy && m_currentCase == 0) {
                m_table->selectRow(0);
            } else if (r < 0 && m_currentCase != 0 && !m_busy) {
                // The case left the queue (resolved, dismissed): the panel keeps showing it,
                // as it now is.
                m_table->clearSelection();
            } else if (m_currentCase == 0) {
                showCase(-1); // nothing listed (another scope): nothing selected
            }
            // The panel's case and its history follow every change of the case.
            if (m_currentCase != 0)
                loadCase(m_currentCase);
            // Cases that arrived where the person is not looking (the selection kept in view
            // may have scrolled them out) are announced.
            if (filter != m_listedFilter) {
                m_listedFilter = filter;
                m_newRows->reset();
            }
            m_newRows->rowsListed();
            updateButtons();
        },
        [this](const QString &message) {
            m_queueStale = false;
            emit statusMessage(message);
        },
        // A queue read for an earlier refresh (another scope, before an action) is dropped.
        m_queueRequest.next());
}

void CasesPage::focusSearch()
{
    m_search->setFocus();
    m_search->selectAll();
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
    m_caseRow.clear();
    refresh();
}

void CasesPage::setSort(Sort sort)
{
    if (sort == m_sort)
        return;
    m_sort = sort;
    const int index = m_sortBox->findData(int(sort));
    if (index >= 0 && index != m_sortBox->currentIndex())
        m_sortBox->setCurrentIndex(index);
    refresh(); // the selected case stays selected
}

void CasesPage::setAssignee(Assignee assignee)
{
    if (assignee == m_assignee)
        return;
    m_assignee = assignee;
    const int index = m_assigneeBox->findData(int(assignee));
    if (index >= 0 && index != m_assigneeBox->currentIndex()) {
        const QSignalBlocker block(m_assigneeBox);
        m_assigneeBox->setCurrentIndex(index);
    }
    refresh(); // the selected case stays shown
}

void CasesPage::setFilter(const QString &reason, qint64 minAgeSecs, qint64 maxAgeSecs)
{
    minAgeSecs = minAgeSecs < 0 ? -1 : minAgeSecs;
    maxAgeSecs = maxAgeSecs < 0 ? -1 : maxAgeSecs;
    if (reason == m_reason && minAgeSecs == m_minAge && maxAgeSecs == m_maxAge)
        return;
    m_reason = reason;
    m_minAge = minAgeSecs;
    m_maxAge = maxAgeSecs;
    syncAgeBox();
    {
        const QSignalBlocker block(m_reasonBox);
        int index = m_reasonBox->findData(reason);
        if (index < 0) {
            m_reasonBox->addItem(format::humanize(reason), reason);
            index = m_reasonBox->count() - 1;
        }
        m_reasonBox->setCurrentIndex(index);
    }
    refresh();
}

void CasesPage::resetQueue(Scope scope, Sort sort)
{
    const QSignalBlocker blockScope(m_scopeBox);
    const QSignalBlocker blockSort(m_sortBox);
    const QSignalBlocker blockSearch(m_search);
    const QSignalBlocker blockAssignee(m_assigneeBox);
    m_searchDelay->stop();
    m_search->clear();
    if (m_scope != scope) {
        m_scope = scope;
        m_scopeBox->setCurrentIndex(m_scopeBox->findData(int(scope)));
    }
    // The list a drill-down asked for selects its own first case (or the one asked for): a
    // case from before stayed in the panel over a list that did not hold it, nothing selected.
    m_currentCase = 0;
    m_caseRow.clear();
    m_sort = sort;
    m_sortBox->setCurrentIndex(m_sortBox->findData(int(sort)));
    m_assignee = Assignee::All;
    m_assigneeBox->setCurrentIndex(m_assigneeBox->findData(int(Assignee::All)));
    m_day = QDate();
    m_dayClosed = false;
    m_dayChip->hide();
}

void CasesPage::showOpenCases(const QString &reason, qint64 minAgeSecs, qint64 maxAgeSecs)
{
    resetQueue(Scope::Open, Sort::OldestFirst);
    // setFilter refreshes only when the filter changed: the queue is read again either way.
    m_reason.clear();
    m_minAge = m_maxAge = -2;
    setFilter(reason, minAgeSecs, maxAgeSecs);
}

void CasesPage::showCasesOfDay(const QDate &dayUtc, bool closed)
{
    // Whatever the queue showed: every status, everyone's, any reason and age, that day only.
    resetQueue(Scope::All, closed ? Sort::LastSeenNewest : Sort::NewestFirst);
    clearReasonAndAge();
    // setDay refreshes only on a change: the queue is read again either way.
    setDay(dayUtc, closed);
}

void CasesPage::setDay(const QDate &dayUtc, bool closed)
{
    const bool valid = dayUtc.isValid();
    if (dayUtc == m_day && (!valid || closed == m_dayClosed))
        return;
    m_day = dayUtc;
    m_dayClosed = valid && closed;
    if (valid) {
        const QString day = QLocale().toString(dayUtc, u"ddd d MMM yyyy"_qs);
        m_dayChip->setText(
            (closed ? tr("Closed on %1 (UTC)") : tr("Opened on %1 (UTC)")).arg(day) + u"  ✕"_qs);
    }
    m_dayChip->setVisible(valid);
    refresh();
}

void CasesPage::syncAgeBox()
{
    const QSignalBlocker block(m_ageBox);
    const QVariant wanted = ageData(m_minAge, m_maxAge);
    int index = m_ageBox->findData(wanted);
    if (index < 0) {
        // A range from the Overview's drill-down ("1 h – 1 day old"): offered as it came.
        const QString label = m_minAge >= 0 && m_maxAge >= 0
            ? tr("%1 – %2 old").arg(durationText(m_minAge), durationText(m_maxAge))
            : m_minAge >= 0 ? tr("Older than %1").arg(durationText(m_minAge))
                            : tr("Newer than %1").arg(durationText(m_maxAge));
        m_ageBox->addItem(label, wanted);
        index = m_ageBox->count() - 1;
    }
    m_ageBox->setCurrentIndex(index);
}

void CasesPage::syncReasonBox(const QVector<QPair<QString, qint64>> &reasons)
{
    // Rebuilt only when the counts moved: a live update must not close an open list.
    if (reasons == m_reasonCounts && m_reasonBox->findData(m_reason) >= 0
        && m_reasonBox->currentData().toString() == m_reason)
        return;
    m_reasonCounts = reasons;
    const QSignalBlocker block(m_reasonBox);
    m_reasonBox->clear();
    m_reasonBox->addItem(tr("Any reason"), QString());
    for (const auto &[code, open] : reasons)
        m_reasonBox->addItem(tr("%1 (%2 open)").arg(format::humanize(code)).arg(open), code);
    int index = m_reasonBox->findData(m_reason);
    if (index < 0) {
        m_reasonBox->addItem(format::humanize(m_reason), m_reason);
        index = m_reasonBox->count() - 1;
    }
    m_reasonBox->setCurrentIndex(index);
    for (int i = 0; i < m_reasonBox->count(); ++i)
        m_reasonBox->setItemData(i, m_reasonBox->itemData(i).toString(), Qt::ToolTipRole);
}

qint64 CasesPage::markAgedAfterSecs() const
{
    return m_markAfterSecs;
}

void CasesPage::syncMarkBox()
{
    const QSignalBlocker block(m_markAfter);
    int index = m_markAfter->findData(m_markAfterSecs);
    if (index < 0) {
        m_markAfter->addItem(durationText(m_markAfterSecs), m_markAfterSecs);
        index = m_markAfter->count() - 1;
    }
    m_markAfter->setCurrentIndex(index);
}

void CasesPage::setMarkAgedAfterSecs(qint64 secs, bool remember)
{
    secs = std::max<qint64>(1, secs);
    if (remember)
        QSettings().setValue(u"cases/markOlderThanSecs"_qs, secs);
    if (secs == m_markAfterSecs)
        return;
    m_markAfterSecs = secs;
    syncMarkBox();
    // The rows are the same; their marker is not.
    if (m_model->rowCount() > 0)
        emit m_model->dataChanged(m_model->index(0, 0),
            m_model->index(m_model->rowCount() - 1, m_model->columnCount() - 1));
    m_table->fitColumnsTo(m_table->viewport()->width()); // the age, with or without ⚠
    if (const RowRef r = currentRecord())
        showRecord(r);
}

bool CasesPage::isAged(RowRef row) const
{
    if (!row || !row[IsOpen].toBool())
        return false;
    const QDateTime first = columns::fromMicros(row[FirstSeen]);
    return first.isValid() && first.secsTo(QDateTime::currentDateTimeUtc()) > m_markAfterSecs;
}

QVector<qint64> CasesPage::selectedCaseIds() const
{
    QVector<int> rows;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end());
    QVector<qint64> ids;
    for (int r : rows)
        ids << m_model->row(r)[Id].toLongLong();
    return ids;
}

BulkCaseDialog *CasesPage::bulkDialog() const
{
    return m_bulk;
}

BulkCaseDialog *CasesPage::runBulk(CaseActions::Action action, const QVector<qint64> &caseIds,
    const QString &reason, const QString &comment)
{
    if (caseIds.isEmpty() || (m_bulk && m_bulk->run()->isRunning()))
        return nullptr;
    if (m_bulk)
        m_bulk->close();
    QVector<BulkCaseRun::Item> items;
    for (qint64 id : caseIds) {
        const int r = m_model->rowOfKey(QString::number(id));
        items.push_back({id, r >= 0 ? m_model->row(r)[SubscriptionRef].toString() : QString()});
    }
    auto *run = new BulkCaseRun(m_actions);
    const QString title = action == CaseActions::Action::Dismiss
        ? tr("Dismiss %1").arg(casesText(items.size()))
        : tr("Re-apply %1").arg(casesText(items.size()));
    auto *dialog = new BulkCaseDialog(run, title, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    m_bulk = dialog;
    // The queue follows each case as it is run (resolved cases leave it).
    connect(run, &BulkCaseRun::progressed, this, [this](int done) {
        if (done > 0)
            refresh();
    });
    connect(run, &BulkCaseRun::finished, this, [this, run] {
        updateButtons();
        const QString summary = run->summary();
        emit statusMessage(summary);
        emit bulkFinished(summary);
    });
    dialog->show();
    run->start(action, std::move(items), reason, comment);
    updateButtons();
    return dialog;
}

ApplicableDialog *CasesPage::openApplicableDialog(const QString &reason)
{
    if (m_bulk && m_bulk->run()->isRunning())
        return nullptr;
    auto *dialog = new ApplicableDialog(m_pool, reason, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        // Exactly the cases previewed: each is judged again by the core as it is run.
        QVector<qint64> ids;
        for (const ApplicableCase &c : dialog->preview())
            ids << c.caseId;
        runBulk(CaseActions::Action::Reapply, ids, dialog->noteReason(), dialog->comment());
    });
    dialog->open();
    return dialog;
}

void CasesPage::askAndRunBulk(CaseActions::Action action)
{
    // The open ones of the selection, and a line for each: how many and which are shown
    // before the note (a bulk dismissal closes every case listed).
    QVector<qint64> ids;
    QStringList lines;
    for (qint64 id : selectedCaseIds()) {
        const int row = m_model->rowOfKey(QString::number(id));
        if (row < 0)
            continue;
        const RowRef r = m_model->row(row);
        if (!r[IsOpen].toBool())
            continue;
        ids << id;
        lines << tr("case %1 · %2/%3 · %4 · %5")
                     .arg(id)
                     .arg(r[Provider].toString(), r[SubscriptionRef].toString(),
                         r[RenewalKey].toString(), format::humanize(r[ErrorCode].toString()));
    }
    if (ids.isEmpty())
        return;
    const bool dismiss = action == CaseActions::Action::Dismiss;
    OperatorNoteDialog dialog(actionName(action), 0, dismiss, this);
    const auto n = ids.size();
    dialog.setCases(dismiss ? (n == 1 ? tr("Dismissing closes this case, without recording its "
                                           "renewal:")
                                      : tr("Dismissing closes these %1 cases, without recording "
                                           "their renewals:")
                                            .arg(n))
                            : (n == 1 ? tr("Re-applies this case through the renewal core:")
                                      : tr("Re-applies these %1 cases through the renewal core, "
                                           "one at a time:")
                                            .arg(n)),
        lines);
    QStringList shown;
    for (int i = 0; i < std::min<int>(6, int(ids.size())); ++i)
        shown << QString::number(ids[i]);
    dialog.setWindowTitle((dismiss ? tr("Dismiss %1").arg(casesText(ids.size()))
                                   : tr("Re-apply %1").arg(casesText(ids.size())))
        + u": "_qs + shown.join(u", "_qs) + (ids.size() > shown.size() ? u", …"_qs : QString()));
    if (dialog.exec() != QDialog::Accepted)
        return;
    runBulk(action, ids, dialog.reason(), dialog.comment());
}

bool CasesPage::isNarrowed() const
{
    return !m_reason.isEmpty() || m_minAge >= 0 || m_maxAge >= 0 || m_day.isValid()
        || m_assignee != Assignee::All || !m_search->text().trimmed().isEmpty();
}

void CasesPage::clearReasonAndAge()
{
    m_reason.clear();
    {
        const QSignalBlocker block(m_reasonBox);
        m_reasonBox->setCurrentIndex(m_reasonBox->findData(QString()));
    }
    m_minAge = m_maxAge = -1;
    syncAgeBox();
}

bool CasesPage::openCase(qint64 caseId, bool widen)
{
    // Rows of a queue read before the last change of its filter are not the queue's.
    const int r = m_queueStale ? -1 : m_model->rowOfKey(QString::number(caseId));
    if (r < 0) {
        // Opened from elsewhere (the Overview's oldest case, Find anything, a link) while the
        // queue is narrowed to other cases (a reason, an age, a day, a search, whose): the
        // panel would show this case over a list of others with nothing selected. The queue
        // drops what narrows it (its scope and order stay) and selects the case.
        if (widen && isNarrowed()) {
            resetQueue(m_scope, m_sort);
            clearReasonAndAge();
        }
        m_pendingSelect = caseId;
        refresh();
        return false;
    }
    m_table->selectRow(r);
    return true;
}

RowRef CasesPage::currentRecord() const
{
    if (m_currentCase == 0)
        return nullptr;
    const int r = m_model->rowOfKey(QString::number(m_currentCase));
    if (r >= 0)
        return m_model->row(r);
    if (m_caseRow.size() == FieldCount && m_caseRow[Id].toLongLong() == m_currentCase)
        return m_caseRow.constData();
    return nullptr;
}

void CasesPage::loadCase(qint64 caseId)
{
    deliverResult(
        this, m_pool->run([caseId](QSqlDatabase &db) { return loadCaseDetail(db, caseId); }),
        [this](CaseDetail d) {
            if (d.id != m_currentCase)
                return;
            m_historyModel->setRows(std::move(d.history));
            // The history is short (often one row, which TableView does not fit to): its
            // columns fit what this case's history says, up to a limit; the comment stretches.
            const int maxWidth = m_historyTable->fontMetrics().horizontalAdvance(u'M') * 28;
            for (int c = 0; c + 1 < m_historyModel->columnCount(); ++c) {
                m_historyTable->resizeColumnToContents(c);
                m_historyTable->setColumnWidth(
                    c, std::min(m_historyTable->columnWidth(c) + 8, maxWidth));
            }
            if (d.row.size() != FieldCount)
                return;
            m_caseRow = std::move(d.row);
            showRecord(m_caseRow.constData());
        },
        [this](const QString &message) { emit statusMessage(message); }, m_caseRequest.next());
}

void CasesPage::showCase(int row)
{
    if (row < 0 || row >= m_model->rowCount()) {
        if (m_currentCase == 0) {
            m_caseRequest.cancel();
            m_title->setText(u"<span style='color:gray'>"_qs
                + tr("No case selected. Open cases appear here as renewals are rejected.")
                + u"</span>"_qs);
            m_finding->clear();
            m_history->clear();
            m_historyModel->setRows({});
            m_evidenceModel->setLines({}, {}, {});
            m_json->clear();
        }
        updateButtons();
        return;
    }
    const RowRef r = m_model->row(row);
    const qint64 id = r[Id].toLongLong();
    if (id != m_currentCase) {
        m_outcome->clear();
        m_historyModel->setRows({});
        m_currentCase = id;
        loadCase(id);
    }
    showRecord(r);
}

void CasesPage::showRecord(RowRef r)
{
    const qint64 id = r[Id].toLongLong();
    const bool open = r[IsOpen].toBool();
    const QString code = r[ErrorCode].toString();
    m_title->setText(u"<b style='font-size:large'>"_qs + tr("Case %1").arg(id)
        + u"</b> &nbsp;·&nbsp; <b>"_qs + format::humanize(code).toHtmlEscaped()
        + u"</b> &nbsp;·&nbsp; "_qs + r[Provider].toString().toHtmlEscaped() + u" &nbsp;·&nbsp; "_qs
        + r[SubscriptionRef].toString().toHtmlEscaped() + u" &nbsp;·&nbsp; "_qs
        + r[RenewalKey].toString().toHtmlEscaped() + u" &nbsp;·&nbsp; "_qs
        + tr("seen %1×").arg(r[Occurrences].toLongLong()) + u" &nbsp;·&nbsp; "_qs
        + tr("%1 old").arg(format::age(columns::fromMicros(r[FirstSeen])))
        + (isAged(r) ? u" &nbsp;<b>"_qs
                    + tr("⚠ open longer than %1").arg(durationText(m_markAfterSecs)) + u"</b>"_qs
                     : QString())
        + (!open                                     ? QString()
                : r[AssignedTo].toString().isEmpty() ? u" &nbsp;·&nbsp; "_qs + tr("unassigned")
                                                     : u" &nbsp;·&nbsp; "_qs
                    + tr("assigned to <b>%1</b>")
                          .arg(r[AssignedTo].toString() == m_sessionUser
                                  ? tr("you (%1)").arg(m_sessionUser.toHtmlEscaped())
                                  : r[AssignedTo].toString().toHtmlEscaped()))
        + (open ? QString()
                : u" &nbsp;·&nbsp; <b style='color:#1b6e20'>"_qs
                    + r[Status].toString().toHtmlEscaped() + u"</b>"_qs));

    const CaseEvidence ev
        = buildCaseEvidence(code, r[EventJson].toString(), r[LocalStateJson].toString());
    // A closed case says so first: its evidence is what was found while it was open. An open
    // one says what to do next.
    m_finding->setText(open
            ? (ev.nextStep.isEmpty() ? ev.finding
                                     : ev.finding + u'\n' + tr("Next step: %1").arg(ev.nextStep))
            : tr("Closed: %1. When it was open: %2").arg(r[Status].toString(), ev.finding));
    const qint64 seen = r[Occurrences].toLongLong();
    const QDateTime first = columns::fromMicros(r[FirstSeen]);
    const QDateTime last = columns::fromMicros(r[LastSeen]);
    m_history->setText(u"<b>"_qs + tr("History") + u"</b> &nbsp;"_qs
        + (seen > 1 ? tr("first delivered as %1, %2 ago; delivered %3 times, last as %4, %5 ago.")
                          .arg(r[FirstEvent].toString().toHtmlEscaped(), format::age(first))
                          .arg(seen)
                          .arg(r[LastEvent].toString().toHtmlEscaped(), format::age(last))
                    : tr("delivered once, as %1, %2 ago.")
                          .arg(r[FirstEvent].toString().toHtmlEscaped(), format::age(first))));
    m_history->setToolTip(format::utcTooltip(first, last));
    m_evidenceModel->setLines(ev.localTitle, ev.incomingTitle, ev.lines);
    m_json->setPlainText(r[EventPretty].toString());
    updateButtons();
}

void CasesPage::updateButtons()
{
    const RowRef current = currentRecord();
    const bool hasCase = current != nullptr;
    const bool isOpen = hasCase && current[IsOpen].toBool();
    const QString viewerReason = actionsBlockedReason();
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
    // Re-apply cannot work on a renewal without its period (needs_snapshot): disabled, with
    // the reason, instead of asking for a note and then being refused.
    if (isOpen && m_canOperate && m_actions->isAvailable(CaseActions::Action::Reapply)) {
        const QString blocked = reapplyBlockedReason(current[EventJson].toString());
        if (!blocked.isEmpty()) {
            m_reapply->setEnabled(false);
            m_reapply->setToolTip(blocked);
        }
    }
    // Reopen: a dismissed case only (a resolved one's renewal is recorded), in Dismiss's place.
    const bool dismissed = hasCase && current[IsDismissed].toBool();
    setup(m_reopen, CaseActions::Action::Reopen);
    m_reopen->setEnabled(dismissed && m_canOperate && !m_busy
        && m_actions->isAvailable(CaseActions::Action::Reopen));
    m_reopen->setVisible(dismissed);
    m_dismiss->setVisible(!dismissed);
    if (dismissed && m_canOperate)
        m_reopen->setToolTip(tr("Dismissed by mistake? Put the case back in the queue, open, "
                                "with a note saying why; its history keeps the dismissal."));
    // Claim, release and note: a note goes on any case, open or closed; claims are of open
    // cases. Taking over or releasing another's claim asks for the note the database requires.
    const QString holder = hasCase ? current[AssignedTo].toString() : QString();
    const bool mine = !holder.isEmpty() && holder == m_sessionUser;
    setup(m_claim, CaseActions::Action::Claim);
    setup(m_release, CaseActions::Action::Release);
    setup(m_note, CaseActions::Action::Note);
    m_claim->setEnabled(m_claim->isEnabled() && !mine);
    m_claim->setText(holder.isEmpty() || mine ? tr("Claim") : tr("Take over…"));
    m_release->setEnabled(m_release->isEnabled() && !holder.isEmpty());
    m_release->setText(holder.isEmpty() || mine ? tr("Release") : tr("Release…"));
    m_note->setEnabled(m_canOperate && hasCase && !m_busy);
    if (m_canOperate) {
        m_claim->setToolTip(mine ? tr("The case is assigned to you.")
                : holder.isEmpty()
                ? tr("Assign the case to you (%1): the queue shows it as yours.").arg(m_sessionUser)
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
        m_note->setToolTip(viewerReason);
    }
    // The bulk actions: over the selected open cases, one at a time through the core.
    int selectedOpen = 0;
    const QVector<qint64> selected = selectedCaseIds();
    for (qint64 id : selected) {
        const int r = m_model->rowOfKey(QString::number(id));
        if (r >= 0 && m_model->row(r)[IsOpen].toBool())
            ++selectedOpen;
    }
    const bool bulkRunning = m_bulk && m_bulk->run()->isRunning();
    for (QPushButton *b : {m_bulkReapply, m_bulkDismiss, m_applicable}) {
        const bool needsSelection = b != m_applicable;
        b->setEnabled(m_canOperate && !bulkRunning && (!needsSelection || selectedOpen > 0));
        b->setToolTip(!m_canOperate ? viewerReason
                : bulkRunning       ? tr("A bulk run is going: wait for it or stop it.")
                : b == m_applicable
                ? tr("Re-apply every open case of a reason that the renewal core would apply "
                     "now, after a preview of how many and which.")
                : selectedOpen == 0 ? tr("Select open cases in the queue (Ctrl+click, "
                                         "Shift+click).")
                                    : tr("Each selected open case through the core, one at a "
                                         "time, each result shown."));
    }
    m_selection->setText(selected.size() > 1 ? tr("%1 selected").arg(casesText(selected.size()))
                + (selectedOpen < selected.size() ? tr(" (%1 open)").arg(selectedOpen) : QString())
                                             : QString());
    // A case whose subscription is not in the desk (subscription_not_found) has nothing to
    // open: say so rather than show whatever subscription was open before.
    const bool hasSubscription = hasCase && !current[SubscriptionUuid].toString().isEmpty();
    m_openSubscription->setEnabled(hasSubscription);
    m_openSubscription->setToolTip(hasCase && !hasSubscription
            ? tr("The provider's subscription %1 is not in the desk: import it, or attach a "
                 "provider snapshot to create it.")
                  .arg(current[SubscriptionRef].toString())
            : QString());
}

QString CasesPage::actionsBlockedReason() const
{
    if (m_onReplica)
        return tr("Read-only replica: this desk is connected to a hot standby, which cannot "
                  "write. Connect to the primary (File › Connect…) to act on cases.");
    if (!m_canOperate)
        return tr("Your database role (%1) may only look: acting on cases needs "
                  "renewal_operator.")
            .arg(m_sessionUser);
    return {};
}

SnapshotDialog *CasesPage::openSnapshotDialog()
{
    if (m_onReplica)
        return nullptr;
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
    if (action == CaseActions::Action::Claim || action == CaseActions::Action::Release
        || action == CaseActions::Action::Note || action == CaseActions::Action::Reopen) {
        const RowRef r = currentRecord();
        if (!r)
            return;
        const QString holder = r[AssignedTo].toString();
        const bool reopen = action == CaseActions::Action::Reopen;
        // The note the database requires: a takeover, a release of another's claim, a note,
        // a reopen.
        const bool needsNote = action == CaseActions::Action::Note || reopen
            || (!holder.isEmpty() && holder != m_sessionUser);
        if (!needsNote) {
            runAction(action, {}, {});
            return;
        }
        QDialog dialog(this);
        dialog.setWindowTitle(action == CaseActions::Action::Note
                ? tr("Note on case %1").arg(m_currentCase)
                : reopen ? tr("Reopen case %1").arg(m_currentCase)
                : action == CaseActions::Action::Claim
                ? tr("Take over case %1 from %2").arg(m_currentCase).arg(holder)
                : tr("Release %2's claim on case %1").arg(m_currentCase).arg(holder));
        auto *text = new QPlainTextEdit;
        text->setObjectName(u"case-note-text"_qs);
        text->setPlaceholderText(action == CaseActions::Action::Note
                ? tr("What you learned (\"customer says the card was charged twice\")")
                : reopen
                ? tr("Why it is open again (\"dismissed by mistake: case 12 was "
                     "meant\"): the case's history keeps it")
                : tr("Why (\"%1 is out this week\"): the case's history keeps it").arg(holder));
        auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
        box->button(QDialogButtonBox::Ok)->setText(actionName(action).remove(u" on"_qs));
        box->button(QDialogButtonBox::Ok)->setEnabled(false);
        connect(text, &QPlainTextEdit::textChanged, box, [text, box] {
            box->button(QDialogButtonBox::Ok)->setEnabled(!text->toPlainText().trimmed().isEmpty());
        });
        connect(box, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
        connect(box, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
        submitOnCtrlReturn(&dialog, box->button(QDialogButtonBox::Ok), {text});
        auto *layout = new QVBoxLayout(&dialog);
        layout->addWidget(text);
        layout->addWidget(box);
        if (dialog.exec() == QDialog::Accepted)
            runAction(action, {}, text->toPlainText().trimmed());
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
    const bool good = outcome.kind == CaseActionOutcome::Kind::Resolved
        || outcome.kind == CaseActionOutcome::Kind::Done;
    m_outcome->setStyleSheet(
        good ? u"color:#1b6e20; font-weight:bold"_qs : u"color:#b02020; font-weight:bold"_qs);
    m_outcome->setText(outcome.summary);
    emit actionFinished(outcome);
    refresh();
}

} // namespace rd::ui
