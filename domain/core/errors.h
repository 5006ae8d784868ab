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
        , m_message(message)
    { }
    const std::string &field() const { return m_field; }
    const std::string &message() const { return m_message; }
    /// The same error located more precisely, e.g. prefixed with "line 12".
    InputError locatedAt(const std::string &where) const
    {
        return InputError(m_field.empty() ? where : where + ": " + m_field, m_message);
    }

private:
    std::string m_field;
    std::string m_message;
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

/// The database answered a name this program does not know: an outcome, a rejection code or
/// a case action's result that a newer schema added, or an answer lacking a part it must have
/// (a rejection without its code). Refused rather than guessed; a retry cannot heal it (the
/// program is older than the database's schema), hence a SetupError.
class UnknownAnswer : public SetupError
{
public:
    using SetupError::SetupError;
};

/// A database failure that is neither the caller's input nor a typed refusal (ActionRefused):
/// the store translates libpqxx's exceptions into this at its edge, so callers catch rd::
/// types only. what() is the server's message, for logs, never for an HTTP answer or an exit
/// message; sqlstate() is its five-character code when the server gave one. transient() is
/// true for what a retry can heal (40001, 40P01, a lost connection, 57P01 ...).
class DatabaseFailure : public std::runtime_error
{
public:
    DatabaseFailure(const std::string &message, std::string sqlstate, bool transient)
        : std::runtime_error(message), m_sqlstate(std::move(sqlstate)), m_transient(transient)
    { }
    const std::string &sqlstate() const { return m_sqlstate; }
    bool transient() const { return m_transient; }

private:
    std::string m_sqlstate;
    bool m_transient;
};

/// A restore's target already holds data and the restore was not forced: what() says what it
/// holds ("Renewal Desk data (schema 0036_backup_log.sql)", "12 tables, 3 functions in
/// schema public"). Nothing was changed in it.
class TargetNotEmpty : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// The server lacks group roles a restored database grants to (renewal_viewer, ...) and the
/// restoring login may not create them: what() names them and how to create them.
class RolesMissing : public SetupError
{
public:
    using SetupError::SetupError;
};

} // namespace rd
