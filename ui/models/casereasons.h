#pragma once

#include <QString>
#include <QStringList>

namespace rd::ui {

/// The reason codes an operator can give: rd::standardReasonCodes(), the CLI's list.
QStringList caseActionReasonCodes();
/// A reason code in words for the dialogs and the case history ("provider_confirmed" →
/// "Provider confirmed").
QString reasonLabel(const QString &code);

} // namespace rd::ui
