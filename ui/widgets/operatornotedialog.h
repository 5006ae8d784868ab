#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace rd::ui {

/// Asks for the operator's note before a case action: a reason from the standard list and a
/// comment. When the action needs a comment (dismissing), the action button stays disabled,
/// with the reason next to it, until one is written: the database's refusal (note_required)
/// never has to come after the dialog closed.
class OperatorNoteDialog : public QDialog
{
    Q_OBJECT

public:
    OperatorNoteDialog(
        const QString &actionName, qint64 caseId, bool commentRequired, QWidget *parent = nullptr);

    QString reason() const;
    QString comment() const;
    QPushButton *actionButton() const { return m_action; }
    /// Why the action button is disabled; empty when it is enabled.
    QString blockedBecause() const;

private:
    void validate();

    bool m_commentRequired;
    QComboBox *m_reason;
    QPlainTextEdit *m_comment;
    QLabel *m_blocked;
    QPushButton *m_action;
};

} // namespace rd::ui
