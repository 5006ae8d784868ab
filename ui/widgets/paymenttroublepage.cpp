#include "ui/widgets/paymenttroublepage.h"

#include "ui/actions/accessactions.h"
#include "ui/models/columns.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/recordtablemodel.h"
#include "ui/widgets/extendgracedialog.h"
#include "ui/widgets/tableview.h"

#include <QBrush>
#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTimer>
#include <QVBoxLayout>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::PaymentTroublePage)
};

using P = PaymentTroublePage;

const QColor kBlocked(0xb0, 0x20, 0x20);
const QColor kGrace(0x8a, 0x5a, 0x00);
const QColor kRecovered(0x1b, 0x6e, 0x20);

Column verdictColumn()
{
    return {
        Tr::tr("Verdict"), [](RowRef r, int role) -> QVariant {
            const QString verdict = r[P::Verdict].toString();
            const bool recovered = verdict == u"good_standing";
            if (role == int(Role::Raw))
                return recovered ? u"recovered"_qs : verdict;
            if (role == Qt::DisplayRole)
                return recovered ? Tr::tr("recovered (was %1)")
                                       .arg(access::verdictText(r[P::PreviousVerdict].toString()))
                                 : access::verdictText(verdict);
            if (role == Qt::ForegroundRole)
                return QBrush(recovered ? kRecovered : verdict == u"blocked" ? kBlocked : kGrace);
            return {};
        }};
}

Column timeLeftColumn()
{
    return {Tr::tr("Time left"),
        [](RowRef r, int role) -> QVariant {
            if (r[P::SecondsLeft].isNull())
                return {};
            const qint64 left = r[P::SecondsLeft].toLongLong();
            if (role == Qt::DisplayRole)
                return access::timeLeftText(left);
            if (role == int(Role::Raw))
                return left;
            if (role == Qt::ToolTipRole)
                return Tr::tr("Until %1").arg(format::utcTooltip(columns::fromMicros(r[P::Until])));
            if (role == Qt::ForegroundRole && left < 86400)
                return QBrush(kBlocked);
            return {};
        },
        Qt::AlignRight | Qt::AlignVCenter, {Tr::tr("Seconds left")}, {}, {csv::Kind::Number}};
}

Column sourceColumn()
{
    return {Tr::tr("Decided by"), [](RowRef r, int role) -> QVariant {
                if (role == Qt::DisplayRole)
                    return access::sourceText(r[P::Source].toString());
                if (role == int(Role::Raw))
                    return r[P::Source];
                return {};
            }};
}

Column reasonColumn()
{
    return {Tr::tr("Reason"), [](RowRef r, int role) -> QVariant {
                if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
                    return access::reasonText(r[P::Reason].toString());
                if (role == int(Role::Raw))
                    return r[P::Reason];
                return {};
            }};
}

} // namespace

PaymentTroublePage::PaymentTroublePage(DatabasePool *pool, QWidget *parent)
    : QWidget(parent)
    , m_pool(pool)
    , m_show(new QComboBox)
    , m_provider(new QComboBox)
    , m_search(new QLineEdit)
    , m_summary(new QLabel)
    , m_open(new QPushButton(tr("Open subscription")))
    , m_extend(new QPushButton(tr("Extend grace…")))
    , m_table(new TableView)
    , m_poll(new QTimer(this))
    , m_searchDelay(new QTimer(this))
{
    m_model = new RecordTableModel(access::FieldCount,
        {columns::text(tr("Provider"), Provider),
            columns::text(tr("Subscription"), SubscriptionRef), verdictColumn(), timeLeftColumn(),
            columns::instant(tr("Since"), Since), columns::instant(tr("Until"), Until),
            sourceColumn(), columns::count(tr("Failed attempts"), Attempts),
            columns::instant(tr("Last failed"), LastFailedAt),
            columns::text(tr("Last decline"), DeclineCode), reasonColumn()},
        SubscriptionUuid, this);
    m_show->setObjectName(u"trouble-show"_qs);
    m_show->addItem(tr("In grace and blocked"), int(access::Show::Trouble));
    m_show->addItem(tr("In grace"), int(access::Show::InGrace));
    m_show->addItem(tr("Blocked"), int(access::Show::Blocked));
    m_show->addItem(tr("Recovered this month"), int(access::Show::Recovered));
    m_provider->setObjectName(u"trouble-provider"_qs);
    m_provider->addItem(tr("All providers"), QString());
    m_search->setObjectName(u"trouble-search"_qs);
    m_search->setPlaceholderText(tr("Subscription id…"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaximumWidth(260);
    m_summary->setObjectName(u"trouble-summary"_qs);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_open->setObjectName(u"trouble-open"_qs);
    m_extend->setObjectName(u"trouble-extend"_qs);
    m_table->setObjectName(u"payment-trouble"_qs);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto *filters = new QHBoxLayout;
    filters->addWidget(m_show);
    filters->addWidget(m_provider);
    filters->addWidget(m_search);
    filters->addStretch(1);
    filters->addWidget(m_open);
    filters->addWidget(m_extend);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(filters);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);

    connect(m_show, &QComboBox::currentIndexChanged, this, &PaymentTroublePage::reload);
    connect(m_provider, &QComboBox::currentIndexChanged, this, &PaymentTroublePage::reload);
    m_searchDelay->setSingleShot(true);
    m_searchDelay->setInterval(250);
    connect(m_search, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_searchDelay, &QTimer::timeout, this, &PaymentTroublePage::reload);
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        if (m_model->rowCount() > 0) {
            m_table->selectRow(0);
            m_table->setFocus();
        }
    });
    connect(m_table, &TableView::openRequested, this, &PaymentTroublePage::openCurrent);
    connect(m_open, &QPushButton::clicked, this, &PaymentTroublePage::openCurrent);
    connect(m_extend, &QPushButton::clicked, this, &PaymentTroublePage::askExtendGrace);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &PaymentTroublePage::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &PaymentTroublePage::updateButtons);
    m_poll->setInterval(kPollInterval);
    connect(m_poll, &QTimer::timeout, this, &PaymentTroublePage::refresh);
    setActionsAllowed(false, tr("Reading your database role…"));
    reload();
}

void PaymentTroublePage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_poll->isActive()) {
        m_poll->start();
        refresh(); // the time left, and what changed while it was hidden
    }
}

void PaymentTroublePage::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_poll->stop();
}

access::Show PaymentTroublePage::show() const
{
    return access::Show(m_show->currentData().toInt());
}

void PaymentTroublePage::setShow(access::Show show)
{
    if (const int i = m_show->findData(int(show)); i >= 0)
        m_show->setCurrentIndex(i);
}

void PaymentTroublePage::setProvider(const QString &provider)
{
    if (m_provider->findData(provider) < 0)
        m_provider->addItem(provider, provider); // before the providers are read
    m_provider->setCurrentIndex(m_provider->findData(provider));
}

void PaymentTroublePage::focusSearch()
{
    m_search->setFocus();
    m_search->selectAll();
}

void PaymentTroublePage::reload()
{
    refresh();
}

void PaymentTroublePage::refresh()
{
    deliverResult(
        this,
        m_pool->call(
            &access::loadTrouble, show(), m_provider->currentData().toString(), m_search->text()),
        [this](const access::TroubleList &list) { showList(list); },
        [this](const QString &message) {
            m_summary->setText(u"<span style='color:#b02020'>"_qs
                + tr("The list could not be read: %1").arg(message).toHtmlEscaped()
                + u"</span>"_qs);
            emit statusMessage(tr("Payment trouble could not be read: %1").arg(message));
        },
        m_request.next());
}

void PaymentTroublePage::showList(const access::TroubleList &list)
{
    m_readAt = list.readAt;
    {
        const QString current = m_provider->currentData().toString();
        const QSignalBlocker block(m_provider);
        while (m_provider->count() > 1)
            m_provider->removeItem(1);
        for (const QString &key : list.providers)
            m_provider->addItem(key, key);
        if (m_provider->findData(current) < 0)
            m_provider->addItem(current, current);
        m_provider->setCurrentIndex(m_provider->findData(current));
    }
    const QString selected = currentSubscriptionId();
    m_model->setRows(list.cells);
    if (!selected.isEmpty())
        selectSubscription(selected);

    qint64 inGrace = 0;
    qint64 blocked = 0;
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const QString verdict = m_model->row(r)[Verdict].toString();
        inGrace += verdict == u"in_grace";
        blocked += verdict == u"blocked";
    }
    const QLocale locale;
    QString text;
    if (show() == access::Show::Recovered) {
        text = tr("%n subscription(s) recovered this month (%1, UTC): their last change of access "
                  "was from in grace or blocked to good standing.",
            nullptr, m_model->rowCount())
                   .arg(locale.toString(m_readAt.toUTC().date(), u"MMMM yyyy"_qs));
    } else {
        text = u"<b style='color:#8a5a00'>"_qs + tr("%n in grace", nullptr, int(inGrace))
            + u"</b> · <b style='color:#b02020'>"_qs + tr("%n blocked", nullptr, int(blocked))
            + u"</b> · "_qs
            + tr("worked out now from the failed payments, the provider's standing, each "
                 "provider's grace and operators' extensions; blocked first, then the graces "
                 "that end soonest.")
                  .toHtmlEscaped();
        if (list.truncated)
            text += u" "_qs
                + tr("Only the first %1 are listed: choose a provider.")
                      .arg(access::kMaxRows)
                      .toHtmlEscaped();
    }
    m_summary->setText(text);
    m_loaded = true;
    updateButtons();
    emit loaded();
}

QString PaymentTroublePage::currentSubscriptionId() const
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid() || current.row() >= m_model->rowCount())
        return {};
    return m_model->row(current.row())[SubscriptionUuid].toString();
}

bool PaymentTroublePage::selectSubscription(const QString &id)
{
    const int row = m_model->rowOfKey(id);
    if (row < 0)
        return false;
    m_table->selectRow(row);
    m_table->scrollTo(m_model->index(row, 0));
    return true;
}

void PaymentTroublePage::setActionsAllowed(bool allowed, const QString &whyNot)
{
    m_actionsAllowed = allowed;
    m_whyNot = whyNot;
    updateButtons();
}

void PaymentTroublePage::updateButtons()
{
    const QModelIndex current = m_table->currentIndex();
    const bool selected = current.isValid() && current.row() < m_model->rowCount();
    m_open->setEnabled(selected);
    m_open->setToolTip(selected ? tr("Open the subscription: its timeline and audit trail (Enter)")
                                : tr("Select a subscription first."));
    const bool recovered
        = selected && m_model->row(current.row())[Verdict].toString() == u"good_standing";
    QString why;
    if (!m_actionsAllowed)
        why = m_whyNot;
    else if (m_running)
        why = tr("An extension is being recorded…");
    else if (!selected)
        why = tr("Select a subscription in grace or blocked first.");
    else if (recovered)
        why = tr("It recovered: there is no grace to extend.");
    m_extend->setEnabled(why.isEmpty());
    m_extend->setToolTip(why.isEmpty()
            ? tr("Keep the selected subscription's access until a day you choose, with a note")
            : why);
}

void PaymentTroublePage::openCurrent()
{
    const QString id = currentSubscriptionId();
    if (!id.isEmpty())
        emit subscriptionOpenRequested(id);
}

void PaymentTroublePage::askExtendGrace()
{
    const QModelIndex current = m_table->currentIndex();
    if (!m_extend->isEnabled() || !current.isValid())
        return;
    const RowRef r = m_model->row(current.row());
    const QString subject = r[Provider].toString() + u'/' + r[SubscriptionRef].toString();
    access::SubscriptionAccess now;
    now.verdict = r[Verdict].toString();
    now.since = columns::fromMicros(r[Since]);
    now.until = columns::fromMicros(r[Until]);
    now.source = r[Source].toString();
    QString verdict = access::accessLine(now);
    verdict = verdict.mid(verdict.indexOf(u':') + 1).trimmed();
    const QDate today
        = (m_readAt.isValid() ? m_readAt : QDateTime::currentDateTimeUtc()).toUTC().date();
    ExtendGraceDialog dialog(subject, verdict, today, this);
    if (dialog.exec() == QDialog::Accepted)
        extendGrace(dialog.lastDay(), dialog.note());
}

void PaymentTroublePage::extendGrace(const QDate &lastDayUtc, const QString &note)
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid() || current.row() >= m_model->rowCount())
        return;
    const RowRef r = m_model->row(current.row());
    ExtendGraceRequest request {
        r[Provider].toString(), r[SubscriptionRef].toString(), lastDayUtc, note};
    m_running = true;
    updateButtons();
    emit statusMessage(tr("Extending the grace of %1/%2…")
                           .arg(request.providerKey, request.providerSubscriptionId));
    deliverResult(
        this, extendGraceAsync(m_pool->conninfo(), request),
        [this](const ActionResult &result) {
            m_running = false;
            emit statusMessage(result.summary);
            if (!result.succeeded() && isVisible())
                QMessageBox::warning(this, tr("Extend grace"), result.summary);
            emit actionFinished(result.succeeded(), result.summary);
            refresh();
        },
        [this](const QString &message) {
            m_running = false;
            updateButtons();
            emit statusMessage(message);
            emit actionFinished(false, message);
        });
}

} // namespace rd::ui
