#pragma once

#include "domain/store/action_refused.h"

#include "domain/store/db_session.h"
#include <nlohmann/json.hpp>

#include <string>

namespace rd {

/// Closes the provider's month (`month`: its first day) in the database's close_month: one
/// transaction, the acting operator the login role. Returns the close's JSON; ActionRefused
/// (month_close_refused, RD015, with the database's sentence; provider_not_registered) when
/// the month cannot be closed.
nlohmann::json closeMonth(DbRef db, const std::string &providerKey, const std::string &month);
/// The close with its findings (month_close_report); null when the month is not closed.
nlohmann::json monthCloseReport(DbRef db, const std::string &providerKey, const std::string &month);

} // namespace rd
