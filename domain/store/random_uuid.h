#pragma once

#include <string>

namespace rd {

/// A version 4 UUID from the kernel's CSPRNG. The renewal applier and the webhook ingestor
/// choose the id of what their call would write with it, so that after a lost connection only
/// the call's own commit can be taken for its outcome.
std::string randomUuid();

} // namespace rd
