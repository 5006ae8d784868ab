#pragma once

#include "domain/core/apply_result.h"
#include "domain/core/rejection_code.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace rd {

// The database's answers read strictly: a name this program does not know comes from a newer
// schema and is refused (UnknownAnswer), never guessed. `from` names what answered
// ("apply_webhook_renewal", "claim_case") for the message.

/// "applied", "duplicate" or "rejected".
ApplyOutcome applyOutcomeAnswer(std::string_view name, std::string_view from);
/// A rejection code of the renewal core ("renewal_period_is_not_contiguous").
RejectionCode rejectionAnswer(std::string_view code, std::string_view from);
/// The code that must come with a rejection: UnknownAnswer when it is missing.
RejectionCode rejectionOfRejected(const std::optional<std::string> &code, std::string_view from);

/// A sum of minor units the database answered as numeric text ("-1500", any size: never
/// parsed into 64 bits) as its decimal in major units of `currency`; UnknownAnswer naming
/// `from` when it is not such a number.
std::string majorUnitsAnswer(
    std::string_view minor, std::string_view currency, std::string_view from);

[[noreturn]] void throwUnknownAnswer(
    std::string_view what, std::string_view name, std::string_view from);

/// A name of `Enum` (one of `names`, each spelled by toString(Enum)) read strictly.
template<class Enum>
Enum namedAnswer(std::string_view name, std::initializer_list<Enum> names, std::string_view what,
    std::string_view from)
{
    for (const Enum value : names) {
        if (toString(value) == name)
            return value;
    }
    throwUnknownAnswer(what, name, from);
}

} // namespace rd
