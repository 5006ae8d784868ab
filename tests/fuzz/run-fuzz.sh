#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) over the pure core's CMake target and
# runs each for a bounded time. Exits non-zero when any target crashes; the crashing input is
# left in $OUT/artifacts (turn it into a fixture and fix the code).
#
#   FUZZ_SECONDS    seconds per target (default 20)
#   FUZZ_BUILD_DIR  where to build and keep the working corpora (default: a fresh temp dir)
#   FUZZ_CXX        the compiler (default clang++-14)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${FUZZ_BUILD_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/rd-fuzz.XXXXXX")}"
SECONDS_PER_TARGET="${FUZZ_SECONDS:-20}"
CXX="${FUZZ_CXX:-clang++-14}"

mkdir -p "$OUT/artifacts" "$OUT/seeds"

# The targets link the pure core's CMake target and nothing else: RD_FUZZING configures only
# domain/core and tests/fuzz, without Qt or libpqxx, so a core that needed them fails here.
echo "fuzz: building in $OUT with $CXX"
SAN="-fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
cmake -S "$ROOT" -B "$OUT/build" -DRD_FUZZING=ON -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_CXX_FLAGS="-O1 -g $SAN -fsanitize=fuzzer-no-link" \
    -DCMAKE_EXE_LINKER_FLAGS="$SAN" > "$OUT/configure.log" \
    || { cat "$OUT/configure.log"; exit 1; }
cmake --build "$OUT/build" -j "$(nproc)" > "$OUT/build.log" 2>&1 || { tail -n 60 "$OUT/build.log"; exit 1; }
TARGETS=(fuzz_adapters fuzz_renewal_event fuzz_snapshot fuzz_signatures)
for t in "${TARGETS[@]}"; do
    cp "$OUT/build/tests/fuzz/$t" "$OUT/$t"
done

# Seed corpora from the fixtures. The adapter and snapshot targets read a selector byte first.
FIX="$ROOT/tests/fixtures"
rm -rf "$OUT/seeds" && mkdir -p "$OUT/seeds/fuzz_adapters" "$OUT/seeds/fuzz_renewal_event" \
    "$OUT/seeds/fuzz_snapshot" "$OUT/seeds/fuzz_signatures"
# The selector byte is the kind's index in rd::providerKinds(): the target prints their names.
mapfile -t providers < <("$OUT/fuzz_adapters" -list_kinds=1)
if [ ${#providers[@]} -eq 0 ]; then
    echo "fuzz: fuzz_adapters -list_kinds=1 printed no provider kinds" >&2
    exit 1
fi
for i in "${!providers[@]}"; do
    # The octal escape is printed, not captured: $(...) would drop the NUL byte of index 0.
    byte="\\$(printf '%03o' "$i")"
    for f in "$FIX/${providers[$i]}"/*.json; do
        [ -f "$f" ] || continue # a kind without fixtures yet
        { printf "$byte"; cat "$f"; } > "$OUT/seeds/fuzz_adapters/${providers[$i]}_$(basename "$f")"
    done
done
for f in "$FIX"/snapshots/*.json; do
    name=$(basename "$f")
    case "$name" in
        stripe_*) byte='\001' ;;
        paddle_*) byte='\002' ;;
        *) byte='\000' ;;
    esac
    { printf "$byte"; cat "$f"; } > "$OUT/seeds/fuzz_snapshot/$name"
done
# Renewal events in our JSON form: the latestRenewal of the snapshot fixtures, plus those.
cp "$FIX"/snapshots/ours_*.json "$OUT/seeds/fuzz_renewal_event/"
python3 - "$FIX/snapshots" "$OUT/seeds/fuzz_renewal_event" <<'PY' || true
import json, pathlib, sys
for p in pathlib.Path(sys.argv[1]).glob("ours_*.json"):
    r = json.loads(p.read_text()).get("latestRenewal")
    if r:
        (pathlib.Path(sys.argv[2]) / ("event_" + p.name)).write_text(json.dumps(r))
PY
# Signature headers: selector byte (the kind's index; the number of kinds selects the secrets-file
# parser), the header's length in two little-endian bytes, the header, the body. Signed with
# the target's own secret so that the seeds start on the accepting path.
python3 - "$OUT/seeds/fuzz_signatures" "${providers[@]}" <<'PY'
import hashlib, hmac, pathlib, struct, sys
out, kinds = pathlib.Path(sys.argv[1]), sys.argv[2:]
body = b'{"id":"evt_1","type":"invoice.paid","data":{"object":{"amount_paid":1200}}}'
mac = lambda msg: hmac.new(b"whsec_fuzz_current", msg, hashlib.sha256).hexdigest().encode()
headers = {
    "stripe": b"t=1700000000,v1=" + mac(b"1700000000." + body) + b",v0=00",
    "paddle": b"ts=1700000000;h1=" + mac(b"1700000000:" + body),
    "recurly": b"1700000000000," + mac(b"1700000000000." + body),
    "lemonsqueezy": mac(body),
    "chargebee": b"Basic ZnV6ejpjdXJyZW50",
}
for i, kind in enumerate(kinds):
    h = headers.get(kind, b"")
    (out / kind).write_bytes(bytes([i]) + struct.pack("<H", len(h)) + h + body)
texts = [b'{"stripe-main": {"secrets": ["whsec_a", "whsec_b"]}, "cb": {"basicAuth": ["u:p"]}}',
         b'{"k": {"secrets": [""], "basicAuth": ["nocolon"], "x": 1}}']
for j, t in enumerate(texts):
    (out / f"secrets_{j}").write_bytes(bytes([len(kinds)]) + t)
PY

status=0
for t in "${TARGETS[@]}"; do
    mkdir -p "$OUT/corpus/$t"
    echo "fuzz: running $t for ${SECONDS_PER_TARGET}s"
    if ! "$OUT/$t" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
        -max_len=16384 -print_final_stats=1 -artifact_prefix="$OUT/artifacts/$t-" \
        "$OUT/corpus/$t" "$OUT/seeds/$t" > "$OUT/$t.log" 2>&1; then
        echo "fuzz: $t FAILED; log: $OUT/$t.log, inputs: $OUT/artifacts/"
        tail -n 40 "$OUT/$t.log"
        status=1
    else
        grep -E '^stat::number_of_executed_units' "$OUT/$t.log" || true
    fi
done
exit $status
