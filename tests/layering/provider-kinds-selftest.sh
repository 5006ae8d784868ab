#!/usr/bin/env bash
# check-provider-kinds.sh refuses what it must and nothing else: run on a made-up tree, it names
# each `case ProviderKind::` outside the table of kinds with its file and line, however the kind
# is spelled (rd::ProviderKind, a space before ::), and each comparison with a kind in the
# product's code, and lets be the table's own switch, a switch on another enum, a comparison in a
# test and a kind named without comparing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/domain/core/adapters" "$tree/domain/fetch" "$tree/tests" "$tree/ui/models"
fail() {
    echo "provider-kinds-selftest: $*"
    exit 1
}

cat >"$tree/domain/core/adapters/provider_kinds.cpp" <<'CPP'
constexpr int ordinalPlusOne(ProviderKind kind)
{
    switch (kind) {
    case ProviderKind::Stripe:
        return 1;
    }
    return 0;
}
CPP
cat >"$tree/ui/models/clean.cpp" <<'CPP'
// A kind's part is called through the table: providerDefinition(kind).listApi().
switch (next.kind) {
case NextPage::Kind::None:
    return std::nullopt;
}
const auto &api = providerDefinition(ProviderKind::Stripe).listApi();
CPP
bash "$here/check-provider-kinds.sh" "$tree" >"$tree/out" 2>&1 \
    || fail "refused a clean tree: $(cat "$tree/out")"

cat >"$tree/domain/fetch/fetch.cpp" <<'CPP'
int pageSizeFor(ProviderKind kind)
{
    switch (kind) {
    case ProviderKind::Paddle:
        return 30;
    default:
        return 100;
    }
}
CPP
cat >"$tree/tests/tst_x.cpp" <<'CPP'
    switch (kind) {
    case rd::ProviderKind ::Recurly:
        break;
    }
CPP
if bash "$here/check-provider-kinds.sh" "$tree" >"$tree/out" 2>&1; then
    fail "passed a switch on a provider kind outside the table"
fi
for expected in 'domain/fetch/fetch.cpp:4: case ProviderKind::Paddle:' \
    'tests/tst_x.cpp:2: case rd::ProviderKind ::Recurly:'; do
    grep -qF "  $expected" "$tree/out" || fail "did not name '$expected':"$'\n'"$(cat "$tree/out")"
done
if grep '^  ' "$tree/out" | grep -q 'provider_kinds\.cpp\|clean\.cpp'; then
    fail "named a file it must let be:"$'\n'"$(cat "$tree/out")"
fi

# Comparisons: refused in the product's code, let be in a test and where a kind is only named.
rm "$tree/domain/fetch/fetch.cpp" "$tree/tests/tst_x.cpp"
cat >"$tree/tests/tst_y.cpp" <<'CPP'
    const bool basicAuth = k == rd::ProviderKind::Chargebee;
CPP
cat >"$tree/ui/models/named.cpp" <<'CPP'
    ProviderKind kind = ProviderKind::Stripe; // a default, not a comparison
CPP
bash "$here/check-provider-kinds.sh" "$tree" >"$tree/out" 2>&1 \
    || fail "refused a kind named, or compared in a test: $(cat "$tree/out")"
cat >"$tree/domain/fetch/compare.cpp" <<'CPP'
    s.proration = i % 9 == 1 && s.provider->kind != ProviderKind::LemonSqueezy;
    if (rd::ProviderKind:: Stripe== kind)
        return;
CPP
if bash "$here/check-provider-kinds.sh" "$tree" >"$tree/out" 2>&1; then
    fail "passed a comparison with a provider kind in the product's code"
fi
for expected in 'domain/fetch/compare.cpp:1: s.proration' 'domain/fetch/compare.cpp:2: if (rd::'; do
    grep -qF "  $expected" "$tree/out" || fail "did not name '$expected':"$'\n'"$(cat "$tree/out")"
done
echo "provider-kinds-selftest: a switch on, or a comparison with, a provider kind outside the table is refused with its file and line"
