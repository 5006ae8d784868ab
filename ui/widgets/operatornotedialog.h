#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace rd::ui {

/// Asks for the operator's note before a case action: a reason from the standard list and a
/// comment. No reason is chosen in advance: a default ends up in the audit trail unread (a
/// bulk dismissal of test data was recorded as provider_confirmed), so the action button stays
/// disabled until one is picked. When the action needs a comment (dismissing), the action button
/// stays disabled, with the reason next to it, until one is written: the database's refusal
/// (note_required) never has to come after the dialog closed.
class OperatorNoteDialog : public QDialog
{
    Q_OBJECT

public:
    OperatorNoteDialog(
        const QString &actionName, qint64 caseId, bool commentRequired, QWidget *parent = nullptr);

    /// The reason code picked; empty until one is.
    QString reason() const;
    /// Picks `code` (one of caseActionReasonCodes()), as a person would.
    void setReason(const QString &code);
    QString comment() const;
    /// The cases the action will run on, one line each ("case 12 · stripe-main/sub_1 ·
    /// Renewal period is not contiguous"), listed above the note under `title` ("Dismissing
    /// closes these 3 cases:"); the action button says the count too ("Dismiss 3 cases").
    void setCases(const QString &title, const QStringList &lines);
    /// The cases listed (setCases), as shown.
    QStringList listedCases() const;
    QPushButton *actionButton() const { return m_action; }
    /// Why the action button is disabled; empty when it is enabled.
    QString blockedBecause() const;

private:
    void validate();

    bool m_commentRequired;
    QComboBox *m_reason;
    QPlainTextEdit *m_comment;
    QLabel *m_blocked;
    QLabel *m_casesTitle;
    QListWidget *m_cases;
    QPushButton *m_action;
    QString m_actionName;
};

} // namespace rd::ui
