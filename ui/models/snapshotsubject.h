#pragma once

#include "ui/models/snapshotdiff.h"

#include "domain/core/adapters/provider_kinds.h"

#include <optional>

class QSqlDatabase;

namespace rd::ui {

/// What the attach-snapshot dialog compares a snapshot with: the case's subscription as
/// attach_provider_snapshot() will find it, and its provider's kind (how a pasted provider
/// object is read; none for a provider registered before kinds were kept).
struct SnapshotSubject
{
    CaseSubscription subscription;
    std::optional<rd::ProviderKind> kind;
};

/// Case `caseId`'s subject in one statement (a pool thread; rd::DatabaseFailure); nothing when
/// there is no such case.
std::optional<SnapshotSubject> loadSnapshotSubject(QSqlDatabase &db, qint64 caseId);

} // namespace rd::ui
