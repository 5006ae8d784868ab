#pragma once

#include <QString>

namespace rd::ui {

/// One line of a side-by-side comparison: what the desk holds locally against another source
/// (the provider's event of a case, a provider snapshot about to be attached).
struct ComparisonLine
{
    QString field;
    QString local;
    QString other;
    QString localTooltip;
    QString otherTooltip;
    bool differs = false;
    /// Why the line is marked ("differs", "blocks the renewal", "changes"); shown beside it.
    QString note;
};

} // namespace rd::ui
