#!/usr/bin/env bash
# Configures and builds into ./build (or $RENEWAL_DESK_BUILD_DIR), installing missing
# Debian packages first.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RENEWAL_DESK_BUILD_DIR:-$here/build}"

"$here/scripts/deps.sh"
if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr >/dev/null
fi
cmake --build "$build" --parallel "$(nproc)"
