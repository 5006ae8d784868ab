#pragma once

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace rd::ui {

/// Asks for the note that marks an invalid delivery reviewed: why nothing more is to be done
/// (a test payload, a provider's bug reported to them, ...). "Mark reviewed" stays disabled,
/// with the reason beside it, until the note has something to read; Ctrl+Return accepts and
/// Tab leaves the text box.
class ReviewDeliveryDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ReviewDeliveryDialog(qint64 inboxId, QWidget *parent = nullptr);
    QString note() const;
    QPlainTextEdit *noteBox() const { return m_note; }
    QPushButton *actionButton() const { return m_action; }
    /// Why the action button is disabled; empty when it is enabled.
    QString blockedBecause() const;

private:
    void validate();

    QPlainTextEdit *m_note;
    QLabel *m_blocked;
    QPushButton *m_action;
};

} // namespace rd::ui
