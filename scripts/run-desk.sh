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
# The help is read whole first: under pipefail, `grep -q` leaving early would make the
# pipeline fail with SIGPIPE and skip the demo.
help_text="$("$ctl" help 2>/dev/null || true)"
if grep -q "^  demo" <<<"$help_text"; then
    # Only into a database that has no subscriptions yet: the demo is for a new desk.
    # The demo's statements go beside the embedded cluster (the same root as
    # EmbeddedCluster::defaultRoot), where the user guide's "Statements" section (docs/user-guide.md) imports them from.
    root="${RENEWAL_DESK_DATA_DIR:-}"
    if [ -z "$root" ]; then
        if [ "$(id -u)" = 0 ]; then root=/var/lib/renewal-desk
        else root="${XDG_DATA_HOME:-$HOME/.local/share}/renewal-desk"; fi
    fi
    "$ctl" demo --if-empty --statements "$root/statements"
fi
exec "$build/app/renewal-desk/renewal-desk" "$@"
