#!/usr/bin/env bash
# The receiver's throughput and latency, against the renewal core's own, on one scratch
# cluster in one run: wrk (8 connections) replays RENEWALS distinct pre-signed Stripe renewals
# to one `renewalctl serve` (8 database connections), each round on a fresh database, then
# `renewalctl bench --workers 8` applies as many renewals straight through the core. A last
# run paces wrk at half the receiver's median rate for the latency there.
#
# Usage: bench/receiver-bench.sh [ROUNDS] [RENEWALS] [SECONDS]     (3 40000 15)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
presign="$build/bench/renewal-presign"
rounds="${1:-3}"
renewals="${2:-40000}"
seconds="${3:-15}"
port="${RD_BENCH_PORT:-18480}"
command -v wrk >/dev/null || { echo "receiver-bench: needs wrk (apt-get install wrk)" >&2; exit 69; }

serve_pid=""
scratch_cluster rd-rxbench
at_exit '[ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null'
dburl() { scratch_db "$1"; }
fresh() { # NAME: an empty, migrated database
    "$ctl" migrate --db "$(fresh_scratch_db "$1")" >/dev/null
}

# RENEWALS distinct renewals: the demo's Stripe export (at most 5,000 subscriptions, as many
# months as it takes), invoice.paid only, in the order they were paid. A subscription's next
# renewal comes thousands of deliveries after its last one, so 8 connections never deliver
# one before its predecessor (nothing waits to heal).
set_subs=$(( renewals < 5000 ? renewals : 5000 ))
set_months=$(( (renewals + set_subs - 1) / set_subs + 1 ))
"$ctl" demo --replay-set "$dir" --subscriptions "$set_subs" --months "$set_months" --seed 3 >/dev/null
grep -F '"type":"invoice.paid"' "$dir/stripe-events.jsonl" \
    | awk '{ match($0, /"created":[0-9]+/); print substr($0, RSTART + 10, RLENGTH - 10) "\t" $0 }' \
    | sort -n -s -k1,1 | cut -f2- | awk -v n="$renewals" 'NR <= n' > "$dir/renewals.jsonl"
[ "$(wc -l < "$dir/renewals.jsonl")" -eq "$renewals" ] || { echo "receiver-bench: expected $renewals renewals" >&2; exit 70; }
secret="whsec_bench_$(date +%s)"
"$presign" --kind stripe --secret "$secret" < "$dir/renewals.jsonl" > "$dir/deliveries.txt"
printf '{"stripe-main": {"secrets": ["%s"]}}\n' "$secret" > "$dir/secrets.json"
chmod 600 "$dir/secrets.json"

receiver_db() { # NAME: a fresh database with the provider and the subscriptions
    fresh "$1"
    "$ctl" providers add stripe-main --kind stripe --db "$(dburl "$1")" >/dev/null
    "$ctl" subscriptions import "$dir/subscriptions.jsonl" --db "$(dburl "$1")" >/dev/null
    psql "$url" -qAt -c "CHECKPOINT" >/dev/null
}
start_receiver() { # NAME
    "$ctl" serve --listen "127.0.0.1:$port" --secrets "$dir/secrets.json" --connections 8 \
        --tolerance-seconds 86400 --db "$(dburl "$1")" > "$dir/serve.log" 2> "$dir/serve.err" &
    serve_pid=$!
    for _ in $(seq 1 100); do
        curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "receiver-bench: the receiver did not come up" >&2; cat "$dir/serve.err" >&2; exit 70
}
stop_receiver() { # sets serve_cpu: the receiver's CPU seconds
    serve_cpu=$(awk -v t="$(proc_ticks "$serve_pid" 2)" -v hz="$ticks" 'BEGIN { print t / hz }')
    kill "$serve_pid"; wait "$serve_pid" || true; serve_pid=""
    sleep 0.5 # the postmaster reaps the receiver's backends: their time joins pg_cpu
}
run_wrk() { # DELAY_MS -> the RD_RESULT line
    local result
    result=$( { TIMEFORMAT='%U %S'; time RD_DELIVERIES="$dir/deliveries.txt" RD_WRK_THREADS=2 \
        RD_DELAY_MS="$1" wrk -t2 -c8 -d"$seconds"s --timeout 10s \
        -s "$here/bench/receiver/presigned.lua" "http://127.0.0.1:$port" > "$dir/wrk.out"; } 2>&1)
    awk '{ print $1 + $2 }' <<< "$result" > "$dir/wrk.cpu"
    result=$(grep '^RD_RESULT' "$dir/wrk.out")
    if [ "$(field wrapped "$result")" != 0 ]; then
        echo "receiver-bench: wrk sent every renewal before ${seconds}s were up: give more RENEWALS" >&2
        exit 70
    fi
    echo "$result"
}
field() { sed -E "s/.* $1=([0-9.]+).*/\1/" <<< "$2"; }
check_db() { # NAME RESULT: every delivery applied once and answered; none without outcome
    local target
    target=$(dburl "$1")
    q() { psql "$target" -qAt -c "$1"; }
    local periods applied other requests
    periods=$(q "SELECT count(*) FROM subscription_billing_periods")
    applied=$(q "SELECT count(*) FROM webhook_inbox WHERE outcome = 'applied'")
    other=$(q "SELECT count(*) FROM webhook_inbox WHERE outcome IS DISTINCT FROM 'applied'")
    requests=$(field requests "$2")
    # wrk stops with up to 8 requests in flight: committed, but not counted by wrk; and each
    # of its 2 threads may have sent one health check (presigned.lua).
    if [ "$periods" -ne "$applied" ] || [ "$other" -ne 0 ] || [ "$applied" -lt $((requests - 2)) ] \
        || [ "$applied" -gt $((requests + 8)) ]; then
        echo "receiver-bench: $requests answered, $applied applied, $periods billing periods, $other other outcomes:" >&2
        q "SELECT outcome, error, count(*) FROM webhook_inbox WHERE outcome IS DISTINCT FROM 'applied' GROUP BY 1, 2" >&2
        exit 70
    fi
}
# CPU seconds, from /proc: PostgreSQL's (the postmaster, its live children and the backends it
# has reaped) and one process's own. Read before and after a run: the difference per delivery
# says where the machine's time went.
ticks=$(getconf CLK_TCK)
pg_cpu() {
    local pm total=0 pid
    pm=$(head -1 "$dir/cluster/data/postmaster.pid")
    total=$(proc_ticks "$pm" 4)
    for pid in $(pgrep -P "$pm"); do total=$((total + $(proc_ticks "$pid" 2))); done
    awk -v t="$total" -v hz="$ticks" 'BEGIN { printf "%.3f", t / hz }'
}
proc_ticks() { # PID FIELDS: utime + stime (+ cutime + cstime when FIELDS is 4), in ticks
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || { echo 0; return; }
    awk -v n="$2" '{ s = 0; for (i = 12; i < 12 + n; i++) s += $i; print s }' <<< "${stat##*) }"
}
per_op() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.2f", (b - a) * 1000 / n }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g | awk '/Mem:/ { print $2 }') GiB"
echo "wrk -t2 -c8 for ${seconds}s of distinct Stripe renewals (of $renewals); serve --connections 8; bench --workers 8 (20000 renewals of 20000 subscriptions)"
rx=() core=()
for round in $(seq 1 "$rounds"); do
    receiver_db rxbench
    start_receiver rxbench
    pg0=$(pg_cpu)
    result=$(run_wrk 0)
    stop_receiver
    pg1=$(pg_cpu)
    check_db rxbench "$result"
    n=$(field requests "$result")
    rate=$(awk -v r="$n" -v d="$(field duration_us "$result")" 'BEGIN { printf "%.0f", r / (d / 1e6) }')
    rx+=("$rate")
    rx_cpu="postgres $(per_op "$pg0" "$pg1" "$n"), receiver $(per_op 0 "$serve_cpu" "$n"), wrk $(per_op 0 "$(cat "$dir/wrk.cpu")" "$n")"
    fresh corebench
    psql "$url" -qAt -c "CHECKPOINT" >/dev/null
    pg0=$(pg_cpu)
    out=$( { TIMEFORMAT='%U %S'; time "$ctl" bench --db "$(dburl corebench)" --subscriptions 20000 \
        --renewals 20000 --workers 8 --duplicates 0 --json > "$dir/bench.out"; } 2>&1)
    sleep 0.5
    pg1=$(pg_cpu)
    core+=("$(sed -E 's/.*"renewalsPerSecond":([0-9.]+).*/\1/' "$dir/bench.out")")
    # The bench's setup (20,000 subscriptions) runs inside the same command: its CPU is
    # counted too, so the core's figures are an upper bound.
    core_cpu="postgres $(per_op "$pg0" "$pg1" 20000), bench client $(per_op 0 "$(awk '{ print $1 + $2 }' <<< "$out")" 20000)"
    printf 'round %d: receiver %s deliveries/s (p50 %s ms, p99 %s ms, errors %s); core bench %.0f renewals/s\n' \
        "$round" "$rate" "$(field p50_ms "$result")" "$(field p99_ms "$result")" "$(field errors "$result")" "${core[-1]}"
    printf '  CPU ms per delivery: %s; per core renewal: %s\n' "$rx_cpu" "$core_cpu"
done
rx_median=$(median "${rx[@]}") core_median=$(median "${core[@]}")
awk -v r="$rx_median" -v c="$core_median" 'BEGIN { printf "median: receiver %.0f deliveries/s, core %.0f renewals/s: receiver/core %.2f\n", r, c, r / c }'

# Half the receiver's median rate: each of the 8 connections waits between requests.
receiver_db rxbench
start_receiver rxbench
half=$(awk -v r="$rx_median" 'BEGIN { print r / 2 }')
delay=$(awk -v h="$half" 'BEGIN { d = 8000 / h - 2; if (d < 0) d = 0; printf "%d", d }')
result=$(run_wrk "$delay")
stop_receiver
check_db rxbench "$result"
awk -v r="$(field requests "$result")" -v d="$(field duration_us "$result")" -v p50="$(field p50_ms "$result")" \
    -v p99="$(field p99_ms "$result")" -v h="$half" \
    'BEGIN { printf "at half the rate (target %.0f/s, achieved %.0f/s): p50 %s ms, p99 %s ms\n", h, r / (d / 1e6), p50, p99 }'
