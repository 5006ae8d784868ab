#include "ui/widgets/inboxpage.h"

#include "ui/actions/inboxactions.h"
#include "ui/models/asyncresult.h"
#include "ui/models/columns.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/inboxlist.h"
#include "ui/models/pagedtablemodel.h"
#include "ui/widgets/deliveryview.h"
#include "ui/widgets/filterchips.h"
#include "ui/widgets/newrowsbar.h"
#include "ui/widgets/reviewdeliverydialog.h"
#include "ui/widgets/tableview.h"

#include <QBrush>
#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::InboxPage)
};

} // namespace
namespace {

using I = InboxPage;

Column outcomeColumn()
{
    return {Tr::tr("Outcome"), [](RowRef r, int role) -> QVariant {
                const QString outcome = r[I::Outcome].toString();
                switch (role) {
                case Qt::DisplayRole:
                    return outcome.isEmpty() ? Tr::tr("Not processed yet")
                                             : format::humanize(outcome);
                case int(Role::Raw):
                    return outcome;
                case Qt::ForegroundRole:
                    if (outcome == u"rejected" || outcome == u"invalid")
                        return QBrush(QColor(0xb0, 0x20, 0x20));
                    if (outcome == u"needs_snapshot" || outcome.isEmpty())
                        return QBrush(QColor(0x8a, 0x5a, 0x00));
                    return {};
                default:
                    return {};
                }
            }};
}

Column caseColumn()
{
    return {Tr::tr("Case"), [](RowRef r, int role) -> QVariant {
                if (r[I::CaseId].isNull())
                    return {};
                if (role == Qt::DisplayRole)
                    return Tr::tr("Case %1").arg(r[I::CaseId].toLongLong());
                if (role == int(Role::Raw))
                    return r[I::CaseId];
                return {};
            }};
}

Column bodySizeColumn()
{
    return {Tr::tr("Body"),
        [](RowRef r, int role) -> QVariant {
            if (role == Qt::DisplayRole)
                return QLocale().formattedDataSize(r[I::BodySize].toLongLong());
            if (role == Qt::ToolTipRole)
                return Tr::tr("%1 bytes").arg(r[I::BodySize].toLongLong());
            if (role == int(Role::Raw))
                return r[I::BodySize];
            return {};
        },
        Qt::AlignRight | Qt::AlignVCenter, {Tr::tr("Body bytes")}};
}

} // namespace

InboxPage::InboxPage(DatabasePool *pool, QWidget *parent)
    : QWidget(parent)
    , m_pool(pool)
    , m_stack(new QStackedWidget)
    , m_provider(new QComboBox)
    , m_outcome(new QComboBox)
    , m_received(new QComboBox)
    , m_search(new QLineEdit)
    , m_hint(new QLabel)
    , m_chips(new FilterChips)
    , m_table(new TableView)
    , m_newRows(new NewRowsBar(m_table))
    , m_delivery(new DeliveryView)
    , m_poll(new QTimer(this))
{
    m_model = new PagedTableModel(pool, inbox::fields(),
        // What became of a delivery first; the long ids last, the provider's event id
        // stretching.
        {columns::instant(tr("Received"), ReceivedAt), columns::text(tr("Provider"), Provider),
            outcomeColumn(), columns::code(tr("Reason"), Reason), caseColumn(),
            columns::word(tr("Error"), Error), columns::text(tr("Subscription"), SubscriptionRef),
            columns::count(tr("Deliveries"), Deliveries), bodySizeColumn(),
            columns::text(tr("Provider event"), EventId)},
        Id, this);

    m_provider->setObjectName(u"inbox-provider"_qs);
    m_provider->addItem(tr("All providers"), QString());
    // Narrow at 1024 px: the open list shows whole names.
    m_provider->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_provider->setMinimumContentsLength(18);
    m_outcome->setObjectName(u"inbox-outcome"_qs);
    m_outcome->addItem(tr("Any outcome"), QString());
    m_outcome->addItem(tr("Problems"), u"problems"_qs);
    m_outcome->setItemData(
        1, tr("Rejected, needs snapshot or invalid: what someone has to look at"), Qt::ToolTipRole);
    for (const char *code : {"applied", "recorded", "duplicate", "not_a_renewal", "needs_snapshot",
             "rejected", "invalid"})
        m_outcome->addItem(format::humanize(QString::fromLatin1(code)), QString::fromLatin1(code));
    m_outcome->addItem(tr("Not processed yet"), u"unprocessed"_qs);
    // Invalid deliveries open no case: this is their queue (migration 0034).
    m_outcome->addItem(tr("Invalid, to review"), u"invalid_to_review"_qs);
    m_outcome->setItemData(m_outcome->count() - 1,
        tr("Invalid deliveries nobody has marked reviewed or re-run"), Qt::ToolTipRole);
    m_received->setObjectName(u"inbox-received"_qs);
    m_received->addItem(tr("Received any time"), QString());
    m_received->addItem(tr("In the last hour"), u"1 hour"_qs);
    m_received->addItem(tr("In the last 24 hours"), u"1 day"_qs);
    m_received->addItem(tr("In the last 7 days"), u"7 days"_qs);
    m_received->addItem(tr("In the last 30 days"), u"30 days"_qs);
    m_search->setObjectName(u"inbox-search"_qs);
    m_search->setPlaceholderText(tr("Event id or delivery number (Ctrl+F)"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(
        m_search->fontMetrics().horizontalAdvance(m_search->placeholderText()) + 40);
    m_hint->setText(tr("Enter opens the selected delivery."));
    m_hint->setStyleSheet(u"color:gray"_qs);
    // Cut rather than widen the window at 1024 px.
    m_hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_provider);
    bar->addWidget(m_outcome);
    bar->addWidget(m_received);
    bar->addWidget(m_search);
    bar->addWidget(m_hint, 1);
    m_table->setObjectName(u"inbox"_qs);
    m_table->setModel(m_model);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);

    auto *list = new QWidget;
    auto *listLayout = new QVBoxLayout(list);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addLayout(bar);
    listLayout->addWidget(m_chips);
    listLayout->addWidget(m_newRows);
    listLayout->addWidget(m_table, 1);
    // Newest first, loaded page by page: arrivals are the rows above the former top row.
    m_newRows->setArrivalsOnTop(true);
    m_stack->addWidget(list);
    m_stack->addWidget(m_delivery);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    for (QComboBox *box : {m_provider, m_outcome, m_received})
        connect(box, &QComboBox::currentIndexChanged, this, &InboxPage::reload);
    m_chips->setFocusFallback(m_table);
    connect(m_chips, &FilterChips::removed, this, &InboxPage::removeFilter);
    connect(m_chips, &FilterChips::clearAllRequested, this, [this] {
        const QSignalBlocker block(m_search);
        m_search->clear();
        setFilters({}, {}, {});
    });
    // Ids are matched whole: a search runs when it is complete (Return, or leaving the box),
    // not at every keystroke; clearing the box shows everything again at once.
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        m_openFirst = true; // the first match opens when its page lands
        reload();
    });
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (text.isEmpty())
            reload();
    });
    connect(m_model, &PagedTableModel::pageLoaded, this, [this](int rows) {
        if (!m_openFirst)
            return;
        m_openFirst = false;
        if (rows > 0) {
            m_table->selectRow(0);
            openDelivery(m_model->index(0, 0).data(int(Role::Key)).toLongLong());
        } else {
            emit statusMessage(
                tr("No delivery has the event id or number %1.").arg(m_search->text().trimmed()));
        }
    });
    connect(m_model, &PagedTableModel::loadFailed, this, &InboxPage::statusMessage);
    connect(m_model, &PagedTableModel::pageLoaded, this, [this] {
        // A reload in place keeps the row index: new deliveries arrive on top, so the
        // selected delivery is selected again where it now is.
        if (m_keepKey.isEmpty())
            return;
        const int r = m_model->rowOfKey(m_keepKey);
        m_keepKey.clear();
        if (r >= 0 && r != m_table->currentIndex().row())
            m_table->selectRow(r);
    });
    connect(m_model, &PagedTableModel::pageLoaded, m_newRows, &NewRowsBar::rowsListed);
    connect(m_newRows, &NewRowsBar::showRequested, this, [this](const QString &key) {
        const int r = m_model->rowOfKey(key);
        m_table->scrollToTop();
        if (r >= 0)
            m_table->selectRow(r);
        m_table->setFocus();
    });
    connect(m_table, &TableView::openRequested, this, [this](const QModelIndex &index) {
        if (!index.isValid() || index.data(int(Role::Placeholder)).toBool())
            return;
        openDelivery(index.data(int(Role::Key)).toLongLong());
    });
    connect(m_delivery, &DeliveryView::backRequested, this, &InboxPage::closeDelivery);
    connect(m_delivery, &DeliveryView::caseOpenRequested, this, &InboxPage::caseOpenRequested);
    connect(m_delivery, &DeliveryView::subscriptionOpenRequested, this,
        &InboxPage::subscriptionOpenRequested);
    connect(m_delivery, &DeliveryView::statusMessage, this, &InboxPage::statusMessage);
    connect(m_delivery, &DeliveryView::markReviewedRequested, this, [this](qint64 id) {
        ReviewDeliveryDialog dialog(id, this);
        if (dialog.exec() == QDialog::Accepted)
            markReviewed(id, dialog.note());
    });
    connect(m_delivery, &DeliveryView::rerunRequested, this, &InboxPage::rerun);
    m_poll->setInterval(kPollInterval);
    connect(m_poll, &QTimer::timeout, this, &InboxPage::poll);
    loadProviders();
    reload();
}

bool InboxPage::isDeliveryOpen() const
{
    return m_stack->currentWidget() == m_delivery;
}

void InboxPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_poll->isActive()) {
        m_poll->start();
        poll(); // what changed while it was hidden shows at once
    }
}

void InboxPage::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_poll->stop();
}

void InboxPage::setFilters(const QString &provider, const QString &outcome, const QString &received)
{
    const QSignalBlocker a(m_provider), b(m_outcome), c(m_received);
    m_provider->setCurrentIndex(std::max(0, m_provider->findData(provider)));
    m_outcome->setCurrentIndex(std::max(0, m_outcome->findData(outcome)));
    m_received->setCurrentIndex(std::max(0, m_received->findData(received)));
    reload();
}

void InboxPage::showDrillDown(const QString &outcome, const QString &received)
{
    m_drilledDown = true;
    const QSignalBlocker block(m_search);
    m_search->clear();
    setFilters({}, outcome, received);
}

void InboxPage::clearDrillDown()
{
    if (!m_drilledDown)
        return;
    m_drilledDown = false;
    const QSignalBlocker block(m_search);
    m_search->clear();
    setFilters({}, {}, {});
}

void InboxPage::updateChips()
{
    QList<FilterChips::Chip> chips;
    if (m_provider->currentIndex() > 0)
        chips.append({u"provider"_qs, tr("Provider: %1").arg(m_provider->currentText())});
    if (m_outcome->currentIndex() > 0)
        chips.append({u"outcome"_qs, tr("Outcome: %1").arg(m_outcome->currentText())});
    if (m_received->currentIndex() > 0)
        chips.append({u"received"_qs, m_received->currentText()});
    if (const QString search = m_search->text().trimmed(); !search.isEmpty())
        chips.append({u"search"_qs, tr("Event id or number: %1").arg(search)});
    m_chips->setChips(chips);
    if (chips.isEmpty())
        m_drilledDown = false;
}

void InboxPage::removeFilter(const QString &key)
{
    // Each box back to its first entry; its signal reads the list again.
    if (key == u"provider")
        m_provider->setCurrentIndex(0);
    else if (key == u"outcome")
        m_outcome->setCurrentIndex(0);
    else if (key == u"received")
        m_received->setCurrentIndex(0);
    else if (key == u"search")
        m_search->clear(); // an empty box lists everything again at once
}

void InboxPage::loadProviders()
{
    deliverResult(
        this, m_pool->call(&inbox::loadProviders),
        [this](const QList<QPair<QString, QString>> &providers) {
            const QString current = m_provider->currentData().toString();
            const QSignalBlocker block(m_provider);
            while (m_provider->count() > 1)
                m_provider->removeItem(1);
            for (const auto &[key, name] : providers)
                m_provider->addItem(key == name ? key : tr("%1 (%2)").arg(name, key), key);
            m_provider->setCurrentIndex(std::max(0, m_provider->findData(current)));
            updateChips(); // the provider's name, now known
        },
        [this](const QString &message) { emit statusMessage(message); }, m_providerRequest.next());
}

void InboxPage::reload()
{
    m_newRows->reset(); // another list: its rows are no arrivals
    inbox::Filter filter;
    filter.provider = m_provider->currentData().toString();
    filter.outcome = m_outcome->currentData().toString();
    filter.received = m_received->currentData().toString();
    filter.search = m_search->text().trimmed();
    m_model->setFetcher(inbox::fetcher(filter));
    updateChips();
}

void InboxPage::focusSearch()
{
    if (isDeliveryOpen())
        closeDelivery();
    m_search->setFocus();
    m_search->selectAll();
}

void InboxPage::refresh()
{
    loadProviders();
    m_keepKey = m_table->currentIndex().data(int(Role::Key)).toString();
    m_model->refresh();
    if (isDeliveryOpen())
        loadDelivery(m_delivery->delivery().id);
    m_shownState.clear();
    poll();
}

void InboxPage::openDelivery(qint64 id)
{
    m_delivery->showLoading(id);
    m_stack->setCurrentWidget(m_delivery);
    m_delivery->setFocus();
    loadDelivery(id);
}

void InboxPage::closeDelivery()
{
    m_deliveryRequest.cancel();
    m_stack->setCurrentIndex(0);
    m_table->setFocus();
}

void InboxPage::loadDelivery(qint64 id)
{
    deliverResult(
        this, m_pool->call(&loadInboxDelivery, id),
        [this](const InboxDelivery &d) { m_delivery->setDelivery(d); },
        [this](const QString &message) { emit statusMessage(message); }, m_deliveryRequest.next());
}

void InboxPage::poll()
{
    deliverResult(
        this, m_pool->call(&inbox::loadChangeMark),
        [this](const QVariantList &state) {
            if (state.isEmpty() || state == m_shownState)
                return;
            const bool changed = !m_shownState.isEmpty();
            m_shownState = state;
            if (!changed)
                return;
            m_keepKey = m_table->currentIndex().data(int(Role::Key)).toString();
            m_model->refresh();
            if (isDeliveryOpen())
                loadDelivery(m_delivery->delivery().id);
        },
        [this](const QString &message) { emit statusMessage(message); }, m_pollRequest.next());
}

void InboxPage::setActionsAllowed(bool allowed, const QString &whyNot)
{
    m_delivery->setActionsAllowed(allowed, whyNot);
}

void InboxPage::markReviewed(qint64 id, const QString &note)
{
    emit statusMessage(tr("Marking delivery %1 reviewed…").arg(id));
    finishAction(markDeliveryReviewedAsync(m_pool->conninfo(), id, note));
}

void InboxPage::rerun(qint64 id)
{
    emit statusMessage(tr("Re-running delivery %1…").arg(id));
    finishAction(rerunDeliveryAsync(m_pool->conninfo(), id));
}

void InboxPage::finishAction(QFuture<InboxActionResult> action)
{
    deliverResult(
        this, std::move(action),
        [this](const InboxActionResult &o) {
            // The status bar's line is the outcome's first (a re-run's report has more).
            emit statusMessage(o.summary.section(u'\n', 0, 0));
            emit actionFinished(o.succeeded(), o.summary);
            refresh(); // the list, and the open delivery as it now is
        },
        [this](const QString &message) {
            emit statusMessage(message);
            emit actionFinished(false, message);
        });
}

} // namespace rd::ui
