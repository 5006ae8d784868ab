#pragma once

#include "ui/models/comparisonline.h"

#include <QString>
#include <QVector>

namespace rd::ui {

/// The evidence of a case side by side: what the desk holds locally against what the provider
/// sent, one line per field, with the lines that disagree marked.
struct CaseEvidence
{
    /// `other` is the incoming event; a differing line's note says "differs", or "blocks the
    /// renewal" for a local fact the event has no counterpart of (status, cancellation).
    using Line = ComparisonLine;
    QString localTitle; ///< "stored billing period", "current period"
    QString incomingTitle; ///< "incoming event (evt_…)"
    QVector<Line> lines;
    /// The finding in one sentence: "Amount differs: $20.00 stored, $24.00 incoming",
    /// "The renewal starts 29 days after the current period ends (gap of 29 days)".
    QString finding;
    /// What to do next about the case, for every reason the database opens cases with
    /// (rd::caseNextStep, in the desk's language); empty only for a code this build does not
    /// know.
    QString nextStep;
};

/// Builds the evidence from a case's error code, its `event` and `local_state` JSON (the desk's
/// state when the case opened); `subscriptionInDeskNow`: the case's subscription exists now
/// (reconciliation_cases.subscription_id), created since if the case opened without it.
CaseEvidence buildCaseEvidence(const QString &errorCode, const QString &eventJson,
    const QString &localStateJson, bool subscriptionInDeskNow = false);

} // namespace rd::ui
