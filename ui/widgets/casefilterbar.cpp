#include "ui/widgets/casefilterbar.h"

#include "ui/models/format.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSignalBlocker>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace rd::ui {
namespace {

/// The age filters offered (min, max seconds; -1 unbounded).
struct AgeChoice
{
    const char *label;
    qint64 min;
    qint64 max;
};
constexpr AgeChoice kAgeChoices[] = {
    {QT_TRANSLATE_NOOP("rd::ui::CaseFilterBar", "Any age"), -1, -1},
    {QT_TRANSLATE_NOOP("rd::ui::CaseFilterBar", "Older than 1 h"), 3600, -1},
    {QT_TRANSLATE_NOOP("rd::ui::CaseFilterBar", "Older than 1 day"), 24 * 3600, -1},
    {QT_TRANSLATE_NOOP("rd::ui::CaseFilterBar", "Older than 1 week"), 7 * 24 * 3600, -1},
    {QT_TRANSLATE_NOOP("rd::ui::CaseFilterBar", "Newer than 1 h"), -1, 3600},
    {QT_TRANSLATE_NOOP("rd::ui::CaseFilterBar", "Newer than 1 day"), -1, 24 * 3600},
};

QVariant ageData(qint64 min, qint64 max)
{
    return QVariantList {min, max};
}

// Shows `data` in `box` without announcing it; false when it is not offered.
bool showData(QComboBox *box, const QVariant &data)
{
    const int index = box->findData(data);
    if (index < 0)
        return false;
    const QSignalBlocker block(box);
    box->setCurrentIndex(index);
    return true;
}

// Sets `field` to `value` and shows it in `box` (its items' data are the enum's values).
template<typename Enum>
bool setShown(Enum &field, Enum value, QComboBox *box)
{
    if (field == value)
        return false;
    field = value;
    showData(box, int(value));
    return true;
}

} // namespace

CaseFilterBar::CaseFilterBar(QWidget *parent)
    : QWidget(parent)
    , m_scopeBox(new QComboBox)
    , m_sortBox(new QComboBox)
    , m_search(new QLineEdit)
    , m_searchDelay(new QTimer(this))
    , m_assigneeBox(new QComboBox)
    , m_reasonBox(new QComboBox)
    , m_ageBox(new QComboBox)
    , m_dayChip(new QToolButton)
    , m_markAfter(new QComboBox)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    // The queue is the open cases; the others stay reachable (what healed by itself, what
    // people resolved or dismissed), each with its history.
    m_scopeBox->setObjectName(u"case-scope"_qs);
    m_scopeBox->addItem(tr("Open cases"), int(CaseScope::Open));
    m_scopeBox->addItem(tr("Healed automatically"), int(CaseScope::HealedAutomatically));
    m_scopeBox->addItem(tr("Resolved"), int(CaseScope::Resolved));
    m_scopeBox->addItem(tr("Dismissed"), int(CaseScope::Dismissed));
    m_scopeBox->addItem(tr("All cases"), int(CaseScope::All));
    auto *scopeRow = new QHBoxLayout;
    scopeRow->addWidget(new QLabel(tr("Show:")));
    scopeRow->addWidget(m_scopeBox);
    m_sortBox->setObjectName(u"case-sort"_qs);
    m_sortBox->addItem(tr("Last seen, newest first"), int(CaseSort::LastSeenNewest));
    m_sortBox->addItem(tr("Last seen, oldest first"), int(CaseSort::LastSeenOldest));
    m_sortBox->addItem(tr("Age, oldest first"), int(CaseSort::OldestFirst));
    m_sortBox->addItem(tr("Age, newest first"), int(CaseSort::NewestFirst));
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
    layout->addLayout(scopeRow);

    // Whose, why, how old; and when a case is "old" (a preference, kept in QSettings).
    auto *filterRow = new QHBoxLayout;
    m_assigneeBox->setObjectName(u"case-assignee"_qs);
    m_assigneeBox->addItem(tr("Everyone's"), int(CaseAssignee::All));
    m_assigneeBox->addItem(tr("Mine"), int(CaseAssignee::Mine));
    m_assigneeBox->addItem(tr("Unassigned"), int(CaseAssignee::Unassigned));
    m_reasonBox->setObjectName(u"case-reason"_qs);
    m_reasonBox->addItem(tr("Any reason"), QString());
    m_reasonBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    // Narrow enough that the row fits 1024 px in German too; the open list shows whole reasons.
    m_reasonBox->setMinimumContentsLength(15);
    m_ageBox->setObjectName(u"case-age"_qs);
    for (const AgeChoice &choice : kAgeChoices)
        m_ageBox->addItem(tr(choice.label), ageData(choice.min, choice.max));
    m_markAfter->setObjectName(u"case-mark-after"_qs);
    for (qint64 hours : {1, 4, 8, 24, 72, 168, 720})
        m_markAfter->addItem(ageBoundText(hours * 3600), hours * 3600);
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
    layout->addLayout(filterRow);

    connect(m_scopeBox, &QComboBox::currentIndexChanged, this,
        [this] { emit scopeChosen(CaseScope(m_scopeBox->currentData().toInt())); });
    connect(m_sortBox, &QComboBox::currentIndexChanged, this,
        [this] { emit sortChosen(CaseSort(m_sortBox->currentData().toInt())); });
    connect(m_assigneeBox, &QComboBox::currentIndexChanged, this,
        [this] { emit assigneeChosen(CaseAssignee(m_assigneeBox->currentData().toInt())); });
    connect(m_reasonBox, &QComboBox::currentIndexChanged, this, [this] {
        emit reasonAndAgeChosen(
            m_reasonBox->currentData().toString(), m_filter.minAge, m_filter.maxAge);
    });
    connect(m_ageBox, &QComboBox::currentIndexChanged, this, [this] {
        const QVariantList range = m_ageBox->currentData().toList();
        if (range.size() == 2)
            emit reasonAndAgeChosen(m_filter.reason, range[0].toLongLong(), range[1].toLongLong());
    });
    connect(m_dayChip, &QToolButton::clicked, this, &CaseFilterBar::dayCleared);
    connect(m_markAfter, &QComboBox::currentIndexChanged, this,
        [this] { emit markAfterChosen(m_markAfter->currentData().toLongLong()); });
    m_searchDelay->setSingleShot(true);
    m_searchDelay->setInterval(250);
    connect(m_search, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_searchDelay, &QTimer::timeout, this, &CaseFilterBar::searchEdited);
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        m_searchDelay->stop();
        emit searchSubmitted();
    });
}

CaseQueueFilter CaseFilterBar::filter() const
{
    CaseQueueFilter f = m_filter;
    f.search = m_search->text().trimmed();
    return f;
}

QString CaseFilterBar::scopeText() const
{
    return m_scopeBox->currentText();
}

QString CaseFilterBar::assigneeText() const
{
    return m_assigneeBox->currentText();
}

QString CaseFilterBar::ageText() const
{
    return m_ageBox->currentText();
}

bool CaseFilterBar::setScope(CaseScope scope)
{
    return setShown(m_filter.scope, scope, m_scopeBox);
}

bool CaseFilterBar::setSort(CaseSort sort)
{
    return setShown(m_filter.sort, sort, m_sortBox);
}

bool CaseFilterBar::setAssignee(CaseAssignee assignee)
{
    return setShown(m_filter.assignee, assignee, m_assigneeBox);
}

bool CaseFilterBar::setReasonAndAge(const QString &reason, qint64 minAge, qint64 maxAge, bool force)
{
    minAge = minAge < 0 ? -1 : minAge;
    maxAge = maxAge < 0 ? -1 : maxAge;
    if (!force && reason == m_filter.reason && minAge == m_filter.minAge
        && maxAge == m_filter.maxAge)
        return false;
    m_filter.reason = reason;
    m_filter.minAge = minAge;
    m_filter.maxAge = maxAge;
    syncAgeBox();
    if (!showData(m_reasonBox, reason)) {
        const QSignalBlocker block(m_reasonBox);
        m_reasonBox->addItem(format::humanize(reason), reason);
        m_reasonBox->setCurrentIndex(m_reasonBox->count() - 1);
    }
    return true;
}

bool CaseFilterBar::setDay(const QDate &dayUtc, bool closed)
{
    const bool valid = dayUtc.isValid();
    if (dayUtc == m_filter.day && (!valid || closed == m_filter.dayClosed))
        return false;
    m_filter.day = dayUtc;
    m_filter.dayClosed = valid && closed;
    if (valid) {
        const QString day = QLocale().toString(dayUtc, u"ddd d MMM yyyy"_qs);
        m_dayChip->setText(
            (closed ? tr("Closed on %1 (UTC)") : tr("Opened on %1 (UTC)")).arg(day) + u"  ✕"_qs);
    }
    m_dayChip->setVisible(valid);
    return true;
}

void CaseFilterBar::reset(CaseScope scope, CaseSort sort)
{
    const QSignalBlocker blockSearch(m_search);
    m_searchDelay->stop();
    m_search->clear();
    m_filter.scope = scope;
    showData(m_scopeBox, int(scope));
    m_filter.sort = sort;
    showData(m_sortBox, int(sort));
    m_filter.assignee = CaseAssignee::All;
    showData(m_assigneeBox, int(CaseAssignee::All));
    m_filter.day = QDate();
    m_filter.dayClosed = false;
    m_dayChip->hide();
}

void CaseFilterBar::clearReasonAndAge()
{
    m_filter.reason.clear();
    showData(m_reasonBox, QString());
    m_filter.minAge = m_filter.maxAge = -1;
    syncAgeBox();
}

bool CaseFilterBar::isNarrowed() const
{
    const CaseQueueFilter f = filter();
    return !f.reason.isEmpty() || f.minAge >= 0 || f.maxAge >= 0 || f.day.isValid()
        || f.assignee != CaseAssignee::All || !f.search.isEmpty();
}

void CaseFilterBar::syncAgeBox()
{
    const qint64 min = m_filter.minAge, max = m_filter.maxAge;
    const QVariant wanted = ageData(min, max);
    if (showData(m_ageBox, wanted))
        return;
    // A range from the Overview's drill-down ("1 h – 1 day old"): offered as it came.
    const QString label = min >= 0 && max >= 0
        ? tr("%1 – %2 old").arg(ageBoundText(min), ageBoundText(max))
        : min >= 0 ? tr("Older than %1").arg(ageBoundText(min))
                   : tr("Newer than %1").arg(ageBoundText(max));
    const QSignalBlocker block(m_ageBox);
    m_ageBox->addItem(label, wanted);
    m_ageBox->setCurrentIndex(m_ageBox->count() - 1);
}

void CaseFilterBar::setReasonCounts(const QVector<QPair<QString, qint64>> &reasons)
{
    const QString &reason = m_filter.reason;
    // Rebuilt only when the counts moved: a live update must not close an open list.
    if (reasons == m_reasonCounts && m_reasonBox->findData(reason) >= 0
        && m_reasonBox->currentData().toString() == reason)
        return;
    m_reasonCounts = reasons;
    const QSignalBlocker block(m_reasonBox);
    m_reasonBox->clear();
    m_reasonBox->addItem(tr("Any reason"), QString());
    for (const auto &[code, open] : reasons)
        m_reasonBox->addItem(tr("%1 (%2 open)").arg(format::humanize(code)).arg(open), code);
    int index = m_reasonBox->findData(reason);
    if (index < 0) {
        m_reasonBox->addItem(format::humanize(reason), reason);
        index = m_reasonBox->count() - 1;
    }
    m_reasonBox->setCurrentIndex(index);
    for (int i = 0; i < m_reasonBox->count(); ++i)
        m_reasonBox->setItemData(i, m_reasonBox->itemData(i).toString(), Qt::ToolTipRole);
}

void CaseFilterBar::showMarkAfter(qint64 secs)
{
    if (showData(m_markAfter, secs))
        return;
    const QSignalBlocker block(m_markAfter);
    m_markAfter->addItem(ageBoundText(secs), secs);
    m_markAfter->setCurrentIndex(m_markAfter->count() - 1);
}

} // namespace rd::ui
