#!/usr/bin/env bash
# Builds Renewal Desk, starts the embedded PostgreSQL, migrates it, loads demo data the first
# time, and opens the desk. Extra arguments go to renewal-desk.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RENEWAL_DESK_BUILD_DIR:-$here/build}"

"$here/scripts/build.sh"
ctl="$build/app/renewalctl/renewalctl"
"$ctl" db start
"$ctl" migrate
if "$ctl" help 2>/dev/null | grep -q "^  demo"; then
    # Only into a database that has no subscriptions yet: the demo is for a new desk.
    "$ctl" demo --if-empty
fi
exec "$build/app/renewal-desk/renewal-desk" "$@"
