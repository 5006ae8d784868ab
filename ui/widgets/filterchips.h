#pragma once

#include <QList>
#include <QString>
#include <QWidget>

class QHBoxLayout;
class QLabel;
class QToolButton;

namespace rd::ui {

/// The filters a list is narrowed by, each a removable chip ("Provider: stripe ✕"), then
/// "Clear all": what a drill-down set stays in sight, and goes by a click or by the keyboard
/// (Tab to a chip, Space). A note beside them says what the desk did to the filters by itself
/// ("Filters cleared to show sub_1"). Hidden while there is neither.
class FilterChips : public QWidget
{
    Q_OBJECT

public:
    struct Chip
    {
        QString key; ///< what removed() names: the page's own word for the filter
        QString text; ///< "Provider: stripe"
    };

    explicit FilterChips(QWidget *parent = nullptr);

    /// The chips shown now, in order (replaces the ones shown).
    void setChips(const QList<Chip> &chips);
    QList<Chip> chips() const { return m_chips; }
    /// The chip of `key`'s button, or nullptr.
    QToolButton *chipButton(const QString &key) const;
    QToolButton *clearAllButton() const { return m_clearAll; }
    void setNote(const QString &note);
    QString note() const;
    /// Where the keyboard goes when the chip that had it went with the last filter (the
    /// page's list): never nowhere.
    void setFocusFallback(QWidget *widget) { m_fallback = widget; }

signals:
    /// The chip of `key` was clicked: the page drops that filter.
    void removed(const QString &key);
    /// "Clear all": the page drops every filter a chip shows.
    void clearAllRequested();

private:
    void updateVisibility();

    QList<Chip> m_chips;
    QHBoxLayout *m_row;
    QList<QToolButton *> m_buttons;
    QToolButton *m_clearAll;
    QLabel *m_note;
    QWidget *m_fallback = nullptr;
};

} // namespace rd::ui
