#include "domain/store/database_answer.h"

#include "domain/core/currency.h"
#include "domain/core/errors.h"

namespace rd {

void throwUnknownAnswer(std::string_view what, std::string_view name, std::string_view from)
{
    throw UnknownAnswer(std::string(from) + " answered " + std::string(what) + " '"
        + std::string(name) + "' this program does not know: is it older than the database's "
        + "schema?");
}

std::string majorUnitsAnswer(
    std::string_view minor, std::string_view currency, std::string_view from)
{
    const auto major = formatMinorUnitsText(minor, currency);
    if (!major)
        throw UnknownAnswer(std::string(from) + " answered an amount that is not a number");
    return *major;
}

ApplyOutcome applyOutcomeAnswer(std::string_view name, std::string_view from)
{
    if (const auto outcome = applyOutcomeFromString(name))
        return *outcome;
    throwUnknownAnswer("the outcome", name, from);
}

RejectionCode rejectionAnswer(std::string_view code, std::string_view from)
{
    if (const auto rejection = rejectionCodeFromString(code))
        return *rejection;
    throwUnknownAnswer("the rejection", code, from);
}

RejectionCode rejectionOfRejected(const std::optional<std::string> &code, std::string_view from)
{
    if (!code)
        throw UnknownAnswer(std::string(from)
            + " answered a rejection without its code: is this program older than the "
              "database's schema?");
    return rejectionAnswer(*code, from);
}

} // namespace rd
