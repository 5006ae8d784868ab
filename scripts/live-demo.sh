#!/usr/bin/env bash
# The live demo in one command: on the embedded database run-desk.sh uses (the demo loaded the
# first time), a webhook receiver and an outbox publisher start on this machine, the desk
# opens, and the providers keep paying renewals until Ctrl+C (or --duration seconds): wave
# after wave, `renewalctl simulate --live` imports a few new subscriptions whose period falls
# due now and posts what their providers send at --rate a second. Each wave carries renewals,
# redeliveries and Stripe's second event type, one payment that fails and is paid on the
# provider's retry (#41: in grace, then good standing), Lemon Squeezy renewals and a renewal of
# an unknown subscription (cases arriving) and a body cut short (an invalid delivery). The
# Overview's "Renewals today" counts up, the Inbox, Cases and Payment trouble show what
# arrives. Ctrl+C stops the receiver, the publisher and the wave in flight; the desk stays open.
#   scripts/live-demo.sh [--duration S] [--rate N] [--subscriptions N] [--port P] [--no-desk]
#                        [--no-build] [-- desk args]
# --duration S: no wave starts after S seconds (the one in flight finishes); default: forever.
# --subscriptions N: new subscriptions a wave (default 12).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RENEWAL_DESK_BUILD_DIR:-$here/build}"
rate=1 subscriptions=12 port=8089 desk=1 build_first=1 duration=0
while [ $# -gt 0 ]; do
    case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --rate) rate="$2"; shift 2 ;;
    --subscriptions) subscriptions="$2"; shift 2 ;;
    --port) port="$2"; shift 2 ;;
    --no-desk) desk=0; shift ;;
    --no-build) build_first=0; shift ;; # the build folder is current (the tests)
    --) shift; break ;;
    *) echo "live-demo: unknown option $1 (see the comment at the top of $0)" >&2; exit 64 ;;
    esac
done
case "$duration" in
'' | *[!0-9]*) echo "live-demo: --duration takes whole seconds (0: until Ctrl+C), not '$duration'" >&2
    exit 64 ;;
esac

[ "$build_first" = 0 ] || "$here/scripts/build.sh"
ctl="$build/app/renewalctl/renewalctl"
"$ctl" db start
"$ctl" migrate >/dev/null
# The providers the simulator posts for are the demo's: a desk without them gets them (and
# the demo's history) first.
"$ctl" demo --if-empty >/dev/null

work="$(mktemp -d /tmp/renewal-desk-live-XXXXXX)"
pids=()
cleanup() {
    # The receiver and the publisher; the desk stays open.
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Secrets of this run only: the simulator signs with them, the receiver checks them.
umask 077
secret() { od -An -N16 -tx1 /dev/urandom | tr -d ' \n'; }
cat >"$work/secrets.json" <<EOF
{"stripe-main": {"secrets": ["whsec_$(secret)"]},
 "paddle-eu": {"secrets": ["$(secret)"]},
 "recurly-main": {"secrets": ["$(secret)"]},
 "lemon-shop": {"secrets": ["$(secret)"]},
 "chargebee-us": {"basicAuth": ["demo:$(secret)"]}}
EOF

# The seed of each wave: new subscription ids for every wave of every run (a run started a
# second later begins 1000 waves further on).
seed0=$(($(date +%s) * 1000))
if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
    echo "live-demo: something already answers on port $port: choose another with --port" >&2
    exit 69
fi
"$ctl" serve --listen "127.0.0.1:$port" --secrets "$work/secrets.json" >"$work/serve.log" 2>&1 &
pids+=($!)
"$ctl" outbox publish --follow --jsonl "$work/intents.jsonl" >"$work/publish.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    sleep 0.2
done
curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null || {
    echo "live-demo: the receiver did not start on port $port:" >&2
    cat "$work/serve.log" >&2
    exit 69
}

if [ "$desk" = 1 ]; then
    "$build/app/renewal-desk/renewal-desk" "$@" &
    sleep 5 # the desk shows the Overview before the first renewal arrives
fi
if [ "$duration" = 0 ]; then
    echo "live-demo: paying renewals as they fall due, $rate a second, until Ctrl+C"
else
    echo "live-demo: paying renewals as they fall due, $rate a second, for ${duration} s"
fi
# One wave: new subscriptions imported one period back, whose renewals fall due now; the
# write step and the posting step repeat the same flags. The simulator runs in the
# background so that Ctrl+C is handled at once (a background command ignores SIGINT: the
# cleanup stops it).
wave=0 applied=0 gaveUp=0 unfinished=0
started=$SECONDS
total() { echo "{\"waves\":$wave,\"applied\":$applied,\"gaveUp\":$gaveUp,\"unfinished\":$unfinished}"; }
trap 'echo "live-demo: stopped: $(total)"; exit 130' INT TERM
# A count of the wave's JSON summary ($summary); 0 when it has none.
count() {
    local n
    n="$(grep -o "\"$1\":[0-9]*" <<<"$summary" | head -1 | cut -d: -f2)"
    echo "${n:-0}"
}
while [ "$duration" = 0 ] || [ $((SECONDS - started)) -lt "$duration" ]; do
    wave=$((wave + 1))
    flags=(--seed $((seed0 + wave)) --subscriptions "$subscriptions"
        --now "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --live)
    "$ctl" simulate "${flags[@]}" --write-subscriptions "$work/subscriptions.jsonl" >/dev/null
    "$ctl" subscriptions import "$work/subscriptions.jsonl" >/dev/null
    "$ctl" simulate "${flags[@]}" --target "http://127.0.0.1:$port" --secrets "$work/secrets.json" \
        --rate "$rate" >"$work/wave.json" 2>"$work/wave.log" &
    sim=$!
    pids+=("$sim")
    status=0
    wait "$sim" || status=$?
    unset 'pids[${#pids[@]}-1]'
    summary="$(tail -1 "$work/wave.json" 2>/dev/null || true)"
    echo "live-demo: wave $wave: $(count acknowledged) deliveries received," \
        "outcomes $(grep -o '"byOutcome":{[^}]*}' <<<"$summary" | cut -d: -f2-)"
    applied=$((applied + $(count applied)))
    gaveUp=$((gaveUp + $(count gaveUp)))
    unfinished=$((unfinished + $(count unfinished)))
    if [ "$status" -ne 0 ]; then
        cat "$work/wave.log" >&2
        echo "live-demo: the simulator exited $status in wave $wave: $(total)" >&2
        exit "$status"
    fi
done
echo "live-demo: $(total)"
