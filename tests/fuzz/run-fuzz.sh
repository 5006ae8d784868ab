#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) straight from the domain sources and
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
FLAGS=(-std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined
       -fno-sanitize-recover=undefined -I"$ROOT")

mkdir -p "$OUT/obj" "$OUT/artifacts" "$OUT/seeds"

# Only the pure domain files the targets need: no pqxx, no Qt.
SOURCES=(domain/currency.cpp domain/json_input.cpp domain/renewal_event.cpp domain/sha256.cpp
         domain/timestamp.cpp domain/provider_snapshot.cpp domain/adapters/adapter_support.cpp
         domain/adapters/normalization.cpp domain/adapters/stripe_adapter.cpp
         domain/adapters/paddle_adapter.cpp domain/adapters/chargebee_adapter.cpp
         domain/adapters/recurly_adapter.cpp domain/adapters/lemonsqueezy_adapter.cpp)

echo "fuzz: building in $OUT with $CXX"
OBJECTS=()
for src in "${SOURCES[@]}"; do
    obj="$OUT/obj/$(echo "$src" | tr '/' '_').o"
    OBJECTS+=("$obj")
    # Rebuild when the source or any domain header is newer than the object.
    if [[ ! -f "$obj" || "$ROOT/$src" -nt "$obj" ]] \
        || [[ -n "$(find "$ROOT/domain" -name '*.hpp' -newer "$obj" -print -quit)" ]]; then
        "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer-no-link -c "$ROOT/$src" -o "$obj"
    fi
done

TARGETS=(fuzz_adapters fuzz_renewal_event fuzz_snapshot)
for t in "${TARGETS[@]}"; do
    "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer "$ROOT/tests/fuzz/$t.cpp" "${OBJECTS[@]}" -o "$OUT/$t"
done

# Seed corpora from the fixtures. The adapter and snapshot targets read a selector byte first.
FIX="$ROOT/tests/fixtures"
rm -rf "$OUT/seeds" && mkdir -p "$OUT/seeds/fuzz_adapters" "$OUT/seeds/fuzz_renewal_event" \
    "$OUT/seeds/fuzz_snapshot"
providers=(stripe paddle chargebee recurly lemonsqueezy) # the order of rd::ProviderKind
for i in "${!providers[@]}"; do
    byte=$(printf "\\$(printf '%03o' "$i")")
    for f in "$FIX/${providers[$i]}"/*.json; do
        { printf '%s' "$byte"; cat "$f"; } > "$OUT/seeds/fuzz_adapters/${providers[$i]}_$(basename "$f")"
    done
done
for f in "$FIX"/snapshots/*.json; do
    name=$(basename "$f")
    case "$name" in
        stripe_*) byte=$'\x01' ;;
        paddle_*) byte=$'\x02' ;;
        *) byte=$'\x00' ;;
    esac
    { printf '%s' "$byte"; cat "$f"; } > "$OUT/seeds/fuzz_snapshot/$name"
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
