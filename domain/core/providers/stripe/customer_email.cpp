// Stripe's customer e-mail (#42): an invoice's `customer_email`, the address the invoice was
// sent to, copied from the customer when the invoice was finalized. The other objects (a
// subscription, a refund, a dispute) name their customer by id alone.

#include "domain/core/providers/stripe/stripe.h"

#include "domain/core/adapters/adapter_support.h"

namespace rd::providers {

std::string Stripe::customerEmail(const nlohmann::json &body) const
{
    return adapters::stringAt(body, {"data", "object", "customer_email"});
}

} // namespace rd::providers
