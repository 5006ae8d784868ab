#pragma once

#include <QFrame>

#include <functional>

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace rd::ui {

/// One of the Overview's numbers: a title and one or more figures, each a flat button that
/// opens the list behind it.
class OverviewTile : public QFrame
{
    Q_OBJECT

public:
    explicit OverviewTile(const QString &title, QWidget *parent = nullptr);

    void setTitle(const QString &title);
    QString title() const;
    /// Removes the figures (before showing new ones).
    void clearFigures();
    /// Adds a figure; `alert` draws it in red (something waits for a person). `onClick` null:
    /// a figure that opens nothing (shown as plain text).
    QPushButton *addFigure(const QString &objectName, const QString &text, const QString &toolTip,
        std::function<void()> onClick, bool alert = false, bool large = true);
    QList<QPushButton *> figures() const;

private:
    QLabel *m_title;
    QVBoxLayout *m_figures;
};

} // namespace rd::ui
