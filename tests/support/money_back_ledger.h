#pragma once

// What money back left in the ledger (#40): movements, their audit rows, their outbox intents.
// Exactly once means each grows by one a movement, whatever records it.

#include "tests/support/test_database.h"

namespace rdtest {

struct MoneyBackLedger
{
    long long movements = 0;
    long long audits = 0;
    long long intents = 0;
    bool operator==(const MoneyBackLedger &) const = default;
};

inline MoneyBackLedger moneyBackLedgerOf(const TestDatabase &db)
{
    return {scalar(db, "SELECT count(*) FROM money_movements"),
        scalar(db,
            "SELECT count(*) FROM subscription_transition_audits "
            "WHERE transition = 'money_movement_recorded'"),
        scalar(db, "SELECT count(*) FROM subscription_outbox WHERE payload ? 'movementId'")};
}

} // namespace rdtest
