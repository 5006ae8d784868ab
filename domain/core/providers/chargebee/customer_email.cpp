// Chargebee's customer e-mail (#42): an event's content carries the customer beside the
// invoice or subscription (content.customer.email).

#include "domain/core/providers/chargebee/chargebee.h"

#include "domain/core/adapters/adapter_support.h"

namespace rd::providers {

std::string Chargebee::customerEmail(const nlohmann::json &body) const
{
    return adapters::stringAt(body, {"content", "customer", "email"});
}

} // namespace rd::providers
