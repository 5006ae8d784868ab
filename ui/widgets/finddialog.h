#pragma once

#include "ui/models/asyncresult.h"
#include "ui/models/finder.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QListWidget;
class QTimer;

namespace rd::ui {

class DatabasePool;

/// Find anything (Ctrl+K): one box that takes whatever id a customer or a provider gives — a
/// subscription (the provider's id or ours), an invoice, transaction or renewal key, a provider
/// event id, a case number ("42", "case 42", "#42") or an inbox delivery — and lists what has
/// it, each line saying what it is. Return opens the first match (the only one, usually);
/// Up/Down and Return, or a click, another. The lookup runs on the pool while typing.
class FindDialog : public QDialog
{
    Q_OBJECT

public:
    explicit FindDialog(DatabasePool *pool, QWidget *parent = nullptr);

    QLineEdit *input() const { return m_input; }
    QListWidget *results() const { return m_results; }
    /// The sentence under the box: "2 matches", "Nothing has the id …", what was wrong.
    QString messageText() const;
    /// What the list shows (for the text typed last), once its lookup landed.
    const QVector<FoundItem> &matches() const { return m_matches; }
    /// Whether the lookup of the text shown has landed.
    bool isSettled() const { return m_settled; }
    /// Looks up what is typed now (typing does so after a short pause).
    void lookUp();

signals:
    /// The person chose `item`; the dialog hides itself.
    void chosen(const rd::ui::FoundItem &item);

protected:
    void showEvent(QShowEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void choose(int row);
    void showMatches(const QString &text, const QVector<FoundItem> &matches);

    DatabasePool *m_pool;
    QLineEdit *m_input;
    QListWidget *m_results;
    QLabel *m_message;
    QTimer *m_delay;
    QVector<FoundItem> m_matches;
    QString m_lookedUp; ///< the text m_matches are for
    bool m_settled = true;
    bool m_openWhenSettled = false; ///< Return came before the lookup landed
    LatestRequest m_request;
};

} // namespace rd::ui
