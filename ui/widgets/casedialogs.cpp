#include "ui/widgets/casedialogs.h"

#include "ui/models/casequeue.h"
#include "ui/widgets/dialogkeys.h"
#include "ui/widgets/operatornotedialog.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace rd::ui {
namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::CaseDialogs)
};

} // namespace

QString caseActionName(CaseActions::Action action)
{
    switch (action) {
    case CaseActions::Action::Reapply:
        return Tr::tr("Re-apply");
    case CaseActions::Action::Dismiss:
        return Tr::tr("Dismiss");
    case CaseActions::Action::AttachSnapshot:
        return Tr::tr("Attach provider snapshot");
    case CaseActions::Action::Claim:
        return Tr::tr("Claim");
    case CaseActions::Action::Release:
        return Tr::tr("Release");
    case CaseActions::Action::Note:
        return Tr::tr("Note on");
    case CaseActions::Action::Reopen:
        return Tr::tr("Reopen");
    }
    return {};
}

QString askCaseNote(
    QWidget *parent, CaseActions::Action action, qint64 caseId, const QString &holder)
{
    using Action = CaseActions::Action;
    const bool reopen = action == Action::Reopen;
    QDialog dialog(parent);
    dialog.setWindowTitle(action == Action::Note ? Tr::tr("Note on case %1").arg(caseId)
            : reopen                             ? Tr::tr("Reopen case %1").arg(caseId)
            : action == Action::Claim
            ? Tr::tr("Take over case %1 from %2").arg(caseId).arg(holder)
            : Tr::tr("Release %2's claim on case %1").arg(caseId).arg(holder));
    auto *text = new QPlainTextEdit;
    text->setObjectName(u"case-note-text"_qs);
    text->setPlaceholderText(action == Action::Note
            ? Tr::tr("What you learned (\"customer says the card was charged twice\")")
            : reopen
            ? Tr::tr("Why it is open again (\"dismissed by mistake: case 12 was "
                     "meant\"): the case's history keeps it")
            : Tr::tr("Why (\"%1 is out this week\"): the case's history keeps it").arg(holder));
    auto *box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    box->button(QDialogButtonBox::Ok)->setText(caseActionName(action).remove(u" on"_qs));
    box->button(QDialogButtonBox::Ok)->setEnabled(false);
    QObject::connect(text, &QPlainTextEdit::textChanged, box, [text, box] {
        box->button(QDialogButtonBox::Ok)->setEnabled(!text->toPlainText().trimmed().isEmpty());
    });
    QObject::connect(box, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(box, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    submitOnCtrlReturn(&dialog, box->button(QDialogButtonBox::Ok), {text});
    auto *layout = new QVBoxLayout(&dialog);
    layout->addWidget(text);
    layout->addWidget(box);
    return dialog.exec() == QDialog::Accepted ? text->toPlainText().trimmed() : QString();
}

std::optional<CaseActionNote> askBulkNote(QWidget *parent, CaseActions::Action action,
    const QVector<qint64> &caseIds, const QStringList &lines, const QString &leftOut)
{
    const bool dismiss = action == CaseActions::Action::Dismiss;
    OperatorNoteDialog dialog(caseActionName(action), 0, dismiss, parent);
    const auto n = caseIds.size();
    dialog.setCases((leftOut.isEmpty() ? QString() : leftOut + u". "_qs)
            + (dismiss ? (n == 1 ? Tr::tr("Dismissing closes this case, without recording its "
                                          "renewal:")
                                 : Tr::tr("Dismissing closes these %1 cases, without recording "
                                          "their renewals:")
                                       .arg(n))
                       : (n == 1 ? Tr::tr("Re-applies this case through the renewal core:")
                                 : Tr::tr("Re-applies these %1 cases through the renewal core, "
                                          "one at a time:")
                                       .arg(n))),
        lines);
    QStringList shown;
    for (int i = 0; i < std::min<int>(6, int(n)); ++i)
        shown << QString::number(caseIds[i]);
    dialog.setWindowTitle((dismiss ? Tr::tr("Dismiss %1").arg(caseCountText(n))
                                   : Tr::tr("Re-apply %1").arg(caseCountText(n)))
        + u": "_qs + shown.join(u", "_qs) + (n > shown.size() ? u", …"_qs : QString()));
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return CaseActionNote {dialog.reason(), dialog.comment()};
}

} // namespace rd::ui
