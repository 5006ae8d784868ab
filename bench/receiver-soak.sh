#!/usr/bin/env bash
# The receiver's fault soak: `renewalctl simulate` delivers the demo's payloads of every
# provider (renewals, redeliveries, both Stripe event types, a gap, a conflicting amount, a cut
# body, ...) through `renewalctl serve` and retries every non-2xx and every broken connection
# with backoff, as providers do, while the receiver is SIGKILLed every 0.3-1 s (a
# supervisor loop restarts it) and PostgreSQL is stopped the `pg_ctl -m immediate` way
# (SIGQUIT to the postmaster: no checkpoint, crash recovery on start) every RESTART_EVERY kills.
# Then the same deliveries go to a fresh database through a receiver nobody disturbs, and the
# two databases must agree: the same renewals recorded, each exactly once, no delivery without
# its outcome, the audit chains intact.
#
# Usage: bench/receiver-soak.sh [SUBSCRIPTIONS] [MONTHS] [RATE]     (800 6 20)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
subs="${1:-800}"
months="${2:-6}"
rate="${3:-20}"
port="${RD_SOAK_PORT:-18490}"
kill_min="${KILL_MIN_S:-0.3}"
kill_max="${KILL_MAX_S:-1.0}"
restart_every="${RESTART_EVERY:-100}"

scratch_cluster rd-rxsoak
at_exit 'touch "$dir/done"; pkill -9 -f "serve --listen 127.0.0.1:$port" 2>/dev/null'
dburl() { scratch_db "$1"; }

secrets='{"stripe-main": {"secrets": ["whsec_soak"]}, "paddle-eu": {"secrets": ["pdl_soak"]},
 "chargebee-us": {"basicAuth": ["hooks:soak"]}, "recurly-main": {"secrets": ["recurly_soak"]},
 "lemon-shop": {"secrets": ["lemon_soak"]}}'
echo "$secrets" > "$dir/secrets.json"
chmod 600 "$dir/secrets.json"
set_args=(--seed 11 --subscriptions "$subs" --months "$months" --now 2026-06-01T00:00:00Z)
"$ctl" simulate --write-subscriptions "$dir/subscriptions.jsonl" "${set_args[@]}" > /dev/null
prepare() { # NAME: a migrated database with the demo's providers and the subscriptions
    psql "$url" -qAt -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" >/dev/null
    local db
    db=$(dburl "$1")
    "$ctl" migrate --db "$db" >/dev/null
    for p in stripe-main:stripe paddle-eu:paddle chargebee-us:chargebee recurly-main:recurly \
        lemon-shop:lemonsqueezy; do
        "$ctl" providers add "${p%%:*}" --kind "${p##*:}" --db "$db" >/dev/null
    done
    "$ctl" subscriptions import "$dir/subscriptions.jsonl" --db "$db" >/dev/null
}
serve() { # NAME: runs a receiver in the foreground
    "$ctl" serve --listen "127.0.0.1:$port" --secrets "$dir/secrets.json" --connections 4 \
        --db "$(dburl "$1")" >> "$dir/serve.log" 2>> "$dir/serve.err"
}
simulate() { # RATE
    "$ctl" simulate --target "http://127.0.0.1:$port" --secrets "$dir/secrets.json" \
        --rate "$1" --max-attempts 100 "${set_args[@]}" 2>> "$dir/simulate.err"
}

prepare soak
# The supervisor: restarts the receiver whenever it dies.
# (Its stderr is dropped: the shell reports every SIGKILL of its child.)
( while [ ! -e "$dir/done" ]; do serve soak || true; done ) 2>/dev/null &
supervisor=$!
# The chaos: SIGKILL the receiver every few seconds; every RESTART_EVERY kills, stop PostgreSQL
# immediately and start it again.
(
    kills=0 restarts=0
    while [ ! -e "$dir/done" ]; do
        sleep "$(awk -v a="$kill_min" -v b="$kill_max" -v r="$RANDOM" 'BEGIN { printf "%.2f", a + (b - a) * r / 32767 }')"
        [ -e "$dir/done" ] && break
        if pkill -9 -f "serve --listen 127.0.0.1:$port"; then kills=$((kills + 1)); fi
        if [ $((kills % restart_every)) -eq 0 ] && [ "$kills" -gt 0 ]; then
            pid=$(head -1 "$dir/cluster/data/postmaster.pid" 2>/dev/null || true)
            if [ -n "$pid" ] && kill -QUIT "$pid" 2>/dev/null; then
                while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
                restarts=$((restarts + 1))
                sleep 1
                "$ctl" db start --data-dir "$dir/cluster" >/dev/null
            fi
        fi
        echo "$kills $restarts" > "$dir/chaos"
    done
) &
chaos=$!
echo "0 0" > "$dir/chaos"

start=$(date +%s)
simulate "$rate" > "$dir/soak.summary"
elapsed=$(( $(date +%s) - start ))
touch "$dir/done"
wait "$chaos" || true
pkill -f "serve --listen 127.0.0.1:$port" 2>/dev/null || true
wait "$supervisor" || true
read -r kills restarts < "$dir/chaos"
"$ctl" db start --data-dir "$dir/cluster" >/dev/null # in case the last restart was cut short

# The reference: the same deliveries, nobody disturbing the receiver.
rm -f "$dir/done"
prepare calm
serve calm & calm_pid=$!
for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
simulate 500 > "$dir/calm.summary"
kill "$calm_pid"; wait "$calm_pid" || true

q() { psql "$(dburl "$1")" -qAt -c "$2"; }
renewals() { q "$1" "SELECT provider_key || ' ' || provider_renewal_key || ' ' || period_start FROM subscription_billing_periods ORDER BY 1"; }
status=0
check() { # WHAT OK
    printf '%-62s %s\n' "$1" "$([ "$2" = 1 ] && echo ok || echo FAILED)"
    [ "$2" = 1 ] || status=1
}
soak_periods=$(q soak "SELECT count(*) FROM subscription_billing_periods")
echo "soak: $(tail -1 "$dir/soak.summary")"
echo "soak: ${elapsed}s, $kills receiver SIGKILLs, $restarts immediate PostgreSQL restarts, $soak_periods renewals recorded"
check "the same renewals as the undisturbed run" "$([ "$(renewals soak)" = "$(renewals calm)" ] && echo 1)"
check "one audit and one outbox intent per renewal" "$([ "$(q soak "SELECT count(*) FROM subscription_transition_audits WHERE transition = 'subscription_renewed'")" = "$soak_periods" ] && [ "$(q soak "SELECT count(*) FROM subscription_outbox")" = "$soak_periods" ] && echo 1)"
check "no delivery without an outcome" "$([ "$(q soak "SELECT count(*) FROM webhook_inbox WHERE outcome IS NULL")" = 0 ] && echo 1)"
check "the same open cases as the undisturbed run" "$([ "$(q soak "SELECT error_code, count(*) FROM reconciliation_cases WHERE status = 'open' GROUP BY 1 ORDER BY 1")" = "$(q calm "SELECT error_code, count(*) FROM reconciliation_cases WHERE status = 'open' GROUP BY 1 ORDER BY 1")" ] && echo 1)"
check "the simulator gave nothing up" "$(grep -q '"gaveUp":0' "$dir/soak.summary" && echo 1)"
check "audit verify" "$("$ctl" audit verify --db "$(dburl soak)" >/dev/null 2>&1 && echo 1)"
exit $status
