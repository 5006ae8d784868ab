#pragma once

#include "domain/store/db_session.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

namespace rd {

/// The operator actions and the lookups around them over one database connection, for
/// programs that do not use libpqxx themselves (the desk). The connection opens on first use
/// as the conninfo's login role, so the database judges every action as that operator.
///
/// Not thread-safe: a session belongs to the thread that uses it (one connection per thread).
/// Failures throw what the functions of case_actions.h throw: ActionRefused for a refusal,
/// DatabaseUnavailable when the server cannot be reached, UnknownAnswer for an answer this
/// program does not know, DatabaseFailure (ConnectionLost) for the rest of what the database
/// reports; never a libpqxx type.
class OperatorSession
{
public:
    explicit OperatorSession(std::string conninfo);
    ~OperatorSession();
    OperatorSession(const OperatorSession &) = delete;
    OperatorSession &operator=(const OperatorSession &) = delete;

    /// Runs `action` (one of the store's own functions: case_actions.h, month_close.h,
    /// statement_import.h) over this session's connection, translating libpqxx's errors as
    /// the class comment says: `session.run([&](DbRef db) { return rd::reapplyCase(db, id, note);
    /// })`. The store's functions are the one interface; the session adds the connection and the
    /// translation, not a second copy of each action.
    template<class Action>
    auto run(Action &&action) -> std::invoke_result_t<Action &, DbRef>
    {
        using Answer = std::invoke_result_t<Action &, DbRef>;
        if constexpr (std::is_void_v<Answer>) {
            runOnConnection([&](DbRef db) { action(db); });
        } else {
            std::optional<Answer> answer;
            runOnConnection([&](DbRef db) { answer.emplace(action(db)); });
            return std::move(*answer);
        }
    }

    /// The provider a case is about: its key, and its kind ("stripe", ...) when the provider
    /// is registered with one. ActionRefused "case_not_found" when there is no such case.
    struct CaseProvider
    {
        std::string providerKey;
        std::optional<std::string> kind;
    };
    CaseProvider providerOfCase(std::int64_t caseId);

private:
    void runOnConnection(const std::function<void(DbRef)> &body);

    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace rd
