#pragma once

// Reading the fields of the JSON the database answers with (reports, summaries, reasons) where
// a missing or null field is shown as nothing.

#include <nlohmann/json.hpp>

#include <QString>

namespace rd::ui {

/// The field as text: a string as it is, any other value as its JSON ("7"), empty when it is
/// missing or null.
inline QString jsonText(const nlohmann::json &object, const char *key)
{
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return {};
    return QString::fromStdString(it->is_string() ? it->get<std::string>() : it->dump());
}

/// The field as an integer; 0 when it is missing or not an integer.
inline qint64 jsonInteger(const nlohmann::json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_number_integer() ? it->get<qint64>() : 0;
}

} // namespace rd::ui
