#!/usr/bin/env bash
# Compares the renewal transaction's shapes on this machine, one after the other, on a scratch
# cluster of its own: pgbench running the single-statement script, pgbench running the
# statement-by-statement script (both -M prepared, pgbench's fastest mode), then
# `renewalctl bench` (the real client: prepared call, retries, case recording), all with 8
# clients/workers.
#
# Usage: bench/compare.sh [SECONDS] [SUBSCRIPTIONS]   (defaults: 30 s, 20000)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RENEWAL_DESK_BUILD_DIR:-$here/build}"
ctl="$build/app/renewalctl/renewalctl"
seconds="${1:-30}"
subs="${2:-20000}"
clients=8

bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
dir=$(mktemp -d /tmp/rd-bench-XXXXXX)
chmod 755 "$dir"
trap '"$ctl" db stop --data-dir "$dir/cluster" >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT

"$ctl" db start --data-dir "$dir/cluster" >/dev/null
url=$("$ctl" db url --data-dir "$dir/cluster")
fresh_db() {
    psql "$url" -qAt -c "DROP DATABASE IF EXISTS rdbench" -c "CREATE DATABASE rdbench" >/dev/null 2>&1
    echo "${url/dbname=\'renewal_desk\'/dbname=rdbench}"
}
run_pgbench() {
    local script=$1 db
    db=$(fresh_db)
    "$here/bench/pgbench/seed.sh" "$ctl" "$db" "$subs"
    "$bindir/pgbench" "$db" -n -M prepared -c "$clients" -j 2 -T "$seconds" -D subscriptions="$subs" \
        -f "$here/bench/pgbench/$script" 2>/dev/null | awk '/^tps/ { print $3 }'
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ { print $2 }') GiB, PostgreSQL $("$bindir/postgres" --version | awk '{ print $3 }'), fsync on"
single=$(run_pgbench single-statement.sql)
echo "pgbench single statement:        $single tps"
stepwise=$(run_pgbench statement-by-statement.sql)
echo "pgbench statement by statement:  $stepwise tps"
db=$(fresh_db)
# As many renewals as pgbench would do in the same time at the single-statement rate.
renewals=$(awk -v t="$single" -v s="$seconds" 'BEGIN { printf "%d", t * s }')
result=$("$ctl" bench --db "$db" --subscriptions "$subs" --renewals "$renewals" \
    --workers "$clients" --duplicates 0 --json)
ours=$(echo "$result" | sed -E 's/.*"renewalsPerSecond":([0-9.]+).*/\1/')
echo "renewalctl bench --workers 8:    $ours renewals/s   $result"
awk -v o="$ours" -v a="$single" -v b="$stepwise" \
    'BEGIN { printf "ratio to single statement: %.2fx, to statement by statement: %.2fx\n", o / a, o / b }'
