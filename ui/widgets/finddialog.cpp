#include "ui/widgets/finddialog.h"

#include "ui/models/databasepool.h"

#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace rd::ui {

FindDialog::FindDialog(DatabasePool *pool, QWidget *parent)
    : QDialog(parent)
    , m_pool(pool)
    , m_input(new QLineEdit)
    , m_results(new QListWidget)
    , m_message(new QLabel)
    , m_delay(new QTimer(this))
{
    setObjectName(u"find-anything"_qs);
    setWindowTitle(tr("Find anything"));
    m_input->setObjectName(u"find-anything-input"_qs);
    m_input->setPlaceholderText(
        tr("Subscription, invoice or transaction, provider event, case 42, delivery, "
           "customer e-mail…"));
    m_input->setClearButtonEnabled(true);
    QFont big = m_input->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    m_input->setFont(big);
    m_input->installEventFilter(this);
    m_results->setObjectName(u"find-anything-results"_qs);
    m_results->setWordWrap(true);
    m_results->setAlternatingRowColors(true);
    m_results->setUniformItemSizes(false);
    m_results->setSpacing(2);
    m_message->setObjectName(u"find-anything-message"_qs);
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_input);
    layout->addWidget(m_message);
    layout->addWidget(m_results, 1);
    m_message->setText(tr("Paste any id a customer or a provider gives you, or the customer's "
                          "e-mail address; Return opens it."));

    m_delay->setSingleShot(true);
    m_delay->setInterval(250);
    connect(m_delay, &QTimer::timeout, this, &FindDialog::lookUp);
    connect(m_input, &QLineEdit::textChanged, this, [this] {
        m_settled = false;
        m_delay->start();
    });
    connect(m_input, &QLineEdit::returnPressed, this, [this] {
        if (m_settled && m_lookedUp == m_input->text()) {
            choose(std::max(0, m_results->currentRow()));
            return;
        }
        m_openWhenSettled = true;
        m_delay->stop();
        lookUp();
    });
    connect(m_results, &QListWidget::itemActivated, this,
        [this](QListWidgetItem *item) { choose(m_results->row(item)); });
    resize(640, 360);
}

QString FindDialog::messageText() const
{
    return m_message->text();
}

void FindDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    m_input->setFocus();
    m_input->selectAll();
}

bool FindDialog::eventFilter(QObject *watched, QEvent *event)
{
    // Up and Down move through the matches while the cursor stays in the box, as in a
    // command palette.
    if (watched == m_input && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if ((key == Qt::Key_Down || key == Qt::Key_Up) && m_results->count() > 0) {
            const int step = key == Qt::Key_Down ? 1 : -1;
            m_results->setCurrentRow(
                std::clamp(m_results->currentRow() + step, 0, m_results->count() - 1));
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

void FindDialog::lookUp()
{
    m_delay->stop();
    const QString text = m_input->text();
    const FindQuery query = parseFindText(text);
    if (!query.error.isEmpty()) {
        m_request.cancel();
        m_openWhenSettled = false;
        m_matches.clear();
        m_results->clear();
        m_lookedUp = text;
        m_settled = true;
        m_message->setText(query.error);
        return;
    }
    m_settled = false;
    deliverResult(
        this, m_pool->call(&findAnything, query),
        [this, text](const QVector<FoundItem> &matches) { showMatches(text, matches); },
        [this, text](const QString &error) {
            m_openWhenSettled = false;
            m_matches.clear();
            m_results->clear();
            m_lookedUp = text;
            m_settled = true;
            m_message->setText(tr("Could not look it up: %1").arg(error));
        },
        m_request.next());
}

void FindDialog::showMatches(const QString &text, const QVector<FoundItem> &matches)
{
    m_matches = matches;
    m_lookedUp = text;
    m_settled = true;
    m_results->clear();
    const FindQuery query = parseFindText(text);
    const QString id = query.text;
    for (const FoundItem &m : matches) {
        // What it is (and by which of its ids it was found) first; what tells it apart below.
        auto *item = new QListWidgetItem(
            m.title + u"   ·   "_qs + tr("found by %1").arg(m.matchedBy) + u"\n    "_qs + m.detail);
        item->setToolTip(m.title + u"\n"_qs + m.detail);
        m_results->addItem(item);
    }
    if (matches.isEmpty()) {
        m_message->setText(query.email
                ? tr("Nothing has the id or the customer's e-mail address “%1”: no delivery "
                     "carried it (or it was erased), and no subscription, renewal, provider "
                     "event, case or inbox delivery has it as its id.")
                      .arg(id)
                : tr("Nothing has the id “%1”: no subscription, renewal, provider event, case or "
                     "inbox delivery.")
                      .arg(id));
    } else {
        m_results->setCurrentRow(0);
        const QString several = query.email
            ? tr("%1 things of the customer's e-mail address “%2”: choose one (Up, Down, "
                 "Return).")
            : tr("%1 things have the id “%2”: choose one (Up, Down, Return).");
        m_message->setText(matches.size() == 1 ? tr("Return opens it.")
                                               : several.arg(matches.size()).arg(id)
                    + (matches.size() >= kMaxFound
                            ? u" "_qs + tr("The first %1 are listed.").arg(kMaxFound)
                            : QString()));
    }
    if (m_openWhenSettled) {
        m_openWhenSettled = false;
        // One match opens at once; several are a choice for the person.
        if (matches.size() == 1)
            choose(0);
    }
}

void FindDialog::choose(int row)
{
    if (row < 0 || row >= m_matches.size())
        return;
    const FoundItem item = m_matches[row];
    hide();
    emit chosen(item);
}

} // namespace rd::ui
