#pragma once

#include "ui/models/casequeue.h"

#include <QDate>
#include <QPair>
#include <QVector>
#include <QWidget>

class QComboBox;
class QLineEdit;
class QTimer;
class QToolButton;

namespace rd::ui {

/// The Cases page's filter bar: which cases (scope), their order, a search, whose, which
/// reason, how old, a day from the Overview, and the "Mark older than" preference.
///
/// It holds the filter and shows it. What a person picks is announced (the *Chosen signals) and
/// the page decides what follows; the setters change the filter and its boxes silently and
/// say whether anything changed.
class CaseFilterBar : public QWidget
{
    Q_OBJECT

public:
    explicit CaseFilterBar(QWidget *parent = nullptr);

    /// The filter as shown (the search text trimmed).
    CaseQueueFilter filter() const;
    CaseScope scope() const { return m_filter.scope; }
    CaseSort sort() const { return m_filter.sort; }
    CaseAssignee assignee() const { return m_filter.assignee; }
    QString reason() const { return m_filter.reason; }
    qint64 minAge() const { return m_filter.minAge; }
    qint64 maxAge() const { return m_filter.maxAge; }
    QDate day() const { return m_filter.day; }
    bool dayClosed() const { return m_filter.dayClosed; }
    QLineEdit *searchBox() const { return m_search; }
    /// The boxes' texts as shown ("All cases", "Mine", "Older than 1 day"): the chips' words.
    QString scopeText() const;
    QString assigneeText() const;
    QString ageText() const;

    bool setScope(CaseScope scope);
    bool setSort(CaseSort sort);
    bool setAssignee(CaseAssignee assignee);
    /// The reason (empty: any) and the age bounds (negative: unbounded). `force`: show them
    /// even when they are the ones shown (a drill-down's range joins the age box).
    bool setReasonAndAge(const QString &reason, qint64 minAge, qint64 maxAge, bool force = false);
    /// A UTC day (invalid: any day), of opening or (`closed`) of closing: the day chip.
    bool setDay(const QDate &dayUtc, bool closed);
    /// `scope` in `sort` order, everyone's, no search and no day; the reason and age stay.
    void reset(CaseScope scope, CaseSort sort);
    /// Any reason, any age.
    void clearReasonAndAge();
    /// Whether the filter lists fewer than its scope's cases (a reason, an age, a day, a
    /// search, whose).
    bool isNarrowed() const;
    /// The open cases' reasons with their counts, as the reason box lists them.
    void setReasonCounts(const QVector<QPair<QString, qint64>> &reasons);
    /// The "Mark older than" box shows `secs`.
    void showMarkAfter(qint64 secs);

signals:
    void scopeChosen(rd::ui::CaseScope scope);
    void sortChosen(rd::ui::CaseSort sort);
    void assigneeChosen(rd::ui::CaseAssignee assignee);
    void reasonAndAgeChosen(const QString &reason, qint64 minAge, qint64 maxAge);
    /// The day chip was clicked: every day again.
    void dayCleared();
    void markAfterChosen(qint64 secs);
    /// The search text changed (a pause after the last key).
    void searchEdited();
    /// Return in the search box: list the matches and open the first.
    void searchSubmitted();

private:
    void syncAgeBox();

    CaseQueueFilter m_filter; ///< all but the search, which is the box's text
    QVector<QPair<QString, qint64>> m_reasonCounts; ///< as the reason box lists them
    QComboBox *m_scopeBox;
    QComboBox *m_sortBox;
    QLineEdit *m_search;
    QTimer *m_searchDelay;
    QComboBox *m_assigneeBox;
    QComboBox *m_reasonBox;
    QComboBox *m_ageBox;
    QToolButton *m_dayChip;
    QComboBox *m_markAfter;
};

} // namespace rd::ui
