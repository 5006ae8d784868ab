#pragma once

#include "domain/core/statement.h"
#include "domain/store/db_session.h"
#include "domain/store/statement_run.h"

#include <optional>
#include <string>
#include <vector>

namespace rd {

/// Imports `statement` for `providerKey` over `days` in ONE transaction (statement_begin,
/// statement_add_lines in batches, statement_finish): all of it or nothing. With `dryRun` the
/// same transaction is rolled back at the end, so the report is the database's own. A
/// serialization failure or deadlock runs the whole import again (bounded). Refusals
/// (provider not registered, ...) throw ActionRefused; a statement whose renewals name
/// another provider than the statement's throws InputError.
StatementImportResult importStatement(DbRef db, const std::string &providerKey,
    const Statement &statement, const StatementDays &days, bool dryRun);

/// The whole of an import from its files, as `renewalctl statement import|fetch` and the desk
/// run it: the provider's kind from the database (ActionRefused provider_not_registered), the
/// files read by that kind's adapter (InputError naming the file, object and path), the days
/// `from`/`to` where given, each else the statement's first or last paid day (InputError when
/// it holds no paid renewal to tell them by), then importStatement.
StatementImportResult importStatementFiles(DbRef db, const std::string &providerKey,
    const std::vector<StatementFile> &files, const std::optional<std::string> &from,
    const std::optional<std::string> &to, bool dryRun);

} // namespace rd
