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

QString tr(const char *text)
{
    return QCoreApplication::translate("rd::ui::CasesPage", text);
}

} // namespace

QString caseActionName(CaseActions::Action action)
{
    switch (action) {
    case CaseActions::Action::Reapply:
        return QObject::tr("Re-apply");
    case CaseActions::Action::Dismiss:
        return QObject::tr("Dismiss");
    case CaseActions::Action::AttachSnapshot:
        return QObject::tr("Attach provider snapshot");
    case CaseActions::Action::Claim:
        return QObject::tr("Claim");
    case CaseActions::Action::Release:
        return QObject::tr("Release");
    case CaseActions::Action::Note:
        return QObject::tr("Note on");
    case CaseActions::Action::Reopen:
        return QObject::tr("Reopen");
    }
    return {};
}

QString askCaseNote(
    QWidget *parent, CaseActions::Action action, qint64 caseId, const QString &holder)
{
    using Action = CaseActions::Action;
    const bool reopen = action == Action::Reopen;
    QDialog dialog(parent);
    dialog.setWindowTitle(action == Action::Note ? tr("Note on case %1").arg(caseId)
            : reopen                             ? tr("Reopen case %1").arg(caseId)
            : action == Action::Claim
            ? tr("Take over case %1 from %2").arg(caseId).arg(holder)
            : tr("Release %2's claim on case %1").arg(caseId).arg(holder));
    auto *text = new QPlainTextEdit;
    text->setObjectName(u"case-note-text"_qs);
    text->setPlaceholderText(action == Action::Note
            ? tr("What you learned (\"customer says the card was charged twice\")")
            : reopen
            ? tr("Why it is open again (\"dismissed by mistake: case 12 was "
                 "meant\"): the case's history keeps it")
            : tr("Why (\"%1 is out this week\"): the case's history keeps it").arg(holder));
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
    const QVector<qint64> &caseIds, const QStringList &lines)
{
    const bool dismiss = action == CaseActions::Action::Dismiss;
    OperatorNoteDialog dialog(caseActionName(action), 0, dismiss, parent);
    const auto n = caseIds.size();
    dialog.setCases(dismiss ? (n == 1 ? tr("Dismissing closes this case, without recording its "
                                           "renewal:")
                                      : tr("Dismissing closes these %1 cases, without recording "
                                           "their renewals:")
                                            .arg(n))
                            : (n == 1 ? tr("Re-applies this case through the renewal core:")
                                      : tr("Re-applies these %1 cases through the renewal core, "
                                           "one at a time:")
                                            .arg(n)),
        lines);
    QStringList shown;
    for (int i = 0; i < std::min<int>(6, int(n)); ++i)
        shown << QString::number(caseIds[i]);
    dialog.setWindowTitle(
        (dismiss ? tr("Dismiss %1").arg(caseCountText(n)) : tr("Re-apply %1").arg(caseCountText(n)))
        + u": "_qs + shown.join(u", "_qs) + (n > shown.size() ? u", …"_qs : QString()));
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return CaseActionNote {dialog.reason(), dialog.comment()};
}

} // namespace rd::ui
