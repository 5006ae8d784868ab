#!/usr/bin/env bash
# Request-limit checks on both probes (status codes only), with a valid signature so that a
# request the HTTP layer lets through reaches the handler and is answered 200.
# Usage: bench/http-layer/limits.sh BINDIR   (BINDIR: the bin/ directory run.sh compiled into)
set -euo pipefail
BIN=$1
SECRET=whsec_bench_secret T=1700000000 BODY='{"id":"evt_limits"}'
SIG=$(printf '%s' "$T.$BODY" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.*= //')
"$BIN/beast_probe" 18192 "$SECRET" 2>/dev/null & BP=$!
"$BIN/httplib_probe" 18191 "$SECRET" 16 1 2>/dev/null & HP=$!
trap 'kill $BP $HP' EXIT
sleep 0.5
post() { # port extra-curl-args... -> status
    local port=$1; shift
    curl -s -o /dev/null --max-time 10 -w '%{http_code}' -X POST -H "Stripe-Signature: t=$T,v1=$SIG" \
        "$@" "http://127.0.0.1:$port/webhooks/stripe-main" || true
}
A9K=$(head -c 9000 /dev/zero | tr '\0' a); A4K=$(head -c 4000 /dev/zero | tr '\0' a)
many3=(); for i in $(seq 3); do many3+=(-H "X-F$i: $A4K"); done     # 12 KB over 3 fields
many5=(); for i in $(seq 5); do many5+=(-H "X-F$i: $A4K"); done     # 20 KB over 5 fields
many250=(); for i in $(seq 250); do many250+=(-H "X-F$i: $A4K"); done # 1 MB over 250 fields
head -c 2000000 /dev/zero >/tmp/limits-body.$$
printf '%-44s %6s %8s\n' check beast httplib
row() { local name=$1; shift; printf '%-44s %6s %8s\n' "$name" "$(post 18192 "$@")" "$(post 18191 "$@")"; }
row "valid delivery" --data-binary "$BODY"
row "one 9 KB header line" -H "X-Big: $A9K" --data-binary "$BODY"
row "12 KB of headers in 3 fields (<16 KiB)" "${many3[@]}" --data-binary "$BODY"
row "20 KB of headers in 5 fields (>16 KiB)" "${many5[@]}" --data-binary "$BODY"
row "1 MB of headers in 250 fields" "${many250[@]}" --data-binary "$BODY"
row "2 MB body" --data-binary @/tmp/limits-body.$$
rm -f /tmp/limits-body.$$
