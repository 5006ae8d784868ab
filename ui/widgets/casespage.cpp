#include "ui/widgets/casespage.h"

#include "ui/actions/bulkcaserun.h"
#include "ui/models/applicablecases.h"
#include "ui/models/casedetail.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/recordtablemodel.h"
#include "ui/widgets/applicabledialog.h"
#include "ui/widgets/bulkcasedialog.h"
#include "ui/widgets/buttonaction.h"
#include "ui/widgets/casedialogs.h"
#include "ui/widgets/filterchips.h"
#include "ui/widgets/newrowsbar.h"
#include "ui/widgets/operatornotedialog.h"
#include "ui/widgets/snapshotdialog.h"
#include "ui/widgets/tableview.h"

#include <QDialog>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace rd::ui {

CasesPage::CasesPage(DatabasePool *pool, CaseActions *actions, QWidget *parent)
    : QWidget(parent)
    , m_pool(pool)
    , m_actions(actions)
    , m_filters(new CaseFilterBar)
    , m_queue(new CaseQueueView(
          QSettings().value(u"cases/markOlderThanSecs"_qs, 24 * 3600).toLongLong()))
    , m_panel(new CaseDetailPanel)
    , m_chips(new FilterChips)
    , m_splitter(new QSplitter(Qt::Vertical))
{
    m_filters->showMarkAfter(m_queue->markAgedAfterSecs());
    auto *top = new QWidget;
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_filters);
    topLayout->addWidget(m_chips);
    topLayout->addWidget(m_queue);
    m_splitter->setObjectName(u"cases-split"_qs);
    m_splitter->addWidget(top);
    m_splitter->addWidget(m_panel);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setSizes({260, 480});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter);

    // The filter bar: what a person picks goes through the page's setters (which read the
    // queue again).
    connect(m_filters, &CaseFilterBar::scopeChosen, this, &CasesPage::setScope);
    connect(m_filters, &CaseFilterBar::sortChosen, this, &CasesPage::setSort);
    connect(m_filters, &CaseFilterBar::assigneeChosen, this, &CasesPage::setAssignee);
    connect(m_filters, &CaseFilterBar::reasonAndAgeChosen, this, &CasesPage::setFilter);
    connect(m_filters, &CaseFilterBar::dayCleared, this, &CasesPage::clearDay);
    connect(m_filters, &CaseFilterBar::markAfterChosen, this,
        [this](qint64 secs) { setMarkAgedAfterSecs(secs); });
    connect(m_filters, &CaseFilterBar::searchEdited, this, &CasesPage::refresh);
    m_chips->setFocusFallback(m_queue->table());
    connect(m_chips, &FilterChips::removed, this, &CasesPage::removeFilter);
    connect(m_chips, &FilterChips::clearAllRequested, this, [this] {
        // Everything a chip shows; the day, with its own chip, and the order stay.
        const QSignalBlocker block(m_filters->searchBox());
        m_filters->searchBox()->clear();
        m_filters->setScope(Scope::Open);
        m_filters->setAssignee(Assignee::All);
        m_filters->clearReasonAndAge();
        m_currentCase = 0;
        m_caseRow.clear();
        refresh();
    });
    connect(m_filters, &CaseFilterBar::searchSubmitted, this, [this] {
        m_openFirst = true; // the first match opens when the queue lands
        refresh();
    });

    // The queue: its current row is the panel's case; the bulk actions run over its selection.
    connect(m_queue->bulkReapplyButton(), &QPushButton::clicked, this,
        [this] { askAndRunBulk(CaseActions::Action::Reapply); });
    connect(m_queue->bulkDismissButton(), &QPushButton::clicked, this,
        [this] { askAndRunBulk(CaseActions::Action::Dismiss); });
    connect(m_queue->applicableButton(), &QPushButton::clicked, this,
        [this] { openApplicableDialog(m_filters->reason()); });
    TableView *queue = m_queue->table();
    connect(queue->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) { showCase(current.isValid() ? current.row() : -1); });
    connect(queue->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &CasesPage::updateButtons);
    // Enter opens the subscription, or says why there is none (a disabled button ignores click).
    connect(queue, &TableView::openRequested, this, [this] {
        QPushButton *open = m_panel->openSubscriptionButton();
        if (open->isEnabled())
            open->click();
        else if (!open->toolTip().isEmpty())
            emit statusMessage(open->toolTip());
    });

    connect(m_panel, &CaseDetailPanel::actionRequested, this, &CasesPage::askAndRun);
    connect(m_panel, &CaseDetailPanel::openSubscriptionClicked, this,
        &CasesPage::openCurrentSubscription);
    makeCaseActions();
    showCase(-1);
}

void CasesPage::makeCaseActions()
{
    // Shortcuts that clash with none of the desk's (Ctrl+K, Ctrl+F, Ctrl+G, F5, Ctrl+C, Ctrl+A
    // in a table, Ctrl+R and Ctrl+D of some platforms' Refresh and Delete): a letter for the
    // frequent ones, Shift for the ones that close a case.
    using Action = CaseActions::Action;
    const struct
    {
        const char *name;
        QPushButton *button;
        QKeySequence keys;
    } entries[] {{"open-subscription", m_panel->openSubscriptionButton(),
                     QKeySequence(Qt::CTRL | Qt::Key_O)},
        {"claim", m_panel->button(Action::Claim), QKeySequence(Qt::CTRL | Qt::Key_M)},
        {"release", m_panel->button(Action::Release),
            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M)},
        {"note", m_panel->button(Action::Note), QKeySequence(Qt::CTRL | Qt::Key_N)},
        {nullptr, nullptr, {}},
        {"attach-snapshot", m_panel->button(Action::AttachSnapshot),
            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A)},
        {"reapply", m_panel->button(Action::Reapply),
            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R)},
        {"dismiss", m_panel->button(Action::Dismiss),
            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D)},
        {"reopen", m_panel->button(Action::Reopen), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O)},
        {nullptr, nullptr, {}}, {"applicable", m_queue->applicableButton(), {}},
        {"bulk-reapply", m_queue->bulkReapplyButton(), {}},
        {"bulk-dismiss", m_queue->bulkDismissButton(), {}}};
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

void CasesPage::openCurrentSubscription()
{
    const RowRef r = currentRecord();
    if (!r)
        return;
    const QString id = r[SubscriptionUuid].toString();
    if (id.isEmpty())
        emit statusMessage(m_panel->openSubscriptionButton()->toolTip());
    else
        emit subscriptionOpenRequested(id);
}

void CasesPage::refresh()
{
    // Every change of the filter comes through here: the chips follow it.
    updateChips();
    m_queueStale = true;
    const QueueFilter filter = m_filters->filter();
    deliverResult(
        this, m_pool->call(&loadCaseQueue, filter),
        [this, filter](CaseQueue q) {
            m_queueStale = false;
            const qint64 pending = m_pendingSelect;
            const qint64 keep = pending ? pending : m_currentCase;
            m_pendingSelect = 0;
            m_canOperate = q.canOperate;
            m_onReplica = q.onReplica;
            m_sessionUser = q.sessionUser;
            m_queue->setSessionUser(q.sessionUser);
            m_filters->setReasonCounts(q.reasons);
            RecordTableModel *model = m_queue->model();
            TableView *table = m_queue->table();
            model->setRows(std::move(q.cells));
            if (m_openCount != q.openCount) {
                m_openCount = q.openCount;
                emit openCountChanged(m_openCount);
            }
            int r = keep ? model->rowOfKey(QString::number(keep)) : -1;
            if (m_openFirst) {
                m_openFirst = false;
                if (model->rowCount() > 0) {
                    r = 0;
                    table->setFocus();
                }
            }
            if (r < 0 && pending != 0 && pending != m_currentCase && !m_busy) {
                // Opened from elsewhere (an inbox delivery) but not in this queue (closed, or
                // another scope): the panel shows it, as it now is.
                m_panel->clearOutcome();
                m_panel->clearHistory();
                m_caseRow.clear();
                m_currentCase = pending;
            }
            if (r >= 0) {
                // A refresh keeps a selection of several cases (the rows stay in place).
                if (table->currentIndex().row() != r
                    || !table->selectionModel()->isRowSelected(r, {}))
                    table->selectRow(r);
                showCase(r);
            } else if (model->rowCount() > 0 && !m_busy && m_currentCase == 0) {
                // Row 0 may be the row already selected (Show changed, the same case first):
                // then the table signals nothing, and the panel would show a case whose
                // actions think none is current.
                table->selectRow(0);
                showCase(0);
            } else if (r < 0 && m_currentCase != 0 && !m_busy) {
                // The case left the queue (resolved, dismissed): the panel keeps showing it,
                // as it now is.
                table->clearSelection();
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
                m_queue->newRowsBar()->reset();
            }
            m_queue->newRowsBar()->rowsListed();
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
    searchBox()->setFocus();
    searchBox()->selectAll();
}

void CasesPage::setScope(Scope scope)
{
    if (!m_filters->setScope(scope))
        return;
    m_currentCase = 0;
    m_caseRow.clear();
    refresh();
}

void CasesPage::setSort(Sort sort)
{
    if (m_filters->setSort(sort))
        refresh(); // the selected case stays selected
}

void CasesPage::setAssignee(Assignee assignee)
{
    if (m_filters->setAssignee(assignee))
        refresh(); // the selected case stays shown
}

void CasesPage::setFilter(const QString &reason, qint64 minAgeSecs, qint64 maxAgeSecs)
{
    if (m_filters->setReasonAndAge(reason, minAgeSecs, maxAgeSecs))
        refresh();
}

void CasesPage::resetQueue(Scope scope, Sort sort)
{
    m_filters->reset(scope, sort);
    // The list a drill-down asked for selects its own first case (or the one asked for): a
    // case from before stayed in the panel over a list that did not hold it, nothing selected.
    m_currentCase = 0;
    m_caseRow.clear();
}

void CasesPage::updateChips()
{
    const QueueFilter f = m_filters->filter();
    QList<FilterChips::Chip> chips;
    if (f.scope != Scope::Open)
        chips.append({u"scope"_qs, tr("Show: %1").arg(m_filters->scopeText())});
    if (f.assignee != Assignee::All)
        chips.append({u"assignee"_qs, tr("Assigned: %1").arg(m_filters->assigneeText())});
    if (!f.reason.isEmpty())
        chips.append({u"reason"_qs, tr("Reason: %1").arg(format::humanize(f.reason))});
    if (f.minAge >= 0 || f.maxAge >= 0)
        chips.append({u"age"_qs, tr("Age: %1").arg(m_filters->ageText())});
    if (!f.search.isEmpty())
        chips.append({u"search"_qs, tr("Id contains: %1").arg(f.search)});
    m_chips->setChips(chips);
    if (chips.isEmpty() && !f.day.isValid())
        m_drilledDown = false;
}

void CasesPage::removeFilter(const QString &key)
{
    if (key == u"scope") {
        setScope(Scope::Open);
    } else if (key == u"assignee") {
        setAssignee(Assignee::All);
    } else if (key == u"reason") {
        setFilter({}, minAgeSecs(), maxAgeSecs());
    } else if (key == u"age") {
        setFilter(reasonFilter(), -1, -1);
    } else if (key == u"search") {
        // At once, not after the search box's pause.
        const QSignalBlocker block(searchBox());
        searchBox()->clear();
        refresh();
    }
}

void CasesPage::clearDrillDown()
{
    if (!m_drilledDown)
        return;
    m_drilledDown = false;
    resetQueue(Scope::Open, QueueFilter().sort);
    m_filters->clearReasonAndAge();
    refresh();
}

void CasesPage::showOpenCases(const QString &reason, qint64 minAgeSecs, qint64 maxAgeSecs)
{
    m_drilledDown = true;
    resetQueue(Scope::Open, Sort::OldestFirst);
    // The queue is read again even when the reason and age were already these.
    m_filters->setReasonAndAge(reason, minAgeSecs, maxAgeSecs, /*force=*/true);
    refresh();
}

void CasesPage::showCasesOfDay(const QDate &dayUtc, bool closed)
{
    // Whatever the queue showed: every status, everyone's, any reason and age, that day only.
    m_drilledDown = true;
    resetQueue(Scope::All, closed ? Sort::LastSeenNewest : Sort::NewestFirst);
    m_filters->clearReasonAndAge();
    // setDay refreshes only on a change: the queue is read again either way.
    setDay(dayUtc, closed);
}

void CasesPage::setDay(const QDate &dayUtc, bool closed)
{
    if (m_filters->setDay(dayUtc, closed))
        refresh();
}

void CasesPage::setMarkAgedAfterSecs(qint64 secs, bool remember)
{
    secs = std::max<qint64>(1, secs);
    if (remember)
        QSettings().setValue(u"cases/markOlderThanSecs"_qs, secs);
    if (secs == m_queue->markAgedAfterSecs())
        return;
    m_queue->setMarkAgedAfterSecs(secs);
    m_filters->showMarkAfter(secs);
    if (const RowRef r = currentRecord())
        showRecord(r);
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
    const QVector<BulkCaseRun::Item> items = bulkItems(caseIds);
    auto *run = new BulkCaseRun(m_actions);
    const int runs = bulkRunnable(action, items);
    const QString title = action == CaseActions::Action::Dismiss
        ? tr("Dismiss %1").arg(caseCountText(runs))
        : tr("Re-apply %1").arg(caseCountText(runs));
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
    run->start(action, items, reason, comment);
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

QVector<BulkCaseRun::Item> CasesPage::bulkItems(const QVector<qint64> &caseIds) const
{
    QVector<BulkCaseRun::Item> items;
    for (qint64 id : caseIds) {
        const int r = model()->rowOfKey(QString::number(id));
        items.push_back({id, r >= 0 ? model()->row(r)[SubscriptionRef].toString() : QString(),
            r >= 0 && !reapplyBlockedReason(model()->row(r)[EventJson].toString()).isEmpty()});
    }
    return items;
}

void CasesPage::askAndRunBulk(CaseActions::Action action)
{
    // The open ones of the selection, and a line for each: how many and which are shown
    // before the note (a bulk dismissal closes every case listed). A re-apply leaves out the
    // cases that need a snapshot, as Re-apply… is disabled on each, and says so.
    QVector<qint64> ids;
    QVector<qint64> needSnapshot;
    QStringList lines;
    for (qint64 id : selectedCaseIds()) {
        const int row = model()->rowOfKey(QString::number(id));
        if (row < 0)
            continue;
        const RowRef r = model()->row(row);
        if (!r[IsOpen].toBool())
            continue;
        if (action == CaseActions::Action::Reapply
            && !reapplyBlockedReason(r[EventJson].toString()).isEmpty()) {
            needSnapshot << id;
            continue;
        }
        ids << id;
        lines << tr("case %1 · %2/%3 · %4 · %5")
                     .arg(id)
                     .arg(r[Provider].toString(), r[SubscriptionRef].toString(),
                         r[RenewalKey].toString(), format::humanize(r[ErrorCode].toString()));
    }
    const QString leftOut
        = needSnapshot.isEmpty() ? QString() : needsSnapshotLeftOutText(int(needSnapshot.size()));
    if (ids.isEmpty()) {
        if (!leftOut.isEmpty())
            emit statusMessage(leftOut + u"."_qs);
        return;
    }
    // The run is given them too, and counts them as left out in its summary.
    if (const auto note = askBulkNote(this, action, ids, lines, leftOut))
        runBulk(action, ids + needSnapshot, note->reason, note->comment);
}

bool CasesPage::openCase(qint64 caseId, bool widen)
{
    // Rows of a queue read before the last change of its filter are not the queue's.
    const int r = m_queueStale ? -1 : model()->rowOfKey(QString::number(caseId));
    if (r < 0) {
        // Opened from elsewhere (the Overview's oldest case, Find anything, a link) while the
        // queue is narrowed to other cases (a reason, an age, a day, a search, whose): the
        // panel would show this case over a list of others with nothing selected. The queue
        // drops what narrows it (its scope and order stay) and selects the case.
        if (widen && m_filters->isNarrowed()) {
            resetQueue(scope(), sort());
            m_filters->clearReasonAndAge();
        }
        m_pendingSelect = caseId;
        refresh();
        return false;
    }
    table()->selectRow(r);
    return true;
}

RowRef CasesPage::currentRecord() const
{
    if (m_currentCase == 0)
        return nullptr;
    const int r = model()->rowOfKey(QString::number(m_currentCase));
    if (r >= 0)
        return model()->row(r);
    if (m_caseRow.size() == FieldCount && m_caseRow[Id].toLongLong() == m_currentCase)
        return m_caseRow.constData();
    return nullptr;
}

void CasesPage::loadCase(qint64 caseId)
{
    deliverResult(
        this, m_pool->call(&loadCaseDetail, caseId),
        [this](CaseDetail d) {
            if (d.id != m_currentCase)
                return;
            m_panel->setHistory(d.steps);
            if (d.row.size() != FieldCount)
                return;
            m_caseRow = std::move(d.row);
            showRecord(m_caseRow.constData());
        },
        [this](const QString &message) { emit statusMessage(message); }, m_caseRequest.next());
}

void CasesPage::showCase(int row)
{
    if (row < 0 || row >= model()->rowCount()) {
        if (m_currentCase == 0) {
            m_caseRequest.cancel();
            m_panel->showNoCase();
        }
        updateButtons();
        return;
    }
    const RowRef r = model()->row(row);
    const qint64 id = r[Id].toLongLong();
    if (id != m_currentCase) {
        m_panel->clearOutcome();
        m_panel->clearHistory();
        m_currentCase = id;
        loadCase(id);
    }
    showRecord(r);
}

void CasesPage::showRecord(RowRef r)
{
    m_panel->showCase(r, {m_sessionUser, isAged(r), markAgedAfterSecs()});
    updateButtons();
}

void CasesPage::updateButtons()
{
    const QString blocked = actionsBlockedReason();
    m_panel->updateButtons(
        *m_actions, currentRecord(), {m_canOperate, m_busy, m_sessionUser, blocked});
    m_queue->updateBulkActions(m_canOperate, m_bulk && m_bulk->run()->isRunning(), blocked);
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
            m_panel->showOutcome(
                tr("Case %1 is no longer selected: nothing was attached.").arg(dialog->caseId()),
                false);
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
    using Action = CaseActions::Action;
    if (action == Action::AttachSnapshot) {
        openSnapshotDialog();
        return;
    }
    if (action == Action::Claim || action == Action::Release || action == Action::Note
        || action == Action::Reopen) {
        const RowRef r = currentRecord();
        if (!r)
            return;
        const QString holder = r[AssignedTo].toString();
        // The note the database requires: a takeover, a release of another's claim, a note,
        // a reopen.
        const bool needsNote = action == Action::Note || action == Action::Reopen
            || (!holder.isEmpty() && holder != m_sessionUser);
        if (!needsNote) {
            runAction(action, {}, {});
        } else if (const QString note = askCaseNote(this, action, m_currentCase, holder);
                   !note.isEmpty()) {
            runAction(action, {}, note);
        }
        return;
    }
    OperatorNoteDialog dialog(
        caseActionName(action), m_currentCase, action == Action::Dismiss, this);
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
    m_panel->showRunning(tr("%1 case %2…").arg(caseActionName(action)).arg(m_currentCase));
    deliverResult(
        this, m_actions->run(action, {m_currentCase, reason, comment, snapshotJson}),
        [this](const ActionResult &outcome) { actionDone(outcome); },
        [this](const QString &message) { actionDone(ActionResult::failed(message)); });
}

void CasesPage::actionDone(const ActionResult &outcome)
{
    m_busy = false;
    m_panel->showOutcome(outcome.summary, outcome.succeeded());
    emit actionFinished(outcome);
    refresh();
}

} // namespace rd::ui
