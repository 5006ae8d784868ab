#include "ui/actions/actionresult.h"

#include <QCoreApplication>
#include <QHash>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::ActionResult)
};

// Every refusal the database raises (domain/store/action_refused.cpp's list), in one sentence
// the desk can translate. The database's own sentence carries the particulars (which case, by
// whom, when) in English; a translated desk says this first, then that. tst_ui_translations
// checks that every refusal has one.
const QHash<QString, const char *> &refusalHeadlines()
{
    static const QHash<QString, const char *> headlines {
        {u"case_not_found"_qs, QT_TRANSLATE_NOOP("rd::ui::ActionResult", "There is no such case.")},
        {u"case_already_closed"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult", "The case is closed already.")},
        {u"case_not_reapplicable"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult",
                "The case has no complete renewal to re-apply; attach a provider snapshot.")},
        {u"note_required"_qs, QT_TRANSLATE_NOOP("rd::ui::ActionResult", "A note is required.")},
        {u"invalid_reason"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult", "Choose one of the listed reasons.")},
        {u"stale_snapshot"_qs,
            QT_TRANSLATE_NOOP(
                "rd::ui::ActionResult", "The snapshot is older than the one already recorded.")},
        {u"provider_renewal_key_payload_conflict"_qs,
            QT_TRANSLATE_NOOP(
                "rd::ui::ActionResult", "The renewal key is recorded already with other facts.")},
        {u"snapshot_rewinds_period"_qs,
            QT_TRANSLATE_NOOP(
                "rd::ui::ActionResult", "The snapshot would move the current period backwards.")},
        {u"snapshot_case_mismatch"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult",
                "The snapshot is of another subscription than the case's.")},
        {u"snapshot_renewal_mismatch"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult",
                "The snapshot's renewal does not agree with the one recorded.")},
        {u"provider_exists"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult", "The provider is registered already.")},
        {u"snapshot_from_the_future"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult", "The snapshot is dated in the future.")},
        {u"provider_not_registered"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult", "The provider is not registered.")},
        {u"statement_run_closed"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult", "The statement run is finished already.")},
        {u"month_close_refused"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult", "The month cannot be closed now.")},
        {u"case_not_reopenable"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult", "The case cannot be reopened.")},
        {u"delivery_not_found"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult", "There is no such delivery.")},
        {u"delivery_not_invalid"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult", "The delivery is not an invalid one.")},
        {u"delivery_already_reviewed"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult", "The delivery was reviewed already.")},
        {u"retention_not_configured"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult", "No retention is configured.")},
        {u"purge_needs_operator"_qs,
            QT_TRANSLATE_NOOP(
                "rd::ui::ActionResult", "Removing bodies of an age you choose needs an operator.")},
        {u"work_busy"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult",
                "The same work is running elsewhere; try again when it has finished.")},
        {u"subscription_not_found"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult", "There is no such subscription.")},
        {u"access_extension_refused"_qs,
            QT_TRANSLATE_NOOP("rd::ui::ActionResult",
                "The grace cannot be extended: the last day must be after today and at most 90 "
                "days ahead, and the subscription's access must not have ended.")},
    };
    return headlines;
}

} // namespace

QString refusalHeadline(const QString &code)
{
    const auto headline = refusalHeadlines().constFind(code);
    return headline == refusalHeadlines().cend() ? QString() : Tr::tr(*headline);
}

QString refusalText(const QString &code, const QString &sentence)
{
    const auto headline = refusalHeadlines().constFind(code);
    if (headline == refusalHeadlines().cend())
        return sentence;
    const QString translated = Tr::tr(*headline);
    // In English the database's sentence says it all, and better; translated, the desk's
    // sentence comes first and the database's particulars after it.
    return translated == QLatin1String(*headline) ? sentence
                                                  : translated + u" ("_qs + sentence + u')';
}

ActionResult ActionResult::refused(const rd::ActionRefused &refusal)
{
    const QString code = QString::fromStdString(refusal.code());
    return {Kind::Refused, refusalText(code, QString::fromUtf8(refusal.what())), code};
}

ActionResult ActionResult::failed(const QString &summary)
{
    return {Kind::Failed, summary, u"error"_qs};
}

} // namespace rd::ui
