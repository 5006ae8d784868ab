#include "ui/models/chainbreaktext.h"

#include "domain/store/audit_verification.h"
#include "domain/store/database_backup.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <array>
#include <utility>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::ChainBreakText)
};

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString problemText(const std::string &stored)
{
    const QString problem = QString::fromStdString(stored);
    using namespace chain_problem;
    const std::array<std::pair<std::string_view, QString>, 6> fixed {{
        {kAltered, Tr::tr("row content does not match its hash (altered)")},
        {kRowsBeforeMissing, Tr::tr("rows before this one are missing (removed)")},
        {kPreviousHash, Tr::tr("the previous row's hash does not match (altered or removed)")},
        {kRowBeforeMissing, Tr::tr("the row before this one is missing (removed)")},
        {kAnchoredRowGone,
            Tr::tr("the anchored row is gone (removed since the anchor was exported)")},
        {kAnchoredRowRewritten,
            Tr::tr("the anchored row's hash changed (rewritten since the anchor was exported)")},
    }};
    for (const auto &[english, words] : fixed) {
        if (problem == qs(english))
            return words;
    }
    // audit_billing_period_breaks()'s two sentences, which name the renewal and its figures.
    static const QRegularExpression unrecorded(
        u"^billing period of renewal (.+) has no audit row recording it \\(added, or its record "
        "removed\\)$"_qs);
    static const QRegularExpression altered(
        u"^billing period of renewal (.+) holds (\\S+) (\\S+) for (\\S+) to (\\S+), its audit row "
        "recorded (\\S+) (\\S+) for (\\S+) to (\\S+) \\(altered\\)$"_qs);
    if (const auto m = unrecorded.match(problem); m.hasMatch())
        return Tr::tr("billing period of renewal %1 has no audit row recording it (added, or its "
                      "record removed)")
            .arg(m.captured(1));
    if (const auto m = altered.match(problem); m.hasMatch())
        return Tr::tr("billing period of renewal %1 holds %2 %3 for %4 to %5, its audit row "
                      "recorded %6 %7 for %8 to %9 (altered)")
            .arg(m.captured(1), m.captured(2), m.captured(3), m.captured(4), m.captured(5),
                m.captured(6), m.captured(7), m.captured(8), m.captured(9));
    return problem;
}

} // namespace

QString chainBreakText(const ChainBreak &b)
{
    const bool isCase = b.chain == "reconciliation_case_history";
    const QString id = QString::fromStdString(b.chainId);
    const QString subject = b.subscription.empty()
        ? QString()
        : QString::fromStdString(b.provider + " " + b.subscription);
    const QString whose = isCase
        ? (subject.isEmpty() ? Tr::tr("case %1").arg(id)
                             : Tr::tr("case %1 of subscription %2").arg(id, subject))
        : (subject.isEmpty() ? Tr::tr("subscription (chain %1)").arg(id)
                             : Tr::tr("subscription %1 (chain %2)").arg(subject, id));
    const QString where = b.rowId <= 0 ? Tr::tr(", position %1").arg(b.seq)
        : isCase ? Tr::tr(", history row %1 at position %2").arg(b.rowId).arg(b.seq)
                 : Tr::tr(", audit row %1 at position %2").arg(b.rowId).arg(b.seq);
    return whose + where + u": "_qs + problemText(b.problem);
}

QString schemaRuleDifferenceText(const SchemaRuleDifference &d)
{
    const QString rule = QString::fromStdString(d.rule);
    const QString restored = QString::fromStdString(d.restored);
    const QString expected = QString::fromStdString(d.expected);
    if (d.expected.empty())
        return Tr::tr("%1: only in the restored database ('%2')").arg(rule, restored);
    if (d.restored.empty())
        return Tr::tr("%1: missing from the restored database (the migrations make '%2')")
            .arg(rule, expected);
    return Tr::tr("%1: restored '%2', the migrations make '%3'").arg(rule, restored, expected);
}

} // namespace rd::ui
