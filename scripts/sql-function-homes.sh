#!/usr/bin/env bash
# Prints, for every SQL function of the schema, the migration that holds its current
# definition (the last one that creates or replaces it) and the later ones that only ALTER it
# (a function a migration drops again is not listed), as the Markdown table docs/architecture.md carries. Migrations are history: read a function
# where this says. (0007_hardening.sql also sets search_path on every definer and trigger
# function in a loop; that is not listed per function.)
#   scripts/sql-function-homes.sh            print the table
#   scripts/sql-function-homes.sh --write    put it into docs/architecture.md
#   scripts/sql-function-homes.sh --check    fail when docs/architecture.md's copy is stale
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$root/migrations"
doc="$root/docs/architecture.md"

table() {
echo "| Function | Current definition | Altered since |"
echo "|---|---|---|"
for f in "$dir"/*.sql; do
    { grep -oiE '(create( or replace)?|alter|drop) function [a-z0-9_."]+' "$f" || true; } \
        | awk -v file="$(basename "$f" .sql)" '{
              name = $NF; sub(/^public\./, "", name)
              print name, tolower($1), file }'
done | awk '
    $2 == "create" { home[$1] = $3; altered[$1] = "" }
    $2 == "drop" { delete home[$1]; delete altered[$1] }
    $2 == "alter" && ($1 in home) { altered[$1] = altered[$1] (altered[$1] == "" ? "" : ", ") $3 }
    END { for (n in home) print n, home[n], (altered[n] == "" ? "-" : altered[n]) }' \
    | sort | awk '{ n = $1; h = $2; $1 = ""; $2 = ""; sub(/^  /, ""); printf "| `%s` | %s | %s |\n", n, h, $0 }'
}

# The document with the table between its two markers replaced by `table`'s output.
with_table() {
    awk -v tablefile="$1" '
        /<!-- sql-function-homes:begin -->/ { print; while ((getline line < tablefile) > 0) print line; skip = 1; next }
        /<!-- sql-function-homes:end -->/ { skip = 0 }
        !skip { print }' "$doc"
}

case "${1:-}" in
"") table ;;
--write | --check)
    tmp=$(mktemp)
    trap 'rm -f "$tmp" "$tmp.doc"' EXIT
    table > "$tmp"
    with_table "$tmp" > "$tmp.doc"
    if [ "$1" = --write ]; then
        cp "$tmp.doc" "$doc"
    elif ! diff -u "$doc" "$tmp.doc"; then
        echo "docs/architecture.md: the table of SQL function homes is stale;" \
             "run scripts/sql-function-homes.sh --write" >&2
        exit 1
    fi
    ;;
*) echo "usage: $0 [--write|--check]" >&2; exit 64 ;;
esac
