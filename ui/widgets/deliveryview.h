#pragma once

#include "ui/models/inboxdelivery.h"

#include <QByteArray>
#include <QVariant>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
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
    QPushButton *openCaseButton() const { return m_openCase; }
    QPushButton *openSubscriptionButton() const { return m_openSubscription; }

signals:
    void backRequested();
    void caseOpenRequested(qint64 caseId);
    void subscriptionOpenRequested(const QString &subscriptionUuid);
    void statusMessage(const QString &message);

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void saveBody();

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
    QPlainTextEdit *m_normalized;
};

} // namespace rd::ui
