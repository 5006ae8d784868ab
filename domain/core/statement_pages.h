#pragma once

// The list shapes of each provider's statement, for statement.cpp; not part of the domain's
// public interface.

#include "domain/core/adapters/adapter_support.h"

#include <string_view>

namespace rd::statement_pages {

/// One provider's list page and listed object.
struct PageShape
{
    ProviderKind kind;
    /// The page's array of listed objects: a file whose top-level object has it is a page.
    std::string_view itemsKey;
    /// Parse with parseKeepingDecimalText (Recurly's decimal amounts).
    bool keepsDecimalText;
    /// Whether the page says more pages follow (InputError naming the path when it cannot tell).
    bool (*saysMoreFollows)(const nlohmann::json &page);
    /// The object a listed item stands for; moves `path` onto it (Chargebee lists
    /// {"invoice": {...}}).
    const nlohmann::json &(*unwrap)(const nlohmann::json &item, std::string &path);
    /// The adapter's own classification of one object (adapter_support.h).
    NormalizeResult (*classify)(
        adapters::DeliveryIds &ids, const nlohmann::json &object, const std::string &path);
};

/// The shape for `kind`, which must be a ProviderKind of the table (provider_kinds.h).
const PageShape &pageShape(ProviderKind kind);

} // namespace rd::statement_pages
