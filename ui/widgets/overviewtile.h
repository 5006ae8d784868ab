#pragma once

#include <QFrame>
#include <QPointer>
#include <QPushButton>

#include <functional>

class QLabel;
class QMouseEvent;
class QVBoxLayout;

namespace rd::ui {

/// One of the Overview's numbers: a title and one or more figures, each a flat button that
/// opens the list behind it. A click anywhere else on the tile (its title, its margins, a
/// figure that opens nothing) opens what its first figure that opens something opens, and the
/// pointer says so; the keyboard reaches that figure by Tab.
class OverviewTile : public QFrame
{
    Q_OBJECT

public:
    explicit OverviewTile(const QString &title, QWidget *parent = nullptr);

    void setTitle(const QString &title);
    QString title() const;
    /// Removes the figures (before showing new ones): the ones not added again right after
    /// (in the same turn of the event loop) go.
    void clearFigures();
    /// Adds a figure; `alert` draws it in red (something waits for a person). `onClick` null:
    /// a figure that opens nothing (shown as plain text). A figure of the same name that was
    /// cleared keeps its button: the page reads its figures again every few seconds, and a
    /// new button each time took the keyboard's focus away from the one tabbed to.
    QPushButton *addFigure(const QString &objectName, const QString &text, const QString &toolTip,
        std::function<void()> onClick, bool alert = false, bool large = true);
    QList<QPushButton *> figures() const;
    /// The figure a click on the tile opens (nullptr: the tile opens nothing).
    QPushButton *opens() const { return m_opens; }

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    QLabel *m_title;
    QVBoxLayout *m_figures;
    QList<QPointer<QPushButton>> m_cleared; ///< cleared, not added again (yet)
    int m_added = 0; ///< figures added since the last clearFigures()
    QPointer<QPushButton> m_opens; ///< the first figure added that opens something
};

} // namespace rd::ui
