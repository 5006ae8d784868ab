#include "domain/core/providers/paging_support.h"

namespace rd::providers {

const nlohmann::json *member(const nlohmann::json &object, const char *name)
{
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(name);
    return it == object.end() ? nullptr : &*it;
}

void requireListArray(const nlohmann::json &page, const char *name)
{
    const auto *list = member(page, name);
    if (!list || !list->is_array())
        throw BadListPage(std::string("no \"") + name + "\" list");
}

bool pageHasMore(const nlohmann::json &holder, const std::string &where)
{
    const auto *more = member(holder, "has_more");
    if (!more || !more->is_boolean())
        throw BadListPage(where + "has_more is missing or not true/false");
    return more->get<bool>();
}

NextPage linkWhileHasMore(const nlohmann::json &holder, const std::string &where)
{
    if (!pageHasMore(holder, where))
        return {};
    const auto *next = member(holder, "next");
    if (!next || !next->is_string())
        throw BadListPage("has_more without " + where + "next");
    return {NextPage::Kind::Link, {}, next->get<std::string>()};
}

NextPage firstWith(std::string parameter, std::string value)
{
    return {NextPage::Kind::FirstWithParameter, std::move(parameter), std::move(value)};
}

std::string unixSecondsText(Timestamp t)
{
    // Floor division: an instant before 1970 still names the second it falls in.
    const std::int64_t s = t.micros >= 0 ? t.micros / 1000000 : -((-t.micros + 999999) / 1000000);
    return std::to_string(s);
}

} // namespace rd::providers
