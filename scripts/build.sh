#!/usr/bin/env bash
# Configures and builds into ./build (or $RENEWAL_DESK_BUILD_DIR), installing missing
# Debian packages first. Arguments go to `cmake --build` (e.g. --target renewalctl).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RENEWAL_DESK_BUILD_DIR:-$here/build}"

"$here/scripts/deps.sh"
# Configure when the build files are missing, not when the cache is: a configure step that
# failed (a package missing on the first try) leaves a CMakeCache.txt but no Makefile, and
# building from there fails with "No rule to make target 'Makefile'".
if [ ! -f "$build/Makefile" ] && [ ! -f "$build/build.ninja" ]; then
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr >/dev/null
fi
cmake --build "$build" --parallel "$(nproc)" "$@"
