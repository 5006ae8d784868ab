#include "ui/widgets/outboxpage.h"

#include "ui/models/asyncresult.h"
#include "ui/models/columns.h"
#include "ui/models/databasepool.h"
#include "ui/models/outboxlist.h"
#include "ui/models/outboxpublisher.h"
#include "ui/models/pagedtablemodel.h"
#include "ui/widgets/tableview.h"

#include <QBrush>
#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::OutboxPage)
};

} // namespace
namespace {

using O = OutboxPage;

Column outboxState()
{
    return {Tr::tr("State"), [](RowRef r, int role) -> QVariant {
                const bool published = !r[O::PublishedAt].isNull();
                const bool failed = !published && !r[O::LastError].toString().isEmpty();
                if (role == Qt::DisplayRole || role == int(Role::Raw))
                    return published ? Tr::tr("published")
                                     : (failed ? Tr::tr("failed") : Tr::tr("pending"));
                if (role == Qt::ForegroundRole && failed)
                    return QBrush(QColor(0xb0, 0x20, 0x20));
                return {};
            }};
}

} // namespace

OutboxPage::OutboxPage(DatabasePool *pool, QWidget *parent)
    : QWidget(parent)
    , m_pool(pool)
    , m_state(new QComboBox)
    , m_summary(new QLabel)
    , m_table(new TableView)
    , m_poll(new QTimer(this))
{
    m_model = new PagedTableModel(pool, outbox::fields(),
        {outboxState(), columns::text(tr("Provider"), Provider),
            columns::text(tr("Subscription"), SubscriptionRef),
            columns::code(tr("Intent"), EventType), columns::text(tr("Renewal key"), RenewalKey),
            columns::count(tr("Attempts"), Attempts), columns::instant(tr("Created"), CreatedAt),
            columns::instant(tr("Next attempt"), NextAttemptAt),
            columns::instant(tr("Published"), PublishedAt),
            columns::text(tr("Last error"), LastError)},
        Id, this);
    m_state->addItem(tr("Not yet delivered (pending, failed)"), u"undelivered"_qs);
    m_state->addItem(tr("Failed, retrying"), u"failed"_qs);
    m_state->addItem(tr("All intents"), u"all"_qs);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_state);
    bar->addWidget(m_summary, 1);
    m_summary->setObjectName(u"outbox-summary"_qs);
    // Wraps rather than widening the window past 1024 px (German's longer words did).
    m_summary->setWordWrap(true);
    m_table->setObjectName(u"outbox"_qs);
    m_table->setModel(m_model);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_table);
    connect(m_state, &QComboBox::currentIndexChanged, this, &OutboxPage::reload);
    connect(m_model, &PagedTableModel::loadFailed, this, &OutboxPage::statusMessage);
    m_poll->setInterval(kPollInterval);
    connect(m_poll, &QTimer::timeout, this, &OutboxPage::poll);
    reload();
}

void OutboxPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_poll->isActive()) {
        m_poll->start();
        poll(); // what changed while it was hidden shows at once
    }
}

void OutboxPage::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_poll->stop();
}

void OutboxPage::reload()
{
    const QString state = m_state->currentData().toString();
    m_model->setFetcher(outbox::fetcher(state == u"all"
            ? outbox::Show::All
            : (state == u"failed" ? outbox::Show::Failed : outbox::Show::Undelivered)));
    refresh();
}

void OutboxPage::setFilter(const QString &state)
{
    if (const int i = m_state->findData(state); i >= 0)
        m_state->setCurrentIndex(i);
}

void OutboxPage::refresh()
{
    m_model->refresh();
    m_shownState.clear();
    poll();
}

void OutboxPage::poll()
{
    deliverResult(
        this, m_pool->call(&outbox::loadState),
        [this](const QVariantList &state) {
            if (state.isEmpty())
                return;
            // The rows only when the outbox changed; the words every time ("for 12 min").
            const bool changed
                = !m_shownState.isEmpty() && state.mid(0, 4) != m_shownState.mid(0, 4);
            showState(state);
            if (changed)
                m_model->refresh();
        },
        [this](const QString &message) { emit statusMessage(message); }, m_summaryRequest.next());
}

void OutboxPage::showState(const QVariantList &state)
{
    m_shownState = state;
    const qint64 failed = state.value(1).toLongLong();
    const QString failedText = tr("%1 failed and retrying").arg(failed);
    const qint64 undelivered = state.value(0).toLongLong() + failed;
    const OutboxPublisherState publisher = outboxPublisherState(
        state.value(4).toLongLong(), state.value(5).toDateTime(), state.value(6).toDateTime());
    // A pending count that grows with nobody publishing is what a person has to act on.
    const QString publisherText = publisher.text.toHtmlEscaped();
    m_summary->setText(tr("%1 pending").arg(state.value(0).toLongLong()) + u" · "_qs
        + (failed > 0 ? u"<b style='color:#b02020'>"_qs + failedText + u"</b>"_qs : failedText)
        + u" · "_qs
        + (publisher.stalled && undelivered > 0
                ? u"<b style='color:#8a5a00'>"_qs + publisherText + u"</b>"_qs
                : (publisher.stalled
                        ? publisherText
                        : u"<span style='color:#1b6e20'>"_qs + publisherText + u"</span>"_qs)));
    m_summary->setToolTip(publisher.toolTip);
    m_summary->setTextFormat(Qt::RichText);
}

} // namespace rd::ui
