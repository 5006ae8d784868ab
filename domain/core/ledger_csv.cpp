#include "domain/core/ledger_csv.h"

namespace rd::ledger_csv {

const std::vector<std::string> &rowTitles()
{
    static const std::vector<std::string> titles {"Subscription", "Subscription internal id",
        "Provider", "Renewal key", "Period start", "Period end", "Amount", "Amount currency",
        "Amount minor units", "Paid at", "Recorded by", "Provider event", "Billing period id"};
    return titles;
}

const std::vector<csv::Kind> &rowKinds()
{
    using K = csv::Kind;
    static const std::vector<K> kinds {K::Text, K::Text, K::Text, K::Text, K::Text, K::Text,
        K::Number, K::Text, K::Number, K::Text, K::Text, K::Text, K::Text};
    return kinds;
}

const std::vector<std::string> &totalsTitles()
{
    static const std::vector<std::string> titles {
        "group", "month", "provider", "currency", "renewals", "amount", "amount minor units"};
    return titles;
}

const std::vector<csv::Kind> &totalsKinds()
{
    using K = csv::Kind;
    static const std::vector<K> kinds {
        K::Text, K::Text, K::Text, K::Text, K::Number, K::Number, K::Number};
    return kinds;
}

} // namespace rd::ledger_csv
