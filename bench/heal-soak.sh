#!/usr/bin/env bash
# The out-of-order soak: a Stripe event export of SUBSCRIPTIONS x MONTHS renewals, each
# invoice delivered twice (invoice.paid, invoice.payment_succeeded), all shuffled, replayed by
# WORKERS concurrent `renewalctl replay` processes on a scratch cluster. With --kill, a killer
# SIGKILLs a random replaying process every KILL_MIN_MS..KILL_MAX_MS (default 100-400 ms; at
# 50-90 ms most runs die before they finish, and the soak takes minutes), and each killed worker starts its
# whole shard again (what a provider's retries amount to: everything again, the acknowledged
# deliveries included). At the end every renewal must be recorded exactly once, no case open,
# no delivery without an outcome, and the audit chains intact.
#
# Usage: bench/heal-soak.sh [--kill] [SUBSCRIPTIONS] [MONTHS] [WORKERS]   (200 6 8)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
kill_mode=0
if [ "${1:-}" = "--kill" ]; then
    kill_mode=1
    shift
fi
subs="${1:-200}"
months="${2:-6}"
workers="${3:-8}"
kill_min_ms="${KILL_MIN_MS:-100}"
kill_max_ms="${KILL_MAX_MS:-400}"

scratch_cluster rd-soak
at_exit 'pkill -9 -f "replay --provider-key stripe-main $dir" 2>/dev/null'
db="$url"

"$ctl" migrate --db "$db" >/dev/null
"$ctl" demo --replay-set "$dir" --subscriptions "$subs" --months "$months" --seed 7 >/dev/null
# The export's subscriptions are stripe-main's; the soak registers that key.
"$ctl" providers add stripe-main --kind stripe --db "$db" >/dev/null
"$ctl" subscriptions import "$dir/subscriptions.jsonl" --db "$db" >/dev/null
split -n "r/$workers" "$dir/stripe-events.jsonl" "$dir/shard."
payloads=$(wc -l < "$dir/stripe-events.jsonl")

start=$(date +%s.%N)
for shard in "$dir"/shard.*; do
    (
        # Replays its shard until one run completes (exit 0: nothing left open, 3: cases left).
        runs=0
        while :; do
            runs=$((runs + 1))
            rc=0
            "$ctl" replay --provider-key stripe-main "$shard" --db "$db" --json \
                > "$shard.out" 2>> "$shard.err" &
            wait $! || rc=$?
            if [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ]; then break; fi
        done
        echo "$runs" > "$shard.runs"
    ) &
done

kills=0
if [ "$kill_mode" -eq 1 ]; then
    while [ "$(ls "$dir"/shard.*.runs 2>/dev/null | wc -l)" -lt "$workers" ]; do
        sleep "$(awk -v a="$kill_min_ms" -v b="$kill_max_ms" -v r="$RANDOM" \
            'BEGIN { printf "%.3f", (a + r % (b - a + 1)) / 1000 }')"
        pid=$(pgrep -f "replay --provider-key stripe-main $dir" | shuf -n 1 || true)
        if [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; then kills=$((kills + 1)); fi
    done
fi
wait
seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')

q() { psql "$db" -qAt -c "$1"; }
periods=$(q "SELECT count(*) FROM subscription_billing_periods")
renewed=$(q "SELECT count(*) FROM subscription_transition_audits WHERE transition = 'subscription_renewed'")
outbox=$(q "SELECT count(*) FROM subscription_outbox")
open=$(q "SELECT count(*) FROM reconciliation_cases WHERE status = 'open'")
healed=$(q "SELECT count(*) FROM reconciliation_cases WHERE resolved_by = 'system'")
pending=$(q "SELECT count(*) FROM webhook_inbox WHERE outcome IS NULL")
final=$(q "SELECT count(*) FROM subscriptions s WHERE s.revision = 1 + $months AND s.current_period_end = (SELECT max(period_end) FROM subscription_billing_periods b WHERE b.subscription_id = s.id)")
runs=$(cat "$dir"/shard.*.runs | awk '{ n += $1 } END { print n }')
verify=$("$ctl" audit verify --db "$db" 2>&1 || true)

echo "machine: $(nproc) cores; $subs subscriptions x $months months, $payloads payloads, $workers workers, kill mode $kill_mode"
echo "time: ${seconds} s; SIGKILLs: $kills; replay runs: $runs"
echo "billing periods: $periods (expected $((subs * months))); renewal audits: $renewed; outbox intents: $outbox"
echo "cases healed: $healed; open cases: $open; deliveries without outcome: $pending; subscriptions at their final period: $final of $subs"
echo "audit: $verify"
[ "$periods" -eq $((subs * months)) ] && [ "$renewed" -eq "$periods" ] && [ "$outbox" -eq "$periods" ] \
    && [ "$open" -eq 0 ] && [ "$pending" -eq 0 ] && [ "$final" -eq "$subs" ]
