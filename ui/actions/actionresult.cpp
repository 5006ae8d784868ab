#include "ui/actions/actionresult.h"

namespace rd::ui {

ActionResult ActionResult::refused(const rd::ActionRefused &refusal)
{
    return {
        Kind::Refused, QString::fromUtf8(refusal.what()), QString::fromStdString(refusal.code())};
}

ActionResult ActionResult::failed(const QString &summary)
{
    return {Kind::Failed, summary, u"error"_qs};
}

} // namespace rd::ui
