#!/usr/bin/env bash
# check-provider-kinds.sh refuses what it must and nothing else: run on a made-up tree, it names
# each `case ProviderKind::` outside the table of kinds with its file and line, however the kind
# is spelled (rd::ProviderKind, a space before ::), and lets be the table's own switch, a switch
# on another enum and a comparison in prose.
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
echo "provider-kinds-selftest: a switch on a provider kind outside the table is refused with its file and line"
