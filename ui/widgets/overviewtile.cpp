#include "ui/widgets/overviewtile.h"

#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <utility>

namespace rd::ui {

OverviewTile::OverviewTile(const QString &title, QWidget *parent)
    : QFrame(parent), m_title(new QLabel(title)), m_figures(new QVBoxLayout)
{
    setFrameShape(QFrame::StyledPanel);
    setObjectName(u"overview-tile"_qs);
    setStyleSheet(u"#overview-tile { background: palette(base); border: 1px solid #d0d4da; "
                  "border-radius: 4px; }"_qs);
    m_title->setStyleSheet(u"color: #5a6270;"_qs);
    m_title->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 8);
    layout->setSpacing(2);
    layout->addWidget(m_title);
    m_figures->setSpacing(0);
    layout->addLayout(m_figures);
    layout->addStretch(1);
}

void OverviewTile::setTitle(const QString &title)
{
    m_title->setText(title);
}

QString OverviewTile::title() const
{
    return m_title->text();
}

void OverviewTile::clearFigures()
{
    m_cleared.clear();
    for (QPushButton *b : figures())
        m_cleared << b;
    m_added = 0;
    m_opens = nullptr;
    // What was not added again by the time the caller is done goes.
    QTimer::singleShot(0, this, [this] {
        if (!m_opens)
            unsetCursor();
        for (const QPointer<QPushButton> &b : std::exchange(m_cleared, {})) {
            if (b) {
                m_figures->removeWidget(b);
                delete b.data();
            }
        }
    });
}

QPushButton *OverviewTile::addFigure(const QString &objectName, const QString &text,
    const QString &toolTip, std::function<void()> onClick, bool alert, bool large)
{
    QPushButton *button = nullptr;
    for (QPointer<QPushButton> &b : m_cleared) {
        if (b && b->objectName() == objectName) {
            button = b;
            b = nullptr;
            break;
        }
    }
    if (button) {
        disconnect(button, &QPushButton::clicked, this, nullptr);
        m_figures->removeWidget(button);
    } else {
        button = new QPushButton;
        button->setObjectName(objectName);
        button->setFlat(true);
    }
    m_figures->insertWidget(m_added++, button);
    button->setText(text);
    button->setToolTip(toolTip);
    QFont font = this->font();
    if (large) {
        font.setPointSizeF(font.pointSizeF() * 1.25);
        font.setBold(true);
    }
    button->setFont(font);
    const QString color = alert ? u"#b02020"_qs : u"palette(text)"_qs;
    const QString sheet = u"QPushButton { text-align: left; border: none; padding: 1px 2px; "
                          "color: %1; } QPushButton:hover, QPushButton:focus { background: "
                          "#e8f0fb; text-decoration: underline; }"_qs.arg(color);
    if (button->styleSheet() != sheet)
        button->setStyleSheet(sheet);
    if (onClick) {
        if (!m_opens) {
            m_opens = button;
            setCursor(Qt::PointingHandCursor);
        }
        button->setCursor(Qt::PointingHandCursor);
        button->setFocusPolicy(Qt::StrongFocus);
        button->setAttribute(Qt::WA_TransparentForMouseEvents, false);
        connect(button, &QPushButton::clicked, this, [onClick = std::move(onClick)] { onClick(); });
    } else {
        button->unsetCursor();
        button->setFocusPolicy(Qt::NoFocus);
        button->setAttribute(Qt::WA_TransparentForMouseEvents);
    }
    return button;
}

void OverviewTile::mousePressEvent(QMouseEvent *event)
{
    // Taken, so that the release comes here: the tile is one button for the mouse.
    if (m_opens && event->button() == Qt::LeftButton)
        event->accept();
    else
        QFrame::mousePressEvent(event);
}

void OverviewTile::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_opens && event->button() == Qt::LeftButton && rect().contains(event->position().toPoint())
        && m_opens->isEnabled()) {
        event->accept();
        m_opens->click();
        return;
    }
    QFrame::mouseReleaseEvent(event);
}

QList<QPushButton *> OverviewTile::figures() const
{
    QList<QPushButton *> out;
    for (int i = 0; i < m_figures->count(); ++i) {
        auto *b = qobject_cast<QPushButton *>(m_figures->itemAt(i)->widget());
        if (b && !m_cleared.contains(b))
            out << b;
    }
    return out;
}

} // namespace rd::ui
