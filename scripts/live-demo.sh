#!/usr/bin/env bash
# The live demo in one command: on the embedded database run-desk.sh uses (the demo loaded the
# first time), a webhook receiver and an outbox publisher start on this machine, the desk
# opens, and `renewalctl simulate --live` pays today's renewals of new subscriptions at one a
# second, as the providers would deliver them. The Overview's "Renewals today" counts up, the
# Inbox and Cases show what arrives. One Stripe renewal's payment fails first (#41): its
# failure comes with the first deliveries (the subscription in grace), its retry's paid
# renewal with the last (good standing again). Stops the receiver and the publisher when the
# simulation is done or interrupted; the desk stays open.
#   scripts/live-demo.sh [--rate N] [--subscriptions N] [--port P] [--no-desk] [--no-build]
#                        [-- desk args]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RENEWAL_DESK_BUILD_DIR:-$here/build}"
rate=1 subscriptions=30 port=8089 desk=1 build_first=1
while [ $# -gt 0 ]; do
    case "$1" in
    --rate) rate="$2"; shift 2 ;;
    --subscriptions) subscriptions="$2"; shift 2 ;;
    --port) port="$2"; shift 2 ;;
    --no-desk) desk=0; shift ;;
    --no-build) build_first=0; shift ;; # the build folder is current (the tests)
    --) shift; break ;;
    *) echo "live-demo: unknown option $1 (see the comment at the top of $0)" >&2; exit 64 ;;
    esac
done

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

# New subscriptions each run (the seed is the time), imported one period back; the write
# step prints the flags the posting step must repeat.
flags=(--seed "$(date +%s)" --subscriptions "$subscriptions" --now "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    --live)
"$ctl" simulate "${flags[@]}" --write-subscriptions "$work/subscriptions.jsonl" >/dev/null
"$ctl" subscriptions import "$work/subscriptions.jsonl"

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
echo "live-demo: paying today's renewals of $subscriptions new subscriptions, $rate a second"
"$ctl" simulate "${flags[@]}" --target "http://127.0.0.1:$port" --secrets "$work/secrets.json" \
    --rate "$rate"
