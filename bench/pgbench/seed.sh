#!/usr/bin/env bash
# Seeds N active subscriptions of provider 'pgbench' (ids pgb-1..pgb-N) for the pgbench
# scripts, through renewalctl's import. Usage: seed.sh RENEWALCTL CONNINFO N
set -euo pipefail
ctl="$1" db="$2" n="$3"
"$ctl" migrate --db "$db" >/dev/null
seq 1 "$n" | awk '{ printf "{\"providerKey\":\"pgbench\",\"providerSubscriptionId\":\"pgb-%d\",\"status\":\"active\",\"currentPeriod\":{\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2026-02-01T00:00:00Z\"},\"cancelAtPeriodEnd\":false,\"providerVersion\":null}\n", $1 }' \
    | "$ctl" subscriptions import --db "$db" >/dev/null
