#pragma once

class QComboBox;

namespace rd::ui {

/// Fills `box` with the operator actions' reason codes (caseActionReasonCodes(), each under
/// its label) and chooses none: the reason recorded in a case's history is the one a person
/// picked, never a default ("Choose a reason…" until then).
void fillReasonBox(QComboBox *box);

} // namespace rd::ui
