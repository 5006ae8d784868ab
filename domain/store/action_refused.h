#pragma once

#include <stdexcept>
#include <string>

namespace rd {

/// An operator action the database refused, with its code ("case_already_closed",
/// "stale_snapshot", "note_required", "invalid_reason", "case_not_found",
/// "case_not_reapplicable", "provider_renewal_key_payload_conflict") and a sentence for people
/// ("case 42 was already resolved (reapplied) by alice at 2026-...").
class ActionRefused : public std::runtime_error
{
public:
    ActionRefused(std::string code, const std::string &sentence)
        : std::runtime_error(sentence), m_code(std::move(code))
    { }
    const std::string &code() const { return m_code; }

private:
    std::string m_code;
};

} // namespace rd
