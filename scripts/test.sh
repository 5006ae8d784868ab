#!/usr/bin/env bash
# The whole test suite: builds, then runs every test with ctest against a PostgreSQL server
# that the run starts itself. Exits non-zero on any failure; the last line is ctest's summary.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RENEWAL_DESK_BUILD_DIR:-$here/build}"

"$here/scripts/build.sh"
cd "$build"
export QT_QPA_PLATFORM=offscreen
ctest --output-on-failure --parallel 2 "$@"
