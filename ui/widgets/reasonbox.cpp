#include "ui/widgets/reasonbox.h"

#include "ui/models/casereasons.h"

#include <QComboBox>
#include <QCoreApplication>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::ReasonBox)
};

} // namespace

void fillReasonBox(QComboBox *box)
{
    for (const QString &code : caseActionReasonCodes())
        box->addItem(reasonLabel(code), code);
    box->setPlaceholderText(Tr::tr("Choose a reason…"));
    box->setCurrentIndex(-1);
}

} // namespace rd::ui
