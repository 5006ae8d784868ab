#include "ui/widgets/subscriptionspage.h"

#include "ui/models/asyncresult.h"
#include "ui/models/databasepool.h"
#include "ui/models/overduewatch.h"
#include "ui/widgets/filterchips.h"
#include "ui/widgets/subscriptiondetailwidget.h"
#include "ui/widgets/tableview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

namespace rd::ui {

SubscriptionsPage::SubscriptionsPage(DatabasePool *pool, QWidget *parent)
    : QWidget(parent)
    , m_pool(pool)
    , m_model(new SubscriptionsModel(pool, this))
    , m_provider(new QComboBox)
    , m_status(new QComboBox)
    , m_openCases(new QCheckBox(tr("Open cases only")))
    , m_overdue(new QCheckBox(tr("Overdue")))
    , m_grace(new QComboBox)
    , m_search(new QLineEdit)
    , m_position(new QLineEdit)
    , m_count(new QLabel)
    , m_chips(new FilterChips)
    , m_searchDelay(new QTimer(this))
    , m_table(new TableView)
    , m_detail(new SubscriptionDetailWidget)
    , m_splitter(new QSplitter(Qt::Vertical))
{
    m_provider->addItem(tr("All providers"), QString());
    m_provider->setObjectName(u"provider-filter"_qs);
    m_status->addItem(tr("Any status"), QString());
    for (const QString &s : SubscriptionsModel::statuses())
        m_status->addItem(s, s);
    m_status->setObjectName(u"status-filter"_qs);
    m_overdue->setObjectName(u"overdue-filter"_qs);
    m_overdue->setToolTip(tr("Active subscriptions whose period ended more than the grace ago "
                             "with no renewal recorded since, not set to cancel: the payment "
                             "failed at the provider or its renewal never reached us."));
    m_grace->setObjectName(u"overdue-grace"_qs);
    m_grace->setToolTip(tr("How long after a period end a subscription without its renewal "
                           "counts as overdue, for every provider; kept for this desk. Each "
                           "provider's own: 24 hours unless set with 'renewalctl providers "
                           "set-grace'."));
    m_grace->addItem(tr("Grace: each provider's"), -1);
    for (const int hours : {0, 6, 12, 24, 48, 72, 168})
        m_grace->addItem(tr("Grace: %1 h").arg(hours), hours);
    if (const auto hours = overdueGraceHoursSetting()) {
        if (m_grace->findData(*hours) < 0)
            m_grace->addItem(tr("Grace: %1 h").arg(*hours), *hours);
        m_grace->setCurrentIndex(m_grace->findData(*hours));
    }
    m_search->setPlaceholderText(tr("Find id or part of it…  (Ctrl+F)"));
    m_search->setToolTip(tr("Lists the subscriptions whose id contains what you type or paste "
                            "(one or two characters: ids that start with them). Return opens "
                            "the first match."));
    m_search->setClearButtonEnabled(true);
    m_search->setObjectName(u"id-search"_qs);
    m_position->setClearButtonEnabled(true);
    m_position->setObjectName(u"position"_qs);
    m_searchDelay->setSingleShot(true);
    m_searchDelay->setInterval(250);
    m_count->setObjectName(u"row-count"_qs);
    // Cut (whole in its tooltip) rather than widening the window: the count's longer
    // sentences, in German, made the page wider than 1024 px. (Word wrap would do, but a
    // wrapping label's height-for-width made the table fit its columns to a wider view.)
    m_count->setMinimumWidth(m_count->fontMetrics().horizontalAdvance(u'M') * 10);

    // Two rows: the filters and the count, then the two boxes whose hints must show whole
    // (one row held all of it only in a window wider than 1024 px).
    auto *filters = new QHBoxLayout;
    filters->addWidget(m_provider);
    filters->addWidget(m_status);
    filters->addWidget(m_openCases);
    filters->addWidget(m_overdue);
    filters->addWidget(m_grace);
    filters->addStretch(1);
    filters->addWidget(m_count);
    auto *boxes = new QHBoxLayout;
    boxes->addWidget(m_search, 1);
    boxes->addWidget(m_position, 1);
    auto *bar = new QVBoxLayout;
    bar->setSpacing(4);
    bar->addLayout(filters);
    bar->addLayout(boxes);
    bar->addWidget(m_chips);

    m_table->setObjectName(u"subscriptions"_qs);
    m_table->setModel(m_model);
    m_table->setSortingEnabled(true);
    m_table->horizontalHeader()->setSortIndicator(
        SubscriptionsModel::SubscriptionColumn, Qt::AscendingOrder);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // Columns fit the first page (ids whole while there is room, see TableView::fitColumns)
    // and keep those widths as more pages arrive; the last column takes what is left.
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWholeColumns({SubscriptionsModel::SubscriptionColumn});

    auto *top = new QWidget;
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addLayout(bar);
    topLayout->addWidget(m_table);
    m_splitter->setObjectName(u"subscriptions-split"_qs);
    m_splitter->addWidget(top);
    m_splitter->addWidget(m_detail);
    m_splitter->setStretchFactor(0, 5);
    m_splitter->setStretchFactor(1, 4);
    m_splitter->setSizes({330, 500});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter);

    connect(m_provider, &QComboBox::currentIndexChanged, this, &SubscriptionsPage::applyFilter);
    connect(m_status, &QComboBox::currentIndexChanged, this, &SubscriptionsPage::applyFilter);
    connect(m_openCases, &QCheckBox::toggled, this, &SubscriptionsPage::applyFilter);
    connect(m_overdue, &QCheckBox::toggled, this, &SubscriptionsPage::applyFilter);
    connect(m_grace, &QComboBox::currentIndexChanged, this, [this] {
        const int hours = m_grace->currentData().toInt();
        setOverdueGraceHoursSetting(hours < 0 ? std::nullopt : std::optional<int>(hours));
        applyFilter();
    });
    if (overdueGraceHoursSetting())
        applyFilter(); // the Next step column judges by the desk's grace
    connect(m_search, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_searchDelay, &QTimer::timeout, this, &SubscriptionsPage::applyFilter);
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        m_searchDelay->stop();
        m_openFirst = true;
        applyFilter();
        if (!m_model->isLoading() && m_model->loadedRows() > 0) {
            m_openFirst = false;
            m_table->setFocus();
            m_table->selectRow(0);
        }
    });
    // Return right after typing: the search's first page is still on its way; its first row
    // opens when it lands.
    connect(m_model, &PagedTableModel::pageLoaded, this, [this] {
        if (!m_openFirst)
            return;
        m_openFirst = false;
        if (m_model->loadedRows() > 0 && m_model->filter().idPrefix == m_search->text().trimmed()) {
            m_table->setFocus();
            m_table->selectRow(0);
        }
    });
    connect(m_position, &QLineEdit::returnPressed, this, &SubscriptionsPage::goToPosition);
    connect(m_position, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (text.isEmpty() && !m_model->startPosition().isEmpty())
            goToPosition(); // the clear button: back to the beginning
    });
    connect(m_model, &PagedTableModel::modelReset, this, &SubscriptionsPage::updatePositionHint);
    updatePositionHint();
    connect(m_model, &PagedTableModel::pageLoaded, this, &SubscriptionsPage::updateCountLabel);
    connect(m_model, &PagedTableModel::modelReset, this, &SubscriptionsPage::updateCountLabel);
    connect(m_model, &PagedTableModel::loadFailed, this, &SubscriptionsPage::statusMessage);
    connect(m_model, &PagedTableModel::modelReset, this, &SubscriptionsPage::updateChips);
    connect(m_model, &PagedTableModel::pageLoaded, this, &SubscriptionsPage::continueReveal);
    m_chips->setFocusFallback(m_table);
    connect(m_chips, &FilterChips::removed, this, &SubscriptionsPage::removeFilter);
    connect(m_chips, &FilterChips::clearAllRequested, this, [this] {
        clearFilters();
        m_chips->setNote({});
    });
    connect(m_table, &TableView::openRequested, this, [this](const QModelIndex &index) {
        openSubscription(index.data(int(Role::Key)).toString());
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (current.isValid() && !current.data(int(Role::Placeholder)).toBool())
                openSubscription(current.data(int(Role::Key)).toString());
        });
    connect(m_detail, &SubscriptionDetailWidget::caseOpenRequested, this,
        &SubscriptionsPage::caseOpenRequested);
    loadProviders();
}

void SubscriptionsPage::focusFilter()
{
    m_search->setFocus();
    m_search->selectAll();
}

void SubscriptionsPage::focusPosition()
{
    m_position->setFocus();
    m_position->selectAll();
}

void SubscriptionsPage::goToPosition()
{
    QString error;
    const auto position
        = SubscriptionsModel::parsePosition(m_model->effectiveOrder(), m_position->text(), &error);
    if (!position) {
        m_position->setStyleSheet(u"QLineEdit { color: #b02020; }"_qs);
        m_position->setToolTip(error);
        emit statusMessage(error);
        return;
    }
    m_position->setStyleSheet({});
    m_model->setStartPosition(*position);
    if (!position->isEmpty())
        m_table->setFocus();
}

void SubscriptionsPage::updatePositionHint()
{
    // The box speaks the language of the order shown; a new order starts at its beginning.
    if (m_model->startPosition().isEmpty() && !m_position->text().isEmpty()) {
        QSignalBlocker block(m_position);
        m_position->clear();
    }
    const bool descending = m_model->direction() == Qt::DescendingOrder;
    QString hint;
    switch (m_model->effectiveOrder()) {
    case SubscriptionOrder::ProviderAndId:
        hint = tr("Go to provider or provider/id…  (Ctrl+G)");
        break;
    case SubscriptionOrder::Status:
        hint = tr("Go to status…  (Ctrl+G)");
        break;
    case SubscriptionOrder::PeriodEnd:
        hint = descending ? tr("Go to period end on or before YYYY-MM-DD…  (Ctrl+G)")
                          : tr("Go to period end on or after YYYY-MM-DD…  (Ctrl+G)");
        break;
    }
    m_position->setPlaceholderText(hint);
    m_position->setToolTip(tr("Starts the list at this position of the current sort order; "
                              "clear it to start from the beginning again."));
    m_position->setStyleSheet({});
    m_position->setEnabled(m_model->filter().idPrefix.isEmpty());
}

void SubscriptionsPage::applyFilter()
{
    SubscriptionFilter f;
    f.provider = m_provider->currentData().toString();
    f.status = m_status->currentData().toString();
    f.openCasesOnly = m_openCases->isChecked();
    f.overdueOnly = m_overdue->isChecked();
    f.overdueGraceHours = overdueGraceHoursSetting();
    m_model->setFilter(withSearch(f, m_search->text()));
}

bool SubscriptionsPage::isFiltered() const
{
    const SubscriptionFilter &f = m_model->filter();
    return !f.provider.isEmpty() || !f.status.isEmpty() || f.openCasesOnly || f.overdueOnly
        || !f.idPrefix.isEmpty();
}

void SubscriptionsPage::updateChips()
{
    const SubscriptionFilter &f = m_model->filter();
    QList<FilterChips::Chip> chips;
    if (!f.provider.isEmpty())
        chips.append({u"provider"_qs, tr("Provider: %1").arg(f.provider)});
    if (!f.status.isEmpty())
        chips.append({u"status"_qs, tr("Status: %1").arg(m_status->currentText())});
    if (f.openCasesOnly)
        chips.append({u"open-cases"_qs, m_openCases->text()});
    if (f.overdueOnly)
        chips.append({u"overdue"_qs, m_overdue->text()});
    if (!f.idPrefix.isEmpty())
        chips.append({u"search"_qs,
            (f.idContains ? tr("Id contains: %1") : tr("Id starts with: %1")).arg(f.idPrefix)});
    if (!m_model->startPosition().isEmpty())
        chips.append({u"position"_qs, tr("From: %1").arg(m_position->text().trimmed())});
    m_chips->setChips(chips);
    if (chips.isEmpty())
        m_drilledDown = false;
}

void SubscriptionsPage::removeFilter(const QString &key)
{
    m_chips->setNote({});
    if (key == u"provider")
        m_provider->setCurrentIndex(0);
    else if (key == u"status")
        m_status->setCurrentIndex(0);
    else if (key == u"open-cases")
        m_openCases->setChecked(false);
    else if (key == u"overdue")
        m_overdue->setChecked(false);
    else if (key == u"search") {
        const QSignalBlocker block(m_search);
        m_search->clear();
        m_searchDelay->stop();
        applyFilter();
    } else if (key == u"position") {
        m_position->clear(); // its textChanged starts the list at the beginning again
    }
}

void SubscriptionsPage::clearFilters()
{
    {
        const QSignalBlocker a(m_provider), b(m_status), c(m_openCases), d(m_overdue), e(m_search),
            g(m_position);
        m_provider->setCurrentIndex(0);
        m_status->setCurrentIndex(0);
        m_openCases->setChecked(false);
        m_overdue->setChecked(false);
        m_search->clear();
        m_position->clear();
    }
    m_searchDelay->stop();
    m_model->setStartPosition({});
    applyFilter();
    updateChips();
}

void SubscriptionsPage::clearDrillDown()
{
    if (!m_drilledDown)
        return;
    m_drilledDown = false;
    m_reveal = Reveal::None;
    m_chips->setNote({});
    clearFilters();
}

void SubscriptionsPage::continueReveal()
{
    if (m_reveal == Reveal::None || m_model->isLoading() || m_detailId.isEmpty())
        return;
    if (m_model->rowOfKey(m_detailId) >= 0) {
        m_reveal = Reveal::None;
        selectOpenRow();
        return;
    }
    if (m_revealPosition.isEmpty())
        return; // its detail (its provider and id) is on its way
    auto startAtIt = [this] {
        // The list in provider and id order, starting at the subscription: its first row.
        m_drilledDown = true;
        if (m_model->effectiveOrder() != SubscriptionOrder::ProviderAndId
            || m_model->direction() != Qt::AscendingOrder)
            m_table->sortByColumn(SubscriptionsModel::SubscriptionColumn, Qt::AscendingOrder);
        {
            const QSignalBlocker block(m_position);
            m_position->setText(m_revealPosition);
        }
        m_model->setStartPosition(m_revealPosition);
        updateChips();
    };
    switch (m_reveal) {
    case Reveal::None:
        break;
    case Reveal::Pending:
        m_reveal = Reveal::AtPosition;
        startAtIt();
        break;
    case Reveal::AtPosition:
        // Not even where it starts: the filters hide it. They go, and the page says so.
        if (!isFiltered()) {
            m_reveal = Reveal::None;
            break;
        }
        m_reveal = Reveal::Unfiltered;
        {
            const QSignalBlocker a(m_provider), b(m_status), c(m_openCases), d(m_overdue),
                e(m_search);
            m_provider->setCurrentIndex(0);
            m_status->setCurrentIndex(0);
            m_openCases->setChecked(false);
            m_overdue->setChecked(false);
            m_search->clear();
        }
        m_searchDelay->stop();
        m_chips->setNote(
            tr("Filters cleared to show %1: they hid it.").arg(m_revealPosition.section(u'/', 1)));
        emit statusMessage(m_chips->note());
        applyFilter();
        startAtIt();
        break;
    case Reveal::Unfiltered:
        m_reveal = Reveal::None;
        break;
    }
}

void SubscriptionsPage::showOverdue()
{
    {
        const QSignalBlocker a(m_provider), b(m_status), c(m_openCases), d(m_overdue), e(m_search);
        m_provider->setCurrentIndex(0);
        m_status->setCurrentIndex(0);
        m_openCases->setChecked(false);
        m_overdue->setChecked(true);
        m_search->clear();
        m_position->clear();
    }
    m_searchDelay->stop();
    m_chips->setNote({});
    m_model->setStartPosition({});
    applyFilter();
    m_drilledDown = true;
}

SubscriptionFilter SubscriptionsPage::withSearch(SubscriptionFilter filter, const QString &typed)
{
    filter.idPrefix = typed.trimmed();
    filter.idContains = filter.idPrefix.size() >= 3;
    return filter;
}

void SubscriptionsPage::refresh()
{
    m_model->refresh();
    if (!m_detailId.isEmpty())
        loadDetail(m_detailId);
    loadProviders();
}

void SubscriptionsPage::subscriptionChanged(const QString &id)
{
    if (id == m_detailId)
        loadDetail(id);
}

void SubscriptionsPage::openSubscription(const QString &id, const QString &billingPeriodId)
{
    if (!billingPeriodId.isEmpty() && !id.isEmpty())
        m_detail->selectBillingPeriod(billingPeriodId);
    if (id.isEmpty())
        return;
    const bool another = id != m_detailId;
    if (another) {
        m_detailId = id;
        m_revealPosition.clear();
        m_chips->setNote({});
    }
    selectOpenRow();
    // The open subscription's row, always in sight: the list may still be loading, or not
    // hold it (another part of a long list, or filters that hide it: opened from a case, an
    // audit break, Find anything).
    m_reveal = m_model->rowOfKey(id) >= 0 ? Reveal::None : Reveal::Pending;
    if (another)
        loadDetail(id);
    else
        continueReveal();
}

void SubscriptionsPage::selectOpenRow()
{
    // The list says which subscription the detail shows: its row when the list holds it, no
    // row when it does not (opened from a case or a search), never the row selected before.
    auto *selection = m_table->selectionModel();
    const int row = m_model->rowOfKey(m_detailId);
    if (row < 0) {
        selection->clearSelection();
        selection->setCurrentIndex(QModelIndex(), QItemSelectionModel::NoUpdate);
        return;
    }
    const QModelIndex index = m_model->index(row, 0);
    if (selection->currentIndex().row() != row || !selection->isRowSelected(row, QModelIndex()))
        selection->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

void SubscriptionsPage::loadProviders()
{
    deliverResult(
        this, m_pool->call(&loadSubscriptionChoices),
        [this](const SubscriptionChoices &loaded) {
            const QStringList &providers = loaded.providers;
            m_estimate = loaded.estimate;
            const QString current = m_provider->currentData().toString();
            QSignalBlocker block(m_provider);
            while (m_provider->count() > 1)
                m_provider->removeItem(1);
            for (const QString &p : providers)
                m_provider->addItem(p, p);
            m_provider->setCurrentIndex(std::max(0, m_provider->findData(current)));
            updateCountLabel();
        },
        [this](const QString &message) { emit statusMessage(message); });
}

void SubscriptionsPage::loadDetail(const QString &id)
{
    deliverResult(
        this, m_pool->call(&loadSubscriptionDetail, id),
        [this](const std::optional<SubscriptionDetail> &detail) {
            if (detail) {
                m_detail->setDetail(*detail);
                if (detail->id == m_detailId) {
                    m_revealPosition = detail->provider + u'/' + detail->subscriptionId;
                    continueReveal();
                }
            } else
                m_detail->clear(tr("This subscription no longer exists."));
        },
        [this](const QString &message) {
            m_detail->clear(tr("Could not load the subscription: %1").arg(message));
        },
        // Another subscription selected meanwhile: its detail is the one shown.
        m_detailRequest.next());
}

void SubscriptionsPage::updateCountLabel()
{
    const QLocale locale;
    const int loaded = m_model->loadedRows();
    QString text;
    if (m_model->isComplete())
        text = tr("%1 shown").arg(locale.toString(loaded));
    else
        text = tr("%1 loaded, more as you scroll").arg(locale.toString(loaded));
    if (!m_model->startPosition().isEmpty())
        text = tr("from %1: ").arg(m_position->text().trimmed()) + text;
    const SubscriptionFilter &f = m_model->filter();
    const bool unfiltered = f.provider.isEmpty() && f.status.isEmpty() && !f.openCasesOnly
        && !f.overdueOnly && f.idPrefix.isEmpty();
    if (unfiltered && m_estimate > 0 && !m_model->isComplete())
        text += u" · "_qs + tr("about %1 in all").arg(locale.toString(m_estimate));
    m_count->setText(text);
    m_count->setToolTip(text);
}

} // namespace rd::ui
