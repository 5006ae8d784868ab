#!/usr/bin/env bash
# scripts/live-demo.sh without the desk, on a cluster of its own. Bounded by --duration: wave
# after wave, every simulated delivery is acknowledged, each wave shows failures and cases
# arriving as well as renewals, the run adds today's renewals through the webhook path (what
# the Overview's "Renewals today" counts), one for each delivery the receiver applied, and the
# receiver and the publisher are gone afterwards. Unbounded (the default): still running after
# its second wave, until an interrupt (Ctrl+C) stops it with 130, the receiver and the
# publisher with it.
#   tests/live_demo_test.sh BUILD_DIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export RENEWAL_DESK_BUILD_DIR="$1"
ctl="$1/app/renewalctl/renewalctl"
dir="$(mktemp -d /tmp/rd-live-demo-XXXXXX)"
chmod 755 "$dir" # the cluster's own account reaches its data directory below
export RENEWAL_DESK_DATA_DIR="$dir/data"
trap '"$ctl" db stop >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT

# The desk's database as the script finds it the first time (the demo loaded), so that what
# the run adds is counted apart from the demo's history.
"$ctl" db start >/dev/null
"$ctl" migrate >/dev/null
"$ctl" demo --if-empty >/dev/null
url="$("$ctl" db url)"
paidToday() {
    psql "$url" -Atc "SELECT count(*) FROM subscription_billing_periods
        WHERE recorded_by = 'webhook'
          AND paid_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
          AND period_start >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'"
}
before="$(paidToday)"

# A port nothing answers on; the script refuses one that something does (exit 69).
for _ in 1 2 3; do
    port=$((20000 + RANDOM % 20000))
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 || break
done
status=0
timeout 300 "$root/scripts/live-demo.sh" --no-build --no-desk --rate 50 --subscriptions 10 \
    --port "$port" --duration 3 >"$dir/out.log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
    cat "$dir/out.log" >&2
    echo "FAIL: live-demo.sh exited $status" >&2
    exit 1
fi
summary="$(tail -1 "$dir/out.log")"
echo "$summary"
waves="$(grep -o '"waves":[0-9]*' <<<"$summary" | cut -d: -f2)"
[ "${waves:-0}" -ge 2 ] || { cat "$dir/out.log" >&2; echo "FAIL: one wave and done" >&2; exit 1; }
# Failures (the payment that fails first: "recorded") and cases (Lemon Squeezy's renewals:
# "needs_snapshot") arrive with the renewals in every wave.
for outcome in applied recorded needs_snapshot invalid; do
    n="$(grep -c "wave [0-9]*:.*\"$outcome\":[1-9]" "$dir/out.log" || true)"
    [ "$n" -eq "$waves" ] || { echo "FAIL: $outcome in $n of $waves waves" >&2; exit 1; }
done
grep -q '"gaveUp":0' <<<"$summary" || { echo "FAIL: deliveries given up" >&2; exit 1; }
grep -q '"unfinished":0' <<<"$summary" || { echo "FAIL: deliveries unfinished" >&2; exit 1; }

added=$(($(paidToday) - before))
echo "renewals paid today for periods starting today, added by the run: $added"
[ "$added" -gt 0 ] || { echo "FAIL: no renewal paid today" >&2; exit 1; }
applied="$(grep -o '"applied":[0-9]*' <<<"$summary" | cut -d: -f2)"
[ "$added" -eq "$applied" ] || { echo "FAIL: $applied applied, $added recorded" >&2; exit 1; }

# The receiver and the publisher stopped with the script.
if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
    echo "FAIL: the receiver still answers" >&2
    exit 1
fi
# (A backend ends a moment after its client's process: give it a few seconds.)
for _ in $(seq 25); do
    publishers="$(psql "$url" -Atc "SELECT count(*) FROM pg_stat_activity
        WHERE application_name = 'renewalctl outbox publish'")"
    [ "$publishers" -eq 0 ] && break
    sleep 0.2
done
[ "$publishers" -eq 0 ] || { echo "FAIL: $publishers publisher(s) still connected" >&2; exit 1; }

# Until Ctrl+C by default. (A command started in the background of a script ignores SIGINT;
# perl gives the demo the terminal's default back, as a presenter's shell would.)
perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' "$root/scripts/live-demo.sh" --no-build --no-desk \
    --rate 50 --subscriptions 10 --port "$port" >"$dir/endless.log" 2>&1 &
demo=$!
for _ in $(seq 600); do
    grep -q "wave 2:" "$dir/endless.log" && break
    kill -0 "$demo" 2>/dev/null || break
    sleep 0.1
done
if ! kill -0 "$demo" 2>/dev/null; then
    cat "$dir/endless.log" >&2
    echo "FAIL: the live demo ended by itself" >&2
    exit 1
fi
grep -q "wave 2:" "$dir/endless.log" || { echo "FAIL: no second wave in 60 s" >&2; exit 1; }
curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null || { echo "FAIL: no receiver" >&2; exit 1; }
kill -INT "$demo"
status=0
wait "$demo" || status=$?
tail -1 "$dir/endless.log"
[ "$status" -eq 130 ] || { echo "FAIL: interrupted, exited $status (not 130)" >&2; exit 1; }
grep -q "live-demo: stopped:" "$dir/endless.log" || { echo "FAIL: no stop line" >&2; exit 1; }
if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
    echo "FAIL: the receiver still answers after Ctrl+C" >&2
    exit 1
fi
if pgrep -f "renewalctl simulate .*127.0.0.1:$port" >/dev/null; then
    echo "FAIL: the simulator still runs after Ctrl+C" >&2
    exit 1
fi
echo "PASS"
