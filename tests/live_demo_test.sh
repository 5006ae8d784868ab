#!/usr/bin/env bash
# scripts/live-demo.sh without the desk, on a cluster of its own: the receiver starts, every
# simulated delivery is acknowledged, the run adds today's renewals through the webhook path
# (what the Overview's "Renewals today" counts), one for each delivery the receiver applied,
# and the receiver and the publisher are gone afterwards.
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
    --port "$port" >"$dir/out.log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
    cat "$dir/out.log" >&2
    echo "FAIL: live-demo.sh exited $status" >&2
    exit 1
fi
summary="$(tail -1 "$dir/out.log")"
echo "$summary"
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
echo "PASS"
