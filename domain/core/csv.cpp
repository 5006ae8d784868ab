#include "domain/core/csv.h"

namespace rd::csv {

bool isPlainNumber(std::string_view value)
{
    std::size_t i = 0;
    if (i < value.size() && value[i] == '-')
        ++i;
    const auto digits = [&] {
        const std::size_t start = i;
        while (i < value.size() && value[i] >= '0' && value[i] <= '9')
            ++i;
        return i > start;
    };
    if (!digits())
        return false;
    if (i < value.size() && value[i] == '.') {
        ++i;
        if (!digits())
            return false;
    }
    return i == value.size();
}

std::string field(std::string_view value, Kind kind)
{
    std::string out;
    out.reserve(value.size() + 3);
    const bool keep = kind == Kind::Number && isPlainNumber(value);
    if (!keep && !value.empty()) {
        switch (value.front()) {
        case '=':
        case '+':
        case '-':
        case '@':
        case '\t':
        case '\r':
            out += '\'';
            break;
        default:
            break;
        }
    }
    out += value;
    if (out.find_first_of(",\"\n\r") == std::string::npos)
        return out;
    std::string quoted;
    quoted.reserve(out.size() + 2);
    quoted += '"';
    for (const char c : out) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

std::string line(const std::vector<std::string> &values, const std::vector<Kind> &kinds)
{
    std::string out;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i > 0)
            out += ',';
        out += field(values[i], i < kinds.size() ? kinds[i] : Kind::Text);
    }
    out += '\n';
    return out;
}

} // namespace rd::csv
