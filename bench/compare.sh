#!/usr/bin/env bash
# Compares the renewal transaction's shapes on this machine, one after the other, on a scratch
# cluster of its own: pgbench running the single-statement script, pgbench running the
# statement-by-statement script (both -M prepared, pgbench's fastest mode), then
# `renewalctl bench` (the real client: prepared call, retries, case recording), all with 8
# clients/workers.
#
# Usage: bench/compare.sh [SECONDS] [SUBSCRIPTIONS] [ROUNDS]   (defaults: 20 s, 20000, 3)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
seconds="${1:-20}"
subs="${2:-20000}"
rounds="${3:-3}"
clients=8

scratch_cluster rd-bench
fresh_db() { fresh_scratch_db rdbench; }
# Every run starts from the same state: a fresh database and a checkpoint just taken, so that
# no run pays for another's dirty pages or full-page writes.
checkpoint() { psql "$url" -qAt -c "CHECKPOINT" >/dev/null; }
run_pgbench() {
    local script=$1 db
    db=$(fresh_db)
    "$here/bench/pgbench/seed.sh" "$ctl" "$db" "$subs"
    checkpoint
    "$bindir/pgbench" "$db" -n -M prepared -c "$clients" -j 2 -T "$seconds" -D subscriptions="$subs" \
        -f "$here/bench/pgbench/$script" 2>/dev/null | awk '/^tps/ { print $3 }'
}

run_ours() {
    local db renewals
    db=$(fresh_db)
    # About as many renewals as pgbench does in the same time.
    renewals=$(awk -v t="$1" -v s="$seconds" 'BEGIN { printf "%d", t * s }')
    checkpoint
    "$ctl" bench --db "$db" --subscriptions "$subs" --renewals "$renewals" \
        --workers "$clients" --duplicates 0 --json \
        | sed -E 's/.*"renewalsPerSecond":([0-9.]+).*/\1/'
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ { print $2 }') GiB, PostgreSQL $("$bindir/postgres" --version | awk '{ print $3 }'), fsync on, $clients clients, $seconds s a run"
# Interleaved rounds: the disk's flush latency drifts, so each round measures all three shapes
# back to back and the medians are compared.
singles=() stepwises=() ours=()
for round in $(seq 1 "$rounds"); do
    singles+=("$(run_pgbench single-statement.sql)")
    stepwises+=("$(run_pgbench statement-by-statement.sql)")
    ours+=("$(run_ours "${singles[-1]}")")
    printf 'round %d: pgbench single %.0f tps, pgbench statement-by-statement %.0f tps, renewalctl bench %.0f renewals/s\n' \
        "$round" "${singles[-1]}" "${stepwises[-1]}" "${ours[-1]}"
done
single=$(median "${singles[@]}") stepwise=$(median "${stepwises[@]}") mine=$(median "${ours[@]}")
printf 'median: pgbench single %.0f tps, pgbench statement-by-statement %.0f tps, renewalctl bench %.0f renewals/s\n' \
    "$single" "$stepwise" "$mine"
awk -v o="$mine" -v a="$single" -v b="$stepwise" \
    'BEGIN { printf "renewalctl bench: %.2fx the single statement, %.2fx the statement-by-statement script\n", o / a, o / b }'
