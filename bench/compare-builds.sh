#!/usr/bin/env bash
# Compares `renewalctl bench` of two builds side by side on one scratch cluster, in interleaved
# rounds (the disk's flush latency drifts), each on a fresh database migrated by its own
# build's migrations. For "the core's throughput stays within noise" after a change.
#
# Usage: bench/compare-builds.sh OLD_SOURCE_DIR OLD_BUILD_DIR [ROUNDS] [RENEWALS] [SUBSCRIPTIONS]
#   e.g. git worktree add /tmp/old <rev> && RENEWAL_DESK_BUILD_DIR=/tmp/old/build /tmp/old/scripts/build.sh
#        bench/compare-builds.sh /tmp/old /tmp/old/build 5
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
new_ctl="$ctl"
old_src="$1"
old_ctl="$2/app/renewalctl/renewalctl"
rounds="${3:-5}"
renewals="${4:-30000}"
subs="${5:-20000}"

scratch_cluster rd-bench "$new_ctl"

run() { # CTL MIGRATIONS_DIR
    local db
    db=$(fresh_scratch_db rdbench)
    RENEWAL_DESK_MIGRATIONS="$2" "$1" migrate --db "$db" >/dev/null
    psql "$url" -qAt -c "CHECKPOINT" >/dev/null
    RENEWAL_DESK_MIGRATIONS="$2" "$1" bench --db "$db" --subscriptions "$subs" \
        --renewals "$renewals" --workers 8 --duplicates 0 --json \
        | sed -E 's/.*"renewalsPerSecond":([0-9.]+).*/\1/'
}
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ { print $2 }') GiB; $renewals renewals over $subs subscriptions, 8 workers, a round = old then new"
olds=() news=()
for round in $(seq 1 "$rounds"); do
    olds+=("$(run "$old_ctl" "$old_src/migrations")")
    news+=("$(run "$new_ctl" "$here/migrations")")
    printf 'round %d: old %.0f renewals/s, new %.0f renewals/s\n' "$round" "${olds[-1]}" "${news[-1]}"
done
old=$(median "${olds[@]}") new=$(median "${news[@]}")
awk -v o="$old" -v n="$new" 'BEGIN { printf "median: old %.0f, new %.0f renewals/s (new/old %.3f)\n", o, n, n / o }'
