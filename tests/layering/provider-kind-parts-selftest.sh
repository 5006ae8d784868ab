#!/usr/bin/env bash
# "A new kind that lacks a part does not build": provider-kind-parts.cpp, a made-up kind held as
# the table of kinds holds its instances, compiles with every part of ProviderDefinition and
# fails, naming the class abstract, without any one of them. Every pure virtual function of
# providers/provider.h must have its -DOMIT_ here, so that a part added later is covered too.
# Usage: provider-kind-parts-selftest.sh CXX (the build's C++ compiler).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cxx="${1:?usage: provider-kind-parts-selftest.sh CXX}"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() {
    echo "provider-kind-parts-selftest: $*"
    exit 1
}
compile() {
    "$cxx" -std=c++20 -fsyntax-only -I"$root" "$@" "$here/provider-kind-parts.cpp" >"$out" 2>&1
}

parts=(normalize derivesEventIds customerEmail listItemsKey parseListed listSaysMoreFollows unwrapListed
    classifyListed signatureScheme parseSignature signatureFor listApi listRequests
    nextListPage readSnapshot isOwnSubscriptionObject demoIdentify demoChargeIds demoPayload demoTraits
    demoEventId demoAlsoSent demoMoneyBack demoPaymentTrouble demoStatementPages)
declared=$(grep -c ') const = 0;' "$root/domain/core/providers/provider.h")
[ "$declared" -eq ${#parts[@]} ] \
    || fail "provider.h declares $declared parts, this test omits ${#parts[@]} in turn: add the new part here and to provider-kind-parts.cpp"

compile || fail "the complete planted kind does not build:"$'\n'"$(cat "$out")"
for part in "${parts[@]}"; do
    if compile -DOMIT_"$part"; then
        fail "a kind without $part builds"
    fi
    grep -q 'abstract' "$out" || fail "a kind without $part fails for another reason:"$'\n'"$(cat "$out")"
done
echo "provider-kind-parts-selftest: a kind lacking any of its ${#parts[@]} parts does not build"
