#include "ui/actions/bulkcaserun.h"

#include "ui/models/asyncresult.h"
#include "ui/models/columns.h"
#include "ui/models/recordtablemodel.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::BulkCaseRun)
};

} // namespace

QString bulkResultWord(CaseActions::Action action, const ActionResult &outcome)
{
    using Kind = ActionResult::Kind;
    switch (outcome.kind) {
    case Kind::Resolved:
        if (action == CaseActions::Action::Dismiss)
            return Tr::tr("dismissed");
        return outcome.code == u"duplicate" ? Tr::tr("already recorded") : Tr::tr("applied");
    case Kind::StillOpen:
        return Tr::tr("still refused");
    case Kind::Refused:
        return Tr::tr("refused");
    case Kind::Done:
        return Tr::tr("done");
    case Kind::Failed:
        break;
    }
    return Tr::tr("error");
}

BulkCaseRun::BulkCaseRun(CaseActions *actions, QObject *parent)
    : QObject(parent)
    , m_actions(actions)
    , m_results(new RecordTableModel(FieldCount,
          {columns::count(Tr::tr("Case"), CaseId),
              columns::text(Tr::tr("Subscription"), Subscription),
              columns::text(Tr::tr("Result"), Result), columns::text(Tr::tr("Detail"), Detail)},
          CaseId, this))
{ }

bool BulkCaseRun::start(
    CaseActions::Action action, QVector<Item> cases, const QString &reason, const QString &comment)
{
    if (m_running || cases.isEmpty())
        return false;
    m_action = action;
    m_items.clear();
    m_leftOut = 0;
    for (Item &item : cases) {
        if (action == CaseActions::Action::Reapply && item.needsSnapshot)
            ++m_leftOut;
        else
            m_items.push_back(std::move(item));
    }
    m_reason = reason;
    m_comment = comment;
    m_cells.clear();
    m_results->setRows({});
    m_done = 0;
    m_cancelled = false;
    m_running = true;
    emit progressed(0, total());
    next();
    return true;
}

void BulkCaseRun::cancel()
{
    if (m_running)
        m_cancelled = true;
}

void BulkCaseRun::next()
{
    if (m_cancelled || m_done >= total()) {
        m_running = false;
        emit finished();
        return;
    }
    const Item item = m_items[m_done];
    deliverResult(
        this, m_actions->run(m_action, {item.caseId, m_reason, m_comment, {}}),
        [this, item](const ActionResult &outcome) { record(item, outcome); },
        [this, item](const QString &message) { record(item, ActionResult::failed(message)); });
}

void BulkCaseRun::record(const Item &item, const ActionResult &outcome)
{
    m_cells << item.caseId << item.subscription << bulkResultWord(m_action, outcome)
            << outcome.summary << outcome.code;
    m_results->setRows(m_cells);
    ++m_done;
    emit progressed(m_done, total());
    next();
}

QString BulkCaseRun::summary() const
{
    QStringList order;
    QHash<QString, int> counts;
    for (int r = 0; r < m_results->rowCount(); ++r) {
        const QString word = m_results->row(r)[Result].toString();
        if (!counts.contains(word))
            order << word;
        ++counts[word];
    }
    QStringList parts;
    for (const QString &word : order)
        parts << u"%1 %2"_qs.arg(counts.value(word)).arg(word);
    QString text = parts.join(u", "_qs);
    if (m_cancelled && m_done < total())
        text += (text.isEmpty() ? QString() : u"; "_qs)
            + Tr::tr("cancelled: %1 of %2 cases not run").arg(total() - m_done).arg(total());
    if (m_leftOut > 0)
        text += (text.isEmpty() ? QString() : u"; "_qs) + needsSnapshotLeftOutText(m_leftOut);
    return text;
}

QString needsSnapshotLeftOutText(int count)
{
    return count == 1 ? Tr::tr("1 case needs a snapshot and is left out")
                      : Tr::tr("%1 cases need a snapshot and are left out").arg(count);
}

int bulkRunnable(CaseActions::Action action, const QVector<BulkCaseRun::Item> &items)
{
    if (action != CaseActions::Action::Reapply)
        return int(items.size());
    return int(std::count_if(
        items.begin(), items.end(), [](const BulkCaseRun::Item &i) { return !i.needsSnapshot; }));
}

} // namespace rd::ui
