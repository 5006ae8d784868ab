#include "domain/core/ledger_csv.h"

namespace rd::ledger_csv {

const std::vector<std::string> &rowTitles()
{
    static const std::vector<std::string> titles {"Subscription", "Subscription internal id",
        "Provider", "Renewal key", "Period start", "Period end", "Amount", "Amount currency",
        "Amount minor units", "Paid at", "Recorded by", "Provider event", "Billing period id",
        "Kind", "Movement key"};
    return titles;
}

const std::vector<csv::Kind> &rowKinds()
{
    using K = csv::Kind;
    static const std::vector<K> kinds {K::Text, K::Text, K::Text, K::Text, K::Text, K::Text,
        K::Number, K::Text, K::Number, K::Text, K::Text, K::Text, K::Text, K::Text, K::Text};
    return kinds;
}

const std::vector<std::string> &totalsTitles()
{
    static const std::vector<std::string> titles {"group", "month", "provider", "currency",
        "renewals", "amount", "amount minor units", "basis", "from", "to", "provider filter",
        "currency filter", "recorded by filter", "refunded", "refunded minor units", "disputed",
        "disputed minor units", "net", "net minor units"};
    return titles;
}

const std::vector<csv::Kind> &totalsKinds()
{
    using K = csv::Kind;
    static const std::vector<K> kinds {K::Text, K::Text, K::Text, K::Text, K::Number, K::Number,
        K::Number, K::Text, K::Text, K::Text, K::Text, K::Text, K::Text, K::Number, K::Number,
        K::Number, K::Number, K::Number, K::Number};
    return kinds;
}

std::vector<std::string> scopeFields(const TotalsScope &scope)
{
    const auto filter = [](const std::string &v) { return v.empty() ? std::string("all") : v; };
    return {scope.basis, scope.from, scope.to, filter(scope.provider), filter(scope.currency),
        filter(scope.recordedBy)};
}

} // namespace rd::ledger_csv
