#!/usr/bin/env bash
# scripts/live-demo.sh without the desk, on a cluster of its own: the receiver starts, every
# simulated delivery is acknowledged, today's renewals are recorded through the webhook path
# (what the Overview's "Renewals today" counts), one for each delivery the receiver applied,
# and the receiver is gone afterwards.
#   tests/live_demo_test.sh BUILD_DIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export RENEWAL_DESK_BUILD_DIR="$1"
ctl="$1/app/renewalctl/renewalctl"
dir="$(mktemp -d /tmp/rd-live-demo-XXXXXX)"
chmod 755 "$dir" # the cluster's own account reaches its data directory below
export RENEWAL_DESK_DATA_DIR="$dir/data"
trap '"$ctl" db stop >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
port=$((20000 + RANDOM % 20000))

out="$("$root/scripts/live-demo.sh" --no-desk --rate 50 --subscriptions 10 --port "$port")"
summary="$(tail -1 <<<"$out")"
echo "$summary"
grep -q '"gaveUp":0' <<<"$summary" || { echo "FAIL: deliveries given up" >&2; exit 1; }
grep -q '"unfinished":0' <<<"$summary" || { echo "FAIL: deliveries unfinished" >&2; exit 1; }

url="$("$ctl" db url)"
today="$(psql "$url" -Atc "SELECT count(*) FROM subscription_billing_periods
    WHERE recorded_by = 'webhook' AND paid_at >= date_trunc('day', now() AT TIME ZONE 'UTC')
    AT TIME ZONE 'UTC' AND period_start >= date_trunc('day', now() AT TIME ZONE 'UTC')
    AT TIME ZONE 'UTC'")"
echo "renewals paid today for periods starting today: $today"
[ "$today" -gt 0 ] || { echo "FAIL: no renewal paid today" >&2; exit 1; }
applied="$(grep -o '"applied":[0-9]*' <<<"$summary" | cut -d: -f2)"
[ "$today" -eq "$applied" ] || { echo "FAIL: $applied applied, $today recorded" >&2; exit 1; }

# The receiver and the publisher stopped with the script.
if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
    echo "FAIL: the receiver still answers" >&2
    exit 1
fi
echo "PASS"
