// Paddle's customer e-mail (#42). A transaction or subscription webhook names its customer by
// customer_id only; the customer entity is in it when it was included (data.customer.email),
// and a customer.created / customer.updated event is the entity itself (data.email).

#include "domain/core/providers/paddle/paddle.h"

#include "domain/core/adapters/adapter_support.h"

namespace rd::providers {

std::string Paddle::customerEmail(const nlohmann::json &body) const
{
    if (const std::string type = adapters::stringAt(body, {"event_type"});
        type.rfind("customer.", 0) == 0)
        return adapters::stringAt(body, {"data", "email"});
    return adapters::stringAt(body, {"data", "customer", "email"});
}

} // namespace rd::providers
