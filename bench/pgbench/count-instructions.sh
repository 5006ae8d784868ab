#!/usr/bin/env bash
# What one renewal costs the server, counted instead of timed: the instructions a backend
# executes per renewal (valgrind's callgrind) and the WAL bytes it writes per renewal, for
# schemas of this tree up to a given migration, optionally plus one experimental SQL file.
#
# Throughput on a small shared machine moves by +-20 % between rounds (the disk's flush
# latency, other tenants), and even CPU time per renewal moved by 30 % here (the host's speed
# changes). Instruction counts do not move: two runs of one schema agree to a few hundred
# instructions, so a cost of 1 % (one index entry, one query in a trigger) can be attributed.
# The count leaves out what instructions do not show (lock waits, the WAL flush, cache misses);
# pair it with bench/compare-builds.sh for throughput.
#
# How: each variant is a database in one scratch cluster, migrated and seeded with the same
# subscriptions (seed.sh); the cluster is stopped, and each variant's database is opened by
# `postgres --single` under callgrind, which runs pgbench's single-statement renewal for N1 and
# then N2 different subscriptions. (N2 - N1) divides the difference, so start-up and the
# session's first plans cancel out. full_page_writes is off so that WAL bytes count the rows,
# not which pages a checkpoint happened to precede.
#
# Usage: bench/pgbench/count-instructions.sh SUBSCRIPTIONS N1 N2 NAME=MIGRATION[+FILE.sql] ...
#   e.g. bench/pgbench/count-instructions.sh 5000 200 1200 before=0015 now=0025 \
#            no-event-index=0025+/tmp/drop-event-index.sql
#        RD_RENEWAL_STATEMENT=bench/pgbench/webhook-statement.sql \
#            bench/pgbench/count-instructions.sh 5000 200 1200 now=0028
#        RD_SEED_SQL=bench/pgbench/seed-renewals.sql \
#            RD_RENEWAL_STATEMENT=bench/pgbench/refund-statement.sql \
#            bench/pgbench/count-instructions.sh 500 100 300 now=0050
# Needs Debian's valgrind package. Takes about a minute per variant for 1,000 renewals.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
[[ $# -ge 4 ]] || { sed -n '/^# Usage/,/^# Needs/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind" >&2; exit 2; }
subs="$1" n1="$2" n2="$3"
shift 3
(( n1 < n2 && n2 <= subs )) || { echo "need N1 < N2 <= SUBSCRIPTIONS" >&2; exit 2; }
postgres="$bindir/postgres"

scratch_cluster rd-instructions

names=()
for spec in "$@"; do
    name="${spec%%=*}" rest="${spec#*=}"
    upto="${rest%%+*}" extra=""
    [[ "$rest" == *+* ]] && extra="${rest#*+}"
    [[ "$name" =~ ^[a-z0-9-]+$ ]] || { echo "variant name '$name': use a-z, 0-9 and -" >&2; exit 2; }
    [[ "$upto" =~ ^[0-9]{4}$ ]] || { echo "variant '$name': '$upto' is not a migration number" >&2; exit 2; }
    [[ -z "$extra" || -r "$extra" ]] || { echo "variant '$name': cannot read $extra" >&2; exit 2; }
    mig="$dir/migrations-$name"
    mkdir "$mig"
    for f in "$here"/migrations/[0-9]*.sql; do
        [[ "$(basename "$f" | cut -c1-4)" > "$upto" ]] || ln -s "$f" "$mig/"
    done
    # The repeatable definitions (docs/migrations.md) are the newest schema's functions: they
    # belong to a variant at the newest migration only; an older one keeps its own.
    newest="$(basename "$(ls "$here"/migrations/[0-9]*.sql | tail -1)" | cut -c1-4)"
    if [[ ! "$upto" < "$newest" ]]; then
        for f in "$here"/migrations/repeatables.txt "$here"/migrations/functions \
                 "$here"/migrations/views; do
            [[ ! -e "$f" ]] || ln -s "$f" "$mig/"
        done
    fi
    [[ -z "$extra" ]] || cp "$extra" "$mig/9999_experiment.sql"
    psql "$url" -qAt -c "CREATE DATABASE rdv_${name//-/_}" >/dev/null
    RENEWAL_DESK_MIGRATIONS="$mig" "$here/bench/pgbench/seed.sh" "$ctl" \
        "$(scratch_db "rdv_${name//-/_}")" "$subs"
    # $RD_SEED_SQL: what the statement needs beyond the subscriptions (seed-renewals.sql: one
    # recorded renewal each, for refund-statement.sql to pay back).
    [[ -z "${RD_SEED_SQL:-}" ]] \
        || psql "$(scratch_db "rdv_${name//-/_}")" -qAt -v ON_ERROR_STOP=1 -f "$RD_SEED_SQL" >/dev/null
    names+=("$name")
done
"$ctl" db stop --data-dir "$dir/cluster" >/dev/null

# The renewals of bench/pgbench/single-statement.sql (or $RD_RENEWAL_STATEMENT, a file of the
# same form: webhook-statement.sql measures `renewalctl apply`'s apply_webhook_renewal), its
# statement on one line (single-user mode's input) with the subscription written in, between
# two readings of the WAL position.
statement_file="${RD_RENEWAL_STATEMENT:-$here/bench/pgbench/single-statement.sql}"
statement=$(grep -v -e '^--' -e '^\\set' "$statement_file" | tr '\n' ' ')
renewals() { # COUNT
    echo "SELECT pg_current_wal_insert_lsn()"
    seq 1 "$subs" | shuf --random-source=<(yes) | head -n "$1" | while read -r sid; do
        echo "${statement//:sid/$sid}"
    done
    echo "SELECT pg_current_wal_insert_lsn()"
}
renewals "$n1" >"$dir/renewals-$n1.sql"
renewals "$n2" >"$dir/renewals-$n2.sql"
mkdir -m 777 "$dir/out"
chmod 644 "$dir"/renewals-*.sql
owner=$(stat -c %U "$dir/cluster/data")
as_owner() { if [[ "$owner" == "$(id -un)" ]]; then "$@"; else runuser -u "$owner" -- "$@"; fi; }

lsn_bytes() { # LSN -> bytes
    local hi=${1%/*} lo=${1#*/}
    echo $(((16#$hi << 32) + 16#$lo))
}
echo "$subs subscriptions; per renewal over renewals $((n1 + 1))..$n2 of each variant"
printf '%-20s %14s %10s\n' variant instructions "WAL bytes"
for name in "${names[@]}"; do
    declare -A ir=() wal=()
    for n in "$n1" "$n2"; do
        out="$dir/out/$name-$n"
        as_owner valgrind --tool=callgrind --callgrind-out-file="$out.callgrind" \
            "$postgres" --single -D "$dir/cluster/data" -c fsync=off -c full_page_writes=off \
            "rdv_${name//-/_}" <"$dir/renewals-$n.sql" >"$out.stdout" 2>"$out.stderr"
        if grep -q 'ERROR' "$out.stdout" "$out.stderr"; then
            echo "variant '$name' failed:" >&2
            grep -h -m3 'ERROR' "$out.stdout" "$out.stderr" >&2
            exit 1
        fi
        ir[$n]=$(sed -nE 's/^(summary|totals): ([0-9]+).*/\2/p' "$out.callgrind" | head -1)
        mapfile -t lsns < <(grep -oE '"[0-9A-F]+/[0-9A-F]+"' "$out.stdout" | tr -d '"')
        [[ ${#lsns[@]} -eq 2 && -n "${ir[$n]}" ]] || { echo "variant '$name': no reading" >&2; exit 1; }
        wal[$n]=$(($(lsn_bytes "${lsns[1]}") - $(lsn_bytes "${lsns[0]}")))
    done
    printf '%-20s %14d %10d\n' "$name" $(((ir[$n2] - ir[$n1]) / (n2 - n1))) \
        $(((wal[$n2] - wal[$n1]) / (n2 - n1)))
done
