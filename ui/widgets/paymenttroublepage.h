#pragma once

#include "ui/models/accesstrouble.h"
#include "ui/models/asyncresult.h"
#include "ui/widgets/searchablepage.h"

#include <QDateTime>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTimer;

namespace rd::ui {

class DatabasePool;
class RecordTableModel;
class TableView;

/// Payment trouble (#41): the subscriptions in grace (with the time left) and blocked, as
/// access_trouble() works them out now, or the ones that recovered this month; by provider,
/// by verdict, by subscription id. Enter or "Open subscription" opens the subscription (its
/// timeline and audit trail); "Extend grace…" lets an operator keep a subscription's access
/// until a day, with a note (extend_access). The list is read on the pool and again every
/// kPollInterval while shown (the time left moves by itself).
class PaymentTroublePage : public QWidget, public SearchablePage
{
    Q_OBJECT

public:
    /// A row's fields (accesstrouble.h): PaymentTroublePage::Verdict, ...
    using Field = access::FieldIndex;
    using enum access::FieldIndex;

    explicit PaymentTroublePage(DatabasePool *pool, QWidget *parent = nullptr);

    RecordTableModel *model() const { return m_model; }
    TableView *table() const { return m_table; }
    bool isLoaded() const { return m_loaded; }
    void refresh();
    /// Which subscriptions the list shows.
    void setShow(access::Show show);
    access::Show show() const;
    /// Only `provider`'s subscriptions (empty: every provider's).
    void setProvider(const QString &provider);
    void focusSearch() override;
    QLineEdit *searchBox() const { return m_search; }
    /// The selected row's subscription (the desk's uuid); empty when none is.
    QString currentSubscriptionId() const;
    /// Selects the row of subscription `id` (the desk's uuid) when the list has it.
    bool selectSubscription(const QString &id);
    /// Whether the person may extend a grace (a renewal_operator on the primary); `whyNot` is
    /// the disabled button's tooltip.
    void setActionsAllowed(bool allowed, const QString &whyNot);
    QPushButton *extendButton() const { return m_extend; }
    QPushButton *openButton() const { return m_open; }
    /// Extends the grace of the selected subscription until the end of `lastDayUtc` with `note`,
    /// without the dialog (what the dialog runs once accepted).
    void extendGrace(const QDate &lastDayUtc, const QString &note);
    /// Opens the Extend grace dialog for the selected subscription.
    void askExtendGrace();
    QLabel *summary() const { return m_summary; }

    static constexpr int kPollInterval = 30000;

signals:
    void statusMessage(const QString &message);
    void subscriptionOpenRequested(const QString &id);
    /// The list was read (after a refresh, a filter, an action).
    void loaded();
    /// An extension ran: `succeeded`, and the sentence the person read.
    void actionFinished(bool succeeded, const QString &summary);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void reload();
    void showList(const access::TroubleList &list);
    void updateButtons();
    void openCurrent();

    DatabasePool *m_pool;
    QComboBox *m_show;
    QComboBox *m_provider;
    QLineEdit *m_search;
    QLabel *m_summary;
    QPushButton *m_open;
    QPushButton *m_extend;
    TableView *m_table;
    RecordTableModel *m_model;
    QTimer *m_poll;
    QTimer *m_searchDelay;
    QDateTime m_readAt;
    bool m_loaded = false;
    bool m_actionsAllowed = false;
    bool m_running = false;
    QString m_whyNot;
    LatestRequest m_request;
};

} // namespace rd::ui
