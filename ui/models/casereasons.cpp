#include "ui/models/casereasons.h"

#include "ui/models/format.h"

#include "domain/core/operator_note.h"

#include <QCoreApplication>
#include <QHash>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::CaseReasons)
};

} // namespace

QStringList caseActionReasonCodes()
{
    QStringList codes;
    for (const std::string &code : rd::standardReasonCodes())
        codes << QString::fromStdString(code);
    return codes;
}

QString reasonLabel(const QString &code)
{
    static const QHash<QString, const char *> labels {
        {u"provider_confirmed"_qs, QT_TRANSLATE_NOOP("rd::ui::CaseReasons", "Provider confirmed")},
        {u"missing_renewal_arrived"_qs,
            QT_TRANSLATE_NOOP("rd::ui::CaseReasons", "Missing renewal arrived")},
        {u"customer_request"_qs, QT_TRANSLATE_NOOP("rd::ui::CaseReasons", "Customer request")},
        {u"duplicate_charge"_qs, QT_TRANSLATE_NOOP("rd::ui::CaseReasons", "Duplicate charge")},
        {u"data_correction"_qs, QT_TRANSLATE_NOOP("rd::ui::CaseReasons", "Data correction")},
        {u"test_data"_qs, QT_TRANSLATE_NOOP("rd::ui::CaseReasons", "Test data")},
        {u"other"_qs, QT_TRANSLATE_NOOP("rd::ui::CaseReasons", "Other")},
    };
    const auto label = labels.constFind(code);
    return label != labels.cend() ? Tr::tr(*label) : format::humanize(code);
}

} // namespace rd::ui
