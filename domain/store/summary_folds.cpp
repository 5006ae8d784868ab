#include "domain/store/summary_folds.h"
#include "domain/store/internal/pqxx_session.h"

#include <pqxx/pqxx>

namespace rd {

SummaryFolds foldSummaries(DbRef db)
{
    pqxx::connection &conn = pqxxOf(db);
    // Autocommit, one statement each: a fold holds its advisory lock only for its own work.
    pqxx::nontransaction tx(conn);
    SummaryFolds folds;
    folds.renewalDeltas = tx.exec1("SELECT public.fold_renewal_totals()")[0].as<long long>();
    folds.inboxDayRows = tx.exec1("SELECT public.fold_inbox_days()")[0].as<long long>();
    folds.moneyBackDeltas = tx.exec1("SELECT public.fold_money_back_totals()")[0].as<long long>();
    return folds;
}

} // namespace rd
