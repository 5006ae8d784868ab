#pragma once

#include "ui/models/inboxdelivery.h"

#include <QByteArray>
#include <QVariant>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSplitter;
class QTabWidget;

namespace rd::ui {

/// The opened delivery: what arrived and when, its outcome and error in full, the raw body
/// (pretty-printed JSON, else a hex dump) and the normalized event, and links to its case and
/// its subscription's billing period.
class DeliveryView : public QWidget
{
    Q_OBJECT

public:
    explicit DeliveryView(QWidget *parent = nullptr);

    void showLoading(qint64 id);
    void setDelivery(const InboxDelivery &delivery);
    const InboxDelivery &delivery() const { return m_delivery; }

    QString titleText() const;
    /// The provider's event id, when it arrived and how often, the body's size and digest.
    QString factsText() const;
    QString outcomeText() const;
    QString errorText() const;
    QString bodyText() const;
    /// What is said above the body: its form, its truncation, or that the role may not read it.
    QString bodyNoteText() const;
    bool canSaveBody() const;
    QString normalizedText() const;
    /// A cut or broken body's readable start, shown as text beside the hex ("" when none).
    QString readableText() const;
    bool isReadableTextShown() const;
    /// An invalid delivery's review: who reviewed it, or that nobody has yet.
    QString reviewText() const;
    QPushButton *openCaseButton() const { return m_openCase; }
    QPushButton *openSubscriptionButton() const { return m_openSubscription; }
    QPushButton *markReviewedButton() const { return m_markReviewed; }
    QPushButton *rerunButton() const { return m_rerun; }
    /// Whether this connection may act on deliveries (an operator on the primary), and why
    /// not, for the buttons' tooltips.
    void setActionsAllowed(bool allowed, const QString &whyNot = {});

signals:
    /// "Mark reviewed…" and "Re-run" on an invalid delivery.
    void markReviewedRequested(qint64 inboxId);
    void rerunRequested(qint64 inboxId);
    void backRequested();
    void caseOpenRequested(qint64 caseId);
    void subscriptionOpenRequested(const QString &subscriptionUuid);
    void statusMessage(const QString &message);

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void saveBody();
    void showReview(const InboxDelivery &d);

    InboxDelivery m_delivery;
    QPushButton *m_back;
    QLabel *m_title;
    QLabel *m_facts;
    QLabel *m_outcome;
    QLabel *m_error;
    QPushButton *m_openCase;
    QPushButton *m_openSubscription;
    QPushButton *m_save;
    QTabWidget *m_tabs;
    QLabel *m_bodyNote;
    QPlainTextEdit *m_body;
    QPlainTextEdit *m_bodyText;
    QSplitter *m_bodySplit;
    QPlainTextEdit *m_normalized;
    QLabel *m_review;
    QPushButton *m_markReviewed;
    QPushButton *m_rerun;
    bool m_actionsAllowed = true;
    QString m_actionsBlocked;
};

} // namespace rd::ui
