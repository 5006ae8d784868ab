#pragma once

#include "ui/models/comparisonline.h"

#include <QVariant>
#include <QVector>

namespace rd::ui {

/// An audit record's details (subscription_transition_audits.details) as a before → after
/// table in the desk's words: the subscription's state before the transition against the
/// state it left (a renewal's "after" is the period it set: `periodStart`/`periodEnd`, µs or
/// null), the lines that changed marked; then what else the record says (amount paid, the
/// snapshot and case it came from) in the "after" column. Never raw JSON.
QVector<ComparisonLine> auditDetailLines(
    const QString &detailsJson, const QVariant &periodStart = {}, const QVariant &periodEnd = {});

} // namespace rd::ui
