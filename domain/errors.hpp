#pragma once

#include <stdexcept>
#include <string>

namespace rd {

/// Input that cannot be accepted: a malformed event, a bad import line, an unparsable payload.
/// `field` names what was wrong (a JSON path such as "period.start" or "line 12: currency").
class InputError : public std::runtime_error
{
public:
    InputError(std::string field, const std::string &message)
        : std::runtime_error(field.empty() ? message : field + ": " + message)
        , m_field(std::move(field))
    { }
    const std::string &field() const { return m_field; }

private:
    std::string m_field;
};

/// The database cannot be reached or set up (server down, cluster cannot start).
class DatabaseUnavailable : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// The database is reachable but refuses the project's schema or an operation's
/// precondition (a changed migration, a missing role, ...). Not the caller's input.
class SetupError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// The command line itself is wrong.
class UsageError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

} // namespace rd
