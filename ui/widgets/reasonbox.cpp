#include "ui/widgets/reasonbox.h"

#include "ui/models/casereasons.h"

#include <QComboBox>

namespace rd::ui {

void fillReasonBox(QComboBox *box)
{
    for (const QString &code : caseActionReasonCodes())
        box->addItem(reasonLabel(code), code);
    box->setPlaceholderText(QComboBox::tr("Choose a reason…"));
    box->setCurrentIndex(-1);
}

} // namespace rd::ui
