#!/usr/bin/env bash
# Compares `renewalctl ingest --lines` of two builds side by side on one scratch cluster, in
# interleaved rounds, each on a fresh database migrated by its own build's migrations: N
# distinct Stripe renewals (the invoice.payment_succeeded fixture, one per subscription, each
# with its own event, invoice and subscription id), one process, one connection, in order.
# Each round also times `renewalctl apply` of the same renewals (the normalized events) on
# the new build, for reference: the core alone, one statement per renewal.
#
# Usage: bench/compare-ingest.sh OLD_SOURCE_DIR OLD_BUILD_DIR [ROUNDS] [RENEWALS]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
new_ctl="$ctl"
old_src="$1"
old_ctl="$2/app/renewalctl/renewalctl"
rounds="${3:-5}"
renewals="${4:-5000}"

scratch_cluster rd-bench "$new_ctl"

python3 - "$here/tests/fixtures/stripe/renewal_pre_basil.json" "$renewals" "$dir" <<'PY'
import json, sys
body = json.dumps(json.loads(open(sys.argv[1]).read()), separators=(',', ':'))
n = int(sys.argv[2])
with open(sys.argv[3] + '/payloads.jsonl', 'w') as p, open(sys.argv[3] + '/subs.jsonl', 'w') as s:
    for i in range(n):
        tag = 'b%06d' % i
        p.write(body.replace('evt_1QxRenew0001', 'evt_' + tag)
                    .replace('in_1QxRenew0001', 'in_' + tag)
                    .replace('sub_1QxSub0001', 'sub_' + tag) + '\n')
        s.write(json.dumps({'providerKey': 'stripe-main', 'providerSubscriptionId': 'sub_' + tag,
                            'status': 'active',
                            'currentPeriod': {'start': '2025-12-01T00:00:00Z',
                                              'end': '2026-01-01T00:00:00Z'},
                            'cancelAtPeriodEnd': False, 'providerVersion': None}) + '\n')
PY
# The same renewals as events, for `apply`: the fixture's normalization, renamed alike.
"$new_ctl" normalize --kind stripe --provider-key stripe-main \
    "$here/tests/fixtures/stripe/renewal_pre_basil.json" | python3 -c '
import json, sys
event = json.dumps(json.load(sys.stdin)["event"], separators=(",", ":"))
for i in range(int(sys.argv[1])):
    tag = "b%06d" % i
    print(event.replace("evt_1QxRenew0001", "evt_" + tag).replace("in_1QxRenew0001", "in_" + tag)
               .replace("sub_1QxSub0001", "sub_" + tag))' "$renewals" > "$dir/events.jsonl"

fresh() { # CTL MIGRATIONS_DIR -> prints the database's conninfo
    local db
    db=$(fresh_scratch_db rdbench)
    RENEWAL_DESK_MIGRATIONS="$2" "$1" migrate --db "$db" >/dev/null
    "$1" providers add stripe-main --kind stripe --db "$db" >/dev/null
    "$1" subscriptions import --db "$db" "$dir/subs.jsonl" >/dev/null
    psql "$url" -qAt -c "CHECKPOINT" >/dev/null
    echo "$db"
}
timed() { # N COMMAND...: renewals per second, after checking that every one applied
    local n="$1" start end out
    shift
    start=$(date +%s.%N)
    out=$("$@" | grep -c '"applied"' || true)
    end=$(date +%s.%N)
    [ "$out" = "$n" ] || { echo "expected $n applied, got $out" >&2; exit 1; }
    awk -v n="$n" -v s="$start" -v e="$end" 'BEGIN { printf "%.0f", n / (e - s) }'
}
run_ingest() { # CTL MIGRATIONS_DIR
    local db
    db=$(fresh "$1" "$2")
    RENEWAL_DESK_MIGRATIONS="$2" timed "$renewals" "$1" ingest --db "$db" \
        --provider-key stripe-main --lines "$dir/payloads.jsonl"
}
run_apply() {
    local db
    db=$(fresh "$new_ctl" "$here/migrations")
    timed "$renewals" "$new_ctl" apply --db "$db" "$dir/events.jsonl"
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $renewals Stripe renewals, one process; a round = old ingest, new ingest, new apply"
olds=() news=() applies=()
for round in $(seq 1 "$rounds"); do
    olds+=("$(run_ingest "$old_ctl" "$old_src/migrations")")
    news+=("$(run_ingest "$new_ctl" "$here/migrations")")
    applies+=("$(run_apply)")
    printf 'round %d: ingest old %s/s, new %s/s; apply %s/s (load %s)\n' "$round" "${olds[-1]}" \
        "${news[-1]}" "${applies[-1]}" "$(cut -d' ' -f1 /proc/loadavg)"
done
old=$(median "${olds[@]}") new=$(median "${news[@]}") apply=$(median "${applies[@]}")
awk -v o="$old" -v n="$new" -v a="$apply" 'BEGIN { printf "median: ingest old %.0f, new %.0f renewals/s (new/old %.2f); apply %.0f/s\n", o, n, n / o, a }'
