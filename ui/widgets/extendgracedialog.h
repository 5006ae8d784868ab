#pragma once

#include <QDate>
#include <QDialog>

class QDateEdit;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace rd::ui {

/// Asks an operator for the last day of a subscription's grace and the note that says why
/// (#41): the day defaults to today + 7 (UTC) and may be at most kMaxGraceDaysAhead days ahead;
/// "Extend grace" stays disabled, with the reason beside it, until the note has something to
/// read. Ctrl+Return accepts and Tab leaves the text box.
class ExtendGraceDialog : public QDialog
{
    Q_OBJECT

public:
    /// `subject` names the subscription ("stripe-main/sub_1Qx…"); `verdict` is how it stands
    /// now, in words ("blocked since 8 Jan 2027 (local policy)"); `todayUtc` the database's day.
    ExtendGraceDialog(const QString &subject, const QString &verdict, const QDate &todayUtc,
        QWidget *parent = nullptr);

    QDate lastDay() const;
    void setLastDay(const QDate &day);
    QString note() const;
    QPlainTextEdit *noteBox() const { return m_note; }
    QDateEdit *dayBox() const { return m_day; }
    QPushButton *actionButton() const { return m_action; }
    /// Why the action button is disabled; empty when it is enabled.
    QString blockedBecause() const;

private:
    void validate();

    QDateEdit *m_day;
    QLabel *m_dayNote;
    QPlainTextEdit *m_note;
    QLabel *m_blocked;
    QPushButton *m_action;
};

} // namespace rd::ui
