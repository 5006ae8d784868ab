#pragma once

#include "domain/store/case_action_results.h"

#include <string>
#include <vector>

namespace rd {

/// The first line of what attaching a snapshot would do, for people: "attaching would create
/// subscription sub_1 from the snapshot" (`renewalctl snapshot attach --preview`).
std::string previewHeadline(const SnapshotAttachment &a, const std::string &providerSubscriptionId);

/// What became (or would become) of renewals, in words: the case's renewal recorded as the
/// renewal of the period the snapshot makes current, why the case's renewal is not, and every
/// open case's renewal the subscription is moved past without recording it. Said before
/// anything is written when `preview` (#28).
std::vector<std::string> renewalSentences(const SnapshotAttachment &a, bool preview);

} // namespace rd
