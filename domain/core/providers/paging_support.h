#pragma once

// Helpers shared by the kinds' list paging (<kind>/paging.cpp): reading a list page's cursor
// the way its provider documents it. What is wrong with a page is thrown as BadListPage.

#include "domain/core/providers/provider.h"

#include <string>

namespace rd::providers {

/// `object`'s member `name`; nullptr when `object` is no object or lacks it.
const nlohmann::json *member(const nlohmann::json &object, const char *name);

/// `page` holds the array `name` of listed objects.
void requireListArray(const nlohmann::json &page, const char *name);

/// `holder`'s has_more; `where` ("meta.pagination.") names the holder in the message.
bool pageHasMore(const nlohmann::json &holder, const std::string &where);

/// Paddle's and Recurly's shape: `has_more`, and beside it `next`, the link to the next page.
NextPage linkWhileHasMore(const nlohmann::json &holder, const std::string &where);

/// The first page's request with `parameter`=`value` added.
NextPage firstWith(std::string parameter, std::string value);

/// Decimal Unix seconds of the second `t` falls in (floor, also before 1970).
std::string unixSecondsText(Timestamp t);

} // namespace rd::providers
