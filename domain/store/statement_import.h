#pragma once

#include "domain/core/statement.h"
#include "domain/core/statement_pages.h"
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
/// another provider than the statement's throws InputError. `proof` is recorded in the run: an
/// unproven statement opens no not_in_statement case and cannot serve a month close. The same
/// statement imported before is compared again (a new run naming the earlier: alreadyImported).
/// The statement's money back (#40) is recorded through record_money_movements; only with
/// `listsMoneyBack` (every page of the kind's money back lists is here) and a proven `proof`
/// is a recorded movement of its days that it lacks not_in_statement.
StatementImportResult importStatement(DbRef db, const std::string &providerKey,
    const Statement &statement, const StatementDays &days, bool dryRun,
    PagesProof proof = PagesProof::Unproven, bool listsMoneyBack = false);

/// The whole of an import from its files, as `renewalctl statement import|fetch` and the desk
/// run it: the provider's kind from the database (ActionRefused provider_not_registered), the
/// files read by that kind's adapter (InputError naming the file, object and path), the days
/// `from`/`to` where given, each else the first or last day of the month all its paid days fall
/// in, or, when they span months, its first or last paid day (InputError when it holds no paid
/// renewal to tell them by), then importStatement. A manifest among the files
/// (statement_pages.h, recognized by its "format") is checked against the others (InputError
/// field "manifest") and proves them complete; its days are the default and the bound.
/// Otherwise the completeness is `claimed`: Fetched for pages read from the API in this run,
/// Stated for the operator's --pages-complete, Unproven else. The money back lists are known
/// complete when the manifest names each of them, or the pages were fetched in this run
/// (StatementFile::list); never for pages given by hand without a manifest.
StatementImportResult importStatementFiles(DbRef db, const std::string &providerKey,
    const std::vector<StatementFile> &files, const std::optional<std::string> &from,
    const std::optional<std::string> &to, bool dryRun, PagesProof claimed = PagesProof::Unproven);

} // namespace rd
