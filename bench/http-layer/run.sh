#!/usr/bin/env bash
# Reproducible HTTP-layer comparison for the webhook receiver: Boost.Beast (beast_probe) vs
# cpp-httplib 0.11.4 (httplib_probe). Needs g++, libboost-dev, libcpp-httplib-dev, libssl-dev,
# wrk, curl, python3, openssl. Usage: bench/http-layer/run.sh [OUTDIR]   (default: a temp dir)
# Environment: PROBES ("beast httplib"), HTTPLIB_POOL (16), HTTPLIB_NODELAY (1), SLOW_COUNTS
# ("16 64"), SLOW_SECONDS (65). Takes about 5 minutes. Results: OUTDIR/summary.txt, plus the
# raw wrk/curl/slow-client output.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$(mktemp -d /tmp/http-layer.XXXXXX)}
mkdir -p "$OUT"
BIN=$OUT/bin; mkdir -p "$BIN"
SECRET=whsec_bench_secret
T=1700000000   # fixed timestamp: the probes do not check the tolerance
BODY='{"id":"evt_1NbQ2kL","object":"event","type":"invoice.paid","data":{"object":{"id":"in_1NbQ2k","customer":"cus_9s6XKzkNRiz8i3","amount_paid":4900,"currency":"eur"}}}'
SIG=$(printf '%s' "$T.$BODY" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.*= //')
export PROBE_BODY=$BODY PROBE_SIG="t=$T,v1=$SIG"
HTTPLIB_POOL=${HTTPLIB_POOL:-16}
HTTPLIB_NODELAY=${HTTPLIB_NODELAY:-1}
SLOW_SECONDS=${SLOW_SECONDS:-65}
PROBES=${PROBES:-"beast httplib"}   # e.g. PROBES=httplib HTTPLIB_POOL=8 ./run.sh
SLOW_COUNTS=${SLOW_COUNTS:-"16 64"}   # slow-client test sizes

echo "== compiling (g++ -O2 -std=c++20)"
# The probes share the product's hex helper (domain/core/encoding.cpp).
ROOT=$(cd "$HERE/../.." && pwd)
g++ -O2 -std=c++20 -I"$ROOT" -o "$BIN/beast_probe" "$HERE/beast_probe.cpp" \
    "$ROOT/domain/core/encoding.cpp" -lssl -lcrypto -pthread &
g++ -O2 -std=c++20 -I"$ROOT" $(pkg-config --cflags cpp-httplib) -o "$BIN/httplib_probe" \
    "$HERE/httplib_probe.cpp" "$ROOT/domain/core/encoding.cpp" $(pkg-config --libs cpp-httplib) \
    -lssl -lcrypto -pthread
wait

S=$OUT/summary.txt
{
    echo "date: $(date -u +%FT%TZ)"
    echo "nproc: $(nproc)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
    echo "loadavg at start: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "kernel: $(uname -r)"
    echo "g++: $(g++ -dumpfullversion); boost: $(grep -m1 'define BOOST_LIB_VERSION' /usr/include/boost/version.hpp | cut -d'"' -f2); cpp-httplib: $(pkg-config --modversion cpp-httplib)"
    echo "httplib pool: $HTTPLIB_POOL threads, TCP_NODELAY $HTTPLIB_NODELAY; beast: 1 io thread + 8 workers (queue 64)"
} | tee "$S"

one_post() { # prints "code seconds"
    curl -s -o /dev/null --max-time 5 -w '%{http_code} %{time_total}\n' -X POST \
        -H 'Content-Type: application/json' -H "Stripe-Signature: $PROBE_SIG" \
        --data-binary "$PROBE_BODY" "http://127.0.0.1:$1/webhooks/stripe-main" || true
}

run_probe() { # name port cmd...
    local name=$1 port=$2; shift 2
    "$@" >"$OUT/$name.log" 2>&1 &
    local pid=$!
    sleep 0.5
    [ "$(one_post "$port" | cut -d' ' -f1)" = 200 ] || { echo "$name: smoke POST failed"; kill $pid; exit 1; }
    echo "== $name (pid $pid)" | tee -a "$S"
    for c in 8 64; do
        wrk -t2 -c$c -d15s --latency -s "$HERE/sign.lua" \
            "http://127.0.0.1:$port/webhooks/stripe-main" >"$OUT/$name.wrk-c$c.txt" 2>&1
        local rps p50 p99 non2xx errs
        rps=$(awk '/Requests\/sec/ {print $2}' "$OUT/$name.wrk-c$c.txt")
        p50=$(awk '$1=="50%" {print $2}' "$OUT/$name.wrk-c$c.txt")
        p99=$(awk '$1=="99%" {print $2}' "$OUT/$name.wrk-c$c.txt")
        non2xx=$(awk '/Non-2xx/ {print $NF}' "$OUT/$name.wrk-c$c.txt"); non2xx=${non2xx:-0}
        errs=$(grep -o 'Socket errors:.*' "$OUT/$name.wrk-c$c.txt" || echo "Socket errors: none")
        echo "$name load -c$c: ${rps} req/s, p50 $p50, p99 $p99, non-2xx $non2xx, $errs" | tee -a "$S"
    done
    for n in $SLOW_COUNTS; do
        python3 "$HERE/slow_clients.py" 127.0.0.1 "$port" "$n" "$SLOW_SECONDS" \
            >"$OUT/$name.slow-$n.json" 2>"$OUT/$name.slow-$n.err" &
        local spid=$!
        sleep 3
        : >"$OUT/$name.slow-$n.curl.txt"
        for i in $(seq 10); do one_post "$port" >>"$OUT/$name.slow-$n.curl.txt"; done
        local served median
        served=$(awk '$1==200' "$OUT/$name.slow-$n.curl.txt" | wc -l)
        median=$(awk '$1==200 {print $2}' "$OUT/$name.slow-$n.curl.txt" | sort -n |
            awk '{a[NR]=$1} END {if (NR==0) print "n/a"; else if (NR%2) printf "%.1f ms\n", a[(NR+1)/2]*1000; else printf "%.1f ms\n", (a[NR/2]+a[NR/2+1])*500}')
        wait $spid
        echo "$name slow x$n: normal POST served $served/10 (curl --max-time 5), median $median; slow connections: $(cat "$OUT/$name.slow-$n.json")" | tee -a "$S"
        sleep 1
    done
    echo "$name peak RSS (VmHWM): $(awk '/VmHWM/ {print $2, $3}' /proc/$pid/status)" | tee -a "$S"
    kill $pid; wait $pid 2>/dev/null || true
}

case " $PROBES " in *" beast "*) run_probe beast 18182 "$BIN/beast_probe" 18182 "$SECRET" ;; esac
case " $PROBES " in *" httplib "*) ;; *) echo "raw output in $OUT"; exit 0 ;; esac
run_probe httplib 18181 "$BIN/httplib_probe" 18181 "$SECRET" "$HTTPLIB_POOL" "$HTTPLIB_NODELAY"

# For the record: httplib with the library's own default, TCP_NODELAY off (load test -c8 only).
"$BIN/httplib_probe" 18183 "$SECRET" "$HTTPLIB_POOL" 0 >"$OUT/httplib-nagle.log" 2>&1 &
NPID=$!; sleep 0.5
wrk -t2 -c8 -d15s --latency -s "$HERE/sign.lua" "http://127.0.0.1:18183/webhooks/stripe-main" \
    >"$OUT/httplib-nagle.wrk-c8.txt" 2>&1
echo "httplib TCP_NODELAY off (library default) load -c8: $(awk '/Requests\/sec/ {print $2}' "$OUT/httplib-nagle.wrk-c8.txt") req/s, p50 $(awk '$1=="50%" {print $2}' "$OUT/httplib-nagle.wrk-c8.txt"), p99 $(awk '$1=="99%" {print $2}' "$OUT/httplib-nagle.wrk-c8.txt")" | tee -a "$S"
kill $NPID; wait $NPID 2>/dev/null || true
echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$S"
echo "raw output in $OUT"
