#pragma once

#include "ui/actions/caseactions.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

class QWidget;

namespace rd::ui {

/// "Re-apply", "Dismiss", "Note on", ...: an action's name in the Cases page's dialogs and
/// outcome lines.
QString caseActionName(CaseActions::Action action);

/// Asks for the note a claim that takes a case over, a release of another's claim, a note or
/// a reopen needs (the database requires it; the case's history keeps it). `holder`: whose
/// claim it is. Modal; the note, trimmed, or empty when canceled.
QString askCaseNote(
    QWidget *parent, CaseActions::Action action, qint64 caseId, const QString &holder);

/// The operator's reason code and comment for an action.
struct CaseActionNote
{
    QString reason;
    QString comment;
};

/// Asks for the note of a bulk Re-apply or Dismiss of `caseIds`, each listed with its line of
/// `lines` ("case 12 · stripe-main/sub_1 · in_1 · Renewal period is not contiguous"), and
/// `leftOut` after them when not empty ("1 case needs a snapshot and is left out"). Modal;
/// nothing when canceled.
std::optional<CaseActionNote> askBulkNote(QWidget *parent, CaseActions::Action action,
    const QVector<qint64> &caseIds, const QStringList &lines, const QString &leftOut = {});

} // namespace rd::ui
