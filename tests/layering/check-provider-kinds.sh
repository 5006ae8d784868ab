#!/usr/bin/env bash
# A provider kind lives in one place: its folder under domain/core/providers/, registered in the
# table of kinds (domain/core/adapters/provider_kinds.cpp). No code switches on a ProviderKind
# (a `case ProviderKind::` label) anywhere else, so that a new kind, or a new part of every
# kind, is one folder and one row rather than a case added to switches spread over the tree
# (and no `default:` hides the one forgotten). The table's own switch, which makes the compiler
# count the kinds, is the one exemption; a kind's folder has no need to switch on a kind.
# A comparison with a kind (`kind == ProviderKind::Stripe`) is a switch by another name and is
# refused in the product's code (domain, app, ui) too; tests and benchmarks may compare, as they
# spell out each provider independently of the code.
# Run by the layering test (check-includes.sh); provider-kinds-selftest.sh shows that it refuses.
# Prints file:line for each offence and exits 1. Usage: check-provider-kinds.sh [ROOT] (ROOT:
# the tree to check, this repository by default).
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
cd "$root"

table=domain/core/adapters/provider_kinds.cpp
dirs=()
for d in domain app ui bench tests; do
    [ -d "$d" ] && dirs+=("$d")
done
[ ${#dirs[@]} -gt 0 ] || { echo "check-provider-kinds: no sources under $root"; exit 1; }
pattern='\bcase[[:space:]]+((::)?rd::)?ProviderKind[[:space:]]*::'
hits=$(grep -rnE "$pattern" "${dirs[@]}" --include='*.cpp' --include='*.h' | grep -v "^$table:" || true)
if [ -n "$hits" ]; then
    echo "layering: a switch on a provider kind outside the table of kinds; give the kinds a part"
    echo "(a pure virtual function of ProviderDefinition, domain/core/providers/provider.h) and"
    echo "call it through the table (providerDefinition(kind)):"
    printf '%s\n' "$hits" | while IFS=: read -r file line text; do
        echo "  $file:$line: $(echo "$text" | sed 's/^[[:space:]]*//')"
    done
    exit 1
fi

kind='((::)?rd::)?ProviderKind[[:space:]]*::[[:space:]]*[A-Za-z_]+'
compare="[=!]=[[:space:]]*$kind|$kind[[:space:]]*[=!]="
product=()
for d in domain app ui; do
    [ -d "$d" ] && product+=("$d")
done
hits=$([ ${#product[@]} -eq 0 ] || grep -rnE "$compare" "${product[@]}" --include='*.cpp' \
    --include='*.h' | grep -v "^$table:" || true)
if [ -n "$hits" ]; then
    echo "layering: a comparison with a provider kind outside the table of kinds; what differs"
    echo "by kind is a part of ProviderDefinition (domain/core/providers/provider.h), or, for an"
    echo "account rather than a kind, a field of the account's own row:"
    printf '%s\n' "$hits" | while IFS=: read -r file line text; do
        echo "  $file:$line: $(echo "$text" | sed 's/^[[:space:]]*//')"
    done
    exit 1
fi
