#include "ui/widgets/deliveryview.h"

#include "ui/models/columns.h"
#include "ui/models/format.h"

#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace rd::ui {

namespace {

QString when(const QVariant &micros)
{
    return format::localDateTime(columns::fromMicros(micros));
}

/// The colour an outcome is shown in: problems red, a snapshot to attach amber.
QString outcomeColor(const QString &outcome)
{
    if (outcome == u"rejected" || outcome == u"invalid")
        return u"#b02020"_qs;
    if (outcome == u"needs_snapshot" || outcome.isEmpty())
        return u"#8a5a00"_qs;
    return u"#1b6e20"_qs;
}

QPlainTextEdit *codeBox(const QString &name)
{
    auto *box = new QPlainTextEdit;
    box->setObjectName(name);
    box->setReadOnly(true);
    box->setLineWrapMode(QPlainTextEdit::NoWrap); // JSON and hex read by their columns
    box->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return box;
}

} // namespace

DeliveryView::DeliveryView(QWidget *parent)
    : QWidget(parent)
    , m_back(new QPushButton(tr("← Back to the inbox")))
    , m_title(new QLabel)
    , m_facts(new QLabel)
    , m_outcome(new QLabel)
    , m_error(new QLabel)
    , m_openCase(new QPushButton(tr("Open case")))
    , m_openSubscription(new QPushButton(tr("Open subscription")))
    , m_save(new QPushButton(tr("Save body…")))
    , m_tabs(new QTabWidget)
    , m_bodyNote(new QLabel)
    , m_body(codeBox(u"delivery-body"_qs))
    , m_bodyText(codeBox(u"delivery-body-text"_qs))
    , m_bodySplit(new QSplitter(Qt::Horizontal))
    , m_normalized(codeBox(u"delivery-normalized"_qs))
    , m_review(new QLabel)
    , m_markReviewed(new QPushButton(tr("Mark reviewed…")))
    , m_rerun(new QPushButton(tr("Re-run")))
{
    setObjectName(u"delivery-view"_qs);
    m_back->setObjectName(u"delivery-back"_qs);
    m_back->setToolTip(tr("Back to the list (Esc)"));
    m_title->setObjectName(u"delivery-title"_qs);
    m_title->setTextFormat(Qt::RichText);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_facts->setObjectName(u"delivery-facts"_qs);
    m_facts->setWordWrap(true);
    m_facts->setTextFormat(Qt::PlainText);
    m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_outcome->setObjectName(u"delivery-outcome"_qs);
    m_outcome->setTextFormat(Qt::RichText);
    m_outcome->setWordWrap(true);
    m_outcome->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The error in full, selectable for a ticket.
    m_error->setObjectName(u"delivery-error"_qs);
    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(u"color:#b02020"_qs);
    m_openCase->setObjectName(u"delivery-open-case"_qs);
    m_openSubscription->setObjectName(u"delivery-open-subscription"_qs);
    m_save->setObjectName(u"delivery-save-body"_qs);
    m_save->setToolTip(tr("Writes the body byte for byte, as stored, to a file."));
    m_bodyNote->setObjectName(u"delivery-body-note"_qs);
    m_bodyNote->setWordWrap(true);
    // The readable start of a cut or broken body wraps: it is read, not lined up.
    m_bodyText->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_bodyText->setToolTip(tr("The body's start as text, up to its first byte that is not "
                              "valid UTF-8 text"));
    m_review->setObjectName(u"delivery-review"_qs);
    m_review->setWordWrap(true);
    m_review->setTextFormat(Qt::PlainText);
    m_review->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_markReviewed->setObjectName(u"delivery-mark-reviewed"_qs);
    m_rerun->setObjectName(u"delivery-rerun"_qs);

    auto *top = new QHBoxLayout;
    top->addWidget(m_back);
    top->addWidget(m_title, 1);
    auto *links = new QHBoxLayout;
    links->addWidget(m_openCase);
    links->addWidget(m_openSubscription);
    links->addStretch(1);
    links->addWidget(m_save);
    auto *review = new QHBoxLayout;
    review->addWidget(m_review, 1);
    review->addWidget(m_markReviewed);
    review->addWidget(m_rerun);

    auto *bodyPage = new QWidget;
    auto *bodyLayout = new QVBoxLayout(bodyPage);
    bodyLayout->setContentsMargins(0, 4, 0, 0);
    bodyLayout->addWidget(m_bodyNote);
    m_bodySplit->setObjectName(u"delivery-body-split"_qs);
    m_bodySplit->addWidget(m_body);
    m_bodySplit->addWidget(m_bodyText);
    m_bodySplit->setStretchFactor(0, 3);
    m_bodySplit->setStretchFactor(1, 2);
    m_bodySplit->setChildrenCollapsible(false);
    bodyLayout->addWidget(m_bodySplit, 1);
    m_tabs->setObjectName(u"delivery-tabs"_qs);
    m_tabs->addTab(bodyPage, tr("Body"));
    m_tabs->addTab(m_normalized, tr("Normalized event"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_facts);
    layout->addWidget(m_outcome);
    layout->addWidget(m_error);
    layout->addLayout(links);
    layout->addLayout(review);
    layout->addWidget(m_tabs, 1);

    connect(m_back, &QPushButton::clicked, this, &DeliveryView::backRequested);
    connect(m_openCase, &QPushButton::clicked, this, [this] {
        if (m_delivery.caseId != 0)
            emit caseOpenRequested(m_delivery.caseId);
    });
    connect(m_openSubscription, &QPushButton::clicked, this, [this] {
        if (!m_delivery.subscriptionUuid.isEmpty())
            emit subscriptionOpenRequested(m_delivery.subscriptionUuid);
    });
    connect(m_save, &QPushButton::clicked, this, &DeliveryView::saveBody);
    connect(m_markReviewed, &QPushButton::clicked, this,
        [this] { emit markReviewedRequested(m_delivery.id); });
    connect(m_rerun, &QPushButton::clicked, this, [this] { emit rerunRequested(m_delivery.id); });
    setDelivery({});
}

void DeliveryView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        emit backRequested();
        return;
    }
    QWidget::keyPressEvent(event);
}

void DeliveryView::showLoading(qint64 id)
{
    InboxDelivery loading;
    loading.id = id;
    setDelivery(loading);
    m_title->setText(u"<b style='font-size:large'>"_qs + tr("Delivery %1").arg(id)
        + u"</b> &nbsp;·&nbsp; "_qs + tr("loading…"));
}

void DeliveryView::setDelivery(const InboxDelivery &d)
{
    m_delivery = d;
    if (!d.found) {
        m_title->setText(d.id == 0 ? QString()
                                   : u"<b style='font-size:large'>"_qs + tr("Delivery %1").arg(d.id)
                    + u"</b> &nbsp;·&nbsp; "_qs + tr("not in the inbox"));
        m_facts->clear();
        m_outcome->clear();
        m_error->clear();
        m_error->hide();
        m_bodyNote->clear();
        m_body->clear();
        m_bodyText->clear();
        m_bodyText->hide();
        m_normalized->clear();
        showReview(d);
        m_openCase->setEnabled(false);
        m_openSubscription->setEnabled(false);
        m_save->setEnabled(false);
        return;
    }
    const QString sep = u" &nbsp;·&nbsp; "_qs;
    m_title->setText(u"<b style='font-size:large'>"_qs + tr("Delivery %1").arg(d.id) + u"</b>"_qs
        + sep
        + (d.providerName == d.provider
                ? d.provider.toHtmlEscaped()
                : d.providerName.toHtmlEscaped() + sep + d.provider.toHtmlEscaped()));

    QStringList facts;
    facts << tr("Provider event %1").arg(d.eventId);
    facts << tr("received %1").arg(when(d.receivedAt));
    if (d.deliveries > 1)
        facts << tr("delivered %1 times, last %2").arg(d.deliveries).arg(when(d.lastDeliveryAt));
    else
        facts << tr("delivered once");
    facts << (d.processedAt.isNull() ? tr("not processed yet")
                                     : tr("processed %1").arg(when(d.processedAt)));
    facts << tr("body %1, SHA-256 %2").arg(QLocale().formattedDataSize(d.bodySize), d.bodySha256);
    m_facts->setText(facts.join(u" · "_qs));
    m_facts->setToolTip(format::utcTooltip(columns::fromMicros(d.receivedAt)));

    QString outcome = u"<b style='color:%1'>"_qs.arg(outcomeColor(d.outcome))
        + (d.outcome.isEmpty() ? tr("Not processed yet") : format::humanize(d.outcome))
        + u"</b>"_qs;
    if (!d.reason.isEmpty())
        outcome += sep + tr("reason: %1").arg(format::humanize(d.reason).toHtmlEscaped());
    // The adapter's sentence, unless it is the error shown in full below.
    if (!d.message.isEmpty() && d.message != d.error)
        outcome += sep + d.message.toHtmlEscaped();
    m_outcome->setText(outcome);
    // A core error code reads as words, the code kept; an adapter's message as it is.
    m_error->setText(d.error.isEmpty() ? QString()
            : d.error.contains(u' ')
            ? tr("Error: %1").arg(d.error)
            : tr("Error: %1 (%2)").arg(format::humanize(d.error), d.error));
    m_error->setVisible(!d.error.isEmpty());

    m_openCase->setEnabled(d.caseId != 0);
    if (d.caseId != 0) {
        m_openCase->setText(tr("Open case %1 (%2)").arg(d.caseId).arg(d.caseStatus));
        m_openCase->setToolTip(format::humanize(d.caseCode));
    } else {
        m_openCase->setText(tr("Open case"));
        m_openCase->setToolTip(tr("This delivery opened no reconciliation case."));
    }
    m_openSubscription->setEnabled(!d.subscriptionUuid.isEmpty());
    if (!d.subscriptionUuid.isEmpty()) {
        QString text = tr("Open subscription %1").arg(d.subscriptionRef);
        if (!d.billingPeriodId.isEmpty()) {
            text += u" · "_qs
                + tr("billing period %1")
                      .arg(format::period(
                          columns::fromMicros(d.periodStart), columns::fromMicros(d.periodEnd)));
            if (!d.paidMinor.isNull())
                text += u", "_qs + format::money(d.paidMinor.toLongLong(), d.currency);
        }
        m_openSubscription->setText(text);
        m_openSubscription->setToolTip(d.billingPeriodId.isEmpty()
                ? tr("This delivery recorded no billing period; it names this subscription.")
                : tr("Billing period %1 recorded by this delivery.").arg(d.billingPeriodId));
    } else {
        m_openSubscription->setText(tr("Open subscription"));
        m_openSubscription->setToolTip(d.subscriptionRef.isEmpty()
                ? tr("The payload names no subscription.")
                : tr("The provider's subscription %1 is not in the desk.").arg(d.subscriptionRef));
    }
    m_save->setEnabled(!d.rawBody.isEmpty());
    showReview(d);
    m_bodyText->clear();
    m_bodyText->hide();

    QString note;
    if (d.bodyRemoved) {
        // Removed for everyone, viewers included: when and why is no personal data.
        m_tabs->setTabText(0, tr("Body (removed)"));
        m_bodyNote->setText(removedBodyNote(d));
        m_body->setPlainText(
            tr("The provider's payload is no longer kept: it held customers' personal data.\n\n"
               "Size:     %1\nSHA-256:  %2\n\n"
               "What the desk needs stays: the event id, the outcome, the case link and the "
               "normalized event (next tab).")
                .arg(QLocale().formattedDataSize(d.bodySize), d.bodySha256));
        m_normalized->setPlainText(d.normalizedPretty);
        return;
    }
    if (d.bodyHidden) {
        m_tabs->setTabText(0, tr("Body (hidden)"));
        m_bodyNote->setText(tr("Body hidden for your role: it holds customers' personal data."));
        m_body->setPlainText(tr("The provider's payload is not shown to your database role.\n\n"
                                "Size:     %1\nSHA-256:  %2\n\n"
                                "Reading raw bodies needs renewal_payload_reader (operators "
                                "have it).\nAsk an administrator if your work needs it.")
                                 .arg(QLocale().formattedDataSize(d.bodySize), d.bodySha256));
        m_normalized->setPlainText(d.normalizedPretty);
        return;
    }
    switch (d.body.kind) {
    case BodyDisplay::Kind::Json:
        note = tr("JSON, re-indented for reading (values exactly as sent).");
        m_tabs->setTabText(0, tr("Body (JSON)"));
        break;
    case BodyDisplay::Kind::Hex:
        note = tr("Not JSON: shown byte for byte in hexadecimal.");
        if (d.body.shownBytes < d.rawBody.size())
            note += u' '
                + tr("The first %1 of %2 are shown; Save body… writes all of it.")
                      .arg(QLocale().formattedDataSize(d.body.shownBytes),
                          QLocale().formattedDataSize(d.rawBody.size()));
        m_tabs->setTabText(0, tr("Body (hex)"));
        if (d.body.readableBytes > 0) {
            // A body cut in transit or broken by a byte: read it up to there.
            m_bodyText->setPlainText(d.body.readableText);
            m_bodyText->show();
            // Hidden until now, the splitter gave it no width: the dump gets its lines
            // whole (79 columns) when there is room, the text the rest.
            if (m_bodySplit->sizes().value(1) == 0) {
                const int total = std::max(m_bodySplit->width(), 600);
                const int dump = m_body->fontMetrics().horizontalAdvance(QString(80, u'0'))
                    + m_body->verticalScrollBar()->sizeHint().width() + 12;
                const int left = std::clamp(dump, total / 3, total - 220);
                m_bodySplit->setSizes({left, total - left});
            }
            note += u' '
                + (d.body.readableBytes == d.body.shownBytes
                        ? tr("It is all text: shown as text on the right.")
                        : tr("Its first %1 bytes are text, shown on the right; byte %2 is where "
                             "it stops being readable.")
                              .arg(d.body.readableBytes)
                              .arg(d.body.readableBytes));
        }
        break;
    case BodyDisplay::Kind::Empty:
        note = tr("The body is empty.");
        m_tabs->setTabText(0, tr("Body"));
        break;
    }
    if (d.bodyTruncated)
        note += u' '
            + tr("The inbox kept the first %1 of a %2 body (its SHA-256 is of all of it).")
                  .arg(QLocale().formattedDataSize(d.rawBody.size()),
                      QLocale().formattedDataSize(d.bodySize));
    m_bodyNote->setText(note);
    m_body->setPlainText(d.body.text);
    m_normalized->setPlainText(d.normalizedPretty.isEmpty()
            ? tr("(no normalized event: the delivery is not processed yet)")
            : d.normalizedPretty);
}

void DeliveryView::setActionsAllowed(bool allowed, const QString &whyNot)
{
    m_actionsAllowed = allowed;
    m_actionsBlocked = whyNot;
    showReview(m_delivery);
}

void DeliveryView::showReview(const InboxDelivery &d)
{
    const bool invalid = d.found && d.outcome == u"invalid";
    m_review->setVisible(invalid);
    m_markReviewed->setVisible(invalid);
    m_rerun->setVisible(invalid);
    if (!invalid)
        return;
    const bool reviewed = !d.reviewedBy.isEmpty();
    if (reviewed) {
        QString text
            = tr("Reviewed by %1, %2: %3").arg(d.reviewedBy, when(d.reviewedAt), d.reviewNote);
        if (d.rerunInboxId != 0)
            text += u" "_qs + tr("(its re-run is delivery %1)").arg(d.rerunInboxId);
        m_review->setText(text);
        m_review->setStyleSheet(u"color:#1b6e20"_qs);
    } else {
        m_review->setText(tr("Not reviewed yet. An invalid delivery opens no case: mark it "
                             "reviewed with a note, or re-run it after an adapter fix."));
        m_review->setStyleSheet(u"color:#8a5a00"_qs);
    }
    const bool may = m_actionsAllowed && !reviewed;
    m_markReviewed->setEnabled(may);
    m_rerun->setEnabled(may && !d.bodyHidden && !d.bodyTruncated && !d.bodyRemoved);
    if (!m_actionsAllowed) {
        m_markReviewed->setToolTip(m_actionsBlocked);
        m_rerun->setToolTip(m_actionsBlocked);
    } else if (reviewed) {
        m_markReviewed->setToolTip(tr("Already reviewed"));
        m_rerun->setToolTip(tr("Already reviewed"));
    } else {
        m_markReviewed->setToolTip(tr("Record, with a note, that nothing more is to be done "
                                      "about this delivery"));
        m_rerun->setToolTip(d.bodyRemoved ? tr("The body was removed: there is nothing to re-run")
                : d.bodyHidden            ? tr("Your role may not read bodies: a re-run needs it")
                : d.bodyTruncated
                ? tr("The inbox kept only the start of this body: it cannot be re-run")
                : tr("Run the stored body through this build's adapter and the ingest path "
                     "again, as renewalctl replay --delivery %1 does (after an adapter fix)")
                      .arg(d.id));
    }
}

QString DeliveryView::readableText() const
{
    return m_bodyText->toPlainText();
}

bool DeliveryView::isReadableTextShown() const
{
    return !m_bodyText->isHidden();
}

QString DeliveryView::reviewText() const
{
    return m_review->isHidden() ? QString() : m_review->text();
}

QString DeliveryView::titleText() const
{
    return m_title->text();
}

QString DeliveryView::factsText() const
{
    return m_facts->text();
}

QString DeliveryView::outcomeText() const
{
    return m_outcome->text();
}

QString DeliveryView::errorText() const
{
    return m_error->text();
}

QString DeliveryView::bodyText() const
{
    return m_body->toPlainText();
}

QString DeliveryView::bodyNoteText() const
{
    return m_bodyNote->text();
}

bool DeliveryView::canSaveBody() const
{
    return m_save->isEnabled();
}

QString DeliveryView::normalizedText() const
{
    return m_normalized->toPlainText();
}

void DeliveryView::saveBody()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the delivery's body"),
        u"delivery-%1.%2"_qs.arg(m_delivery.id)
            .arg(m_delivery.body.kind == BodyDisplay::Kind::Json ? u"json"_qs : u"bin"_qs));
    if (path.isEmpty())
        return;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(m_delivery.rawBody) != m_delivery.rawBody.size())
        emit statusMessage(tr("Could not write %1: %2").arg(path, f.errorString()));
    else
        emit statusMessage(tr("Wrote the body of delivery %1 to %2").arg(m_delivery.id).arg(path));
}

} // namespace rd::ui
