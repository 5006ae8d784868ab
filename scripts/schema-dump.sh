#!/usr/bin/env bash
# The schema a freshly migrated database has, as `pg_dump --schema-only` prints it, checked in
# as migrations/schema/current.sql: a change to the schema (a migration, a repeatable
# definition, a grant) shows in one reviewable diff of that file. docs/migrations.md.
#   scripts/schema-dump.sh            print the normalized dump
#   scripts/schema-dump.sh --write    put it into migrations/schema/current.sql
#   scripts/schema-dump.sh --check    fail, with the diff, when migrations/schema/current.sql is stale
# Migrates a scratch cluster with the build's renewalctl ($RENEWAL_DESK_BUILD_DIR, else build/).
# Normalized: pg_dump's comment lines (they name the server's and pg_dump's versions), its
# per-run \restrict key, owners (the migrating login's name) and blank lines are left out;
# pg_dump's order of objects is already deterministic (type, then name).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ctl="${RENEWAL_DESK_BUILD_DIR:-$root/build}/app/renewalctl/renewalctl"
current="$root/migrations/schema/current.sql"
[[ -x "$ctl" ]] || { echo "schema-dump: no renewalctl at $ctl (build first)" >&2; exit 2; }

dir=$(mktemp -d /tmp/rd-schema-XXXXXX)
chmod 755 "$dir"
trap '"$ctl" db stop --data-dir "$dir/cluster" >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
"$ctl" db start --data-dir "$dir/cluster" >/dev/null
url=$("$ctl" db url --data-dir "$dir/cluster")
RENEWAL_DESK_MIGRATIONS="$root/migrations" "$ctl" migrate --db "$url" >/dev/null

dump() {
    pg_dump --schema-only --no-owner --dbname "$url" \
        | grep -v -e '^--' -e '^\\restrict' -e '^\\unrestrict' -e '^$'
}

case "${1:-}" in
"") dump ;;
--write) dump > "$current"; echo "wrote ${current#"$root"/}" ;;
--check)
    dump > "$dir/now.sql"
    if ! diff -u --label migrations/schema/current.sql --label "freshly migrated" "$current" "$dir/now.sql"; then
        echo "schema-dump: migrations/schema/current.sql is not the schema the migrations make;" \
             "review the diff above and run scripts/schema-dump.sh --write" >&2
        exit 1
    fi
    ;;
*) echo "usage: $0 [--write|--check]" >&2; exit 64 ;;
esac
