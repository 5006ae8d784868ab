#include "ui/widgets/overviewtile.h"

#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

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
    while (QLayoutItem *item = m_figures->takeAt(0)) {
        delete item->widget();
        delete item;
    }
}

QPushButton *OverviewTile::addFigure(const QString &objectName, const QString &text,
    const QString &toolTip, std::function<void()> onClick, bool alert, bool large)
{
    auto *button = new QPushButton(text);
    button->setObjectName(objectName);
    button->setFlat(true);
    button->setToolTip(toolTip);
    QFont font = button->font();
    if (large) {
        font.setPointSizeF(font.pointSizeF() * 1.25);
        font.setBold(true);
    }
    button->setFont(font);
    const QString color = alert ? u"#b02020"_qs : u"palette(text)"_qs;
    button->setStyleSheet(u"QPushButton { text-align: left; border: none; padding: 1px 2px; "
                          "color: %1; } QPushButton:hover { background: #e8f0fb; "
                          "text-decoration: underline; }"_qs.arg(color));
    if (onClick) {
        button->setCursor(Qt::PointingHandCursor);
        connect(button, &QPushButton::clicked, this, [onClick = std::move(onClick)] { onClick(); });
    } else {
        button->setFocusPolicy(Qt::NoFocus);
        button->setAttribute(Qt::WA_TransparentForMouseEvents);
    }
    m_figures->addWidget(button);
    return button;
}

QList<QPushButton *> OverviewTile::figures() const
{
    QList<QPushButton *> out;
    for (int i = 0; i < m_figures->count(); ++i) {
        if (auto *b = qobject_cast<QPushButton *>(m_figures->itemAt(i)->widget()))
            out << b;
    }
    return out;
}

} // namespace rd::ui
