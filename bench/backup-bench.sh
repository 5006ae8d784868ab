#!/usr/bin/env bash
# Backup and restore at size (#29): `renewalctl db backup` of the database --db names, then
# `renewalctl db restore` of that file into a new embedded cluster (--into data-dir, the
# default: what a laptop user restores into) or into a fresh database on the same cluster
# (--into database), RUNS times. Prints, per run and as medians: the database's size
# (pg_database_size), the backup's wall time and file size, the restore's wall time including
# its verification (counts, anchor, every audit chain), each command's phases (the CLI shows
# them on a terminal: it runs on a pseudo-terminal here, its lines timestamped), and the
# restored database's size; the load average beside each.
#
#   bench/backup-bench.sh --db CONNINFO [--dir DIR] [--runs N] [--into data-dir|database]
#                         [--verify-alone] [--keep] [--backup-only | --restore FILE]
#
# --backup-only: back up only, and keep the file; --restore FILE: restore FILE only (a backup
#   of --db, e.g. kept by --backup-only: the two halves can then run at different times).
# --dir: where the backup files and restored clusters go (default: a new directory under
#   /work/bench-large, or $TMPDIR; it needs about the database's size twice).
# --verify-alone: also time `renewalctl audit verify` on the restored database by itself, to
#   split the restore's time when the CLI does not report its verification's.
# --keep: leave the backup files and the restored databases/clusters (default: removed).
# Uses the renewalctl of $RENEWAL_DESK_BUILD_DIR (default build/). Exits non-zero when a
# backup or a restore fails, or a restore does not verify.
# Typical: bench/generate-large.sh --db "$DB" && bench/generate-inbox.sh --db "$DB" &&
#          bench/backup-bench.sh --db "$DB" --runs 2 --verify-alone
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

db="" dir="" runs=1 into=data-dir verify_alone=0 keep=0 backup_only=0 restore_file=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --db) db="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --into) into="$2"; shift 2 ;;
        --verify-alone) verify_alone=1; shift ;;
        --keep) keep=1; shift ;;
        --backup-only) backup_only=1; shift ;;
        --restore) restore_file="$2"; shift 2 ;;
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
        *) die "unknown argument $1" ;;
    esac
done
[[ -n "$db" ]] || die "--db CONNINFO is required"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "--runs takes a whole number"
[[ "$into" == data-dir || "$into" == database ]] || die "--into takes data-dir or database"
[[ -x "$ctl" ]] || die "no renewalctl at $ctl (build it, or set RENEWAL_DESK_BUILD_DIR)"
"$ctl" db restore --help >/dev/null 2>&1 || die "$ctl has no 'db restore' command"
((backup_only)) && [[ -n "$restore_file" ]] && die "--backup-only and --restore exclude each other"
[[ -z "$restore_file" || -r "$restore_file" ]] || die "cannot read $restore_file"

if [[ -z "$dir" ]]; then
    parent=/work/bench-large
    [[ -d "$parent" ]] || parent="${TMPDIR:-/tmp}"
    dir=$(mktemp -d "$parent/backup-bench-XXXXXX")
fi
mkdir -p "$dir"
chmod 755 "$dir" # a restored embedded cluster's server account must reach its directory
targets=()
cleanup() {
    ((keep)) && return 0
    local t
    for t in "${targets[@]}"; do
        case "$t" in
            cluster:*) "$ctl" db stop --data-dir "${t#cluster:}" >/dev/null 2>&1 || true
                       rm -rf "${t#cluster:}" ;;
            database:*) psql "$(with_dbname postgres)" -Xq -c "DROP DATABASE IF EXISTS ${t#database:}" \
                            >/dev/null 2>&1 || true ;;
        esac
    done
    ((backup_only)) || rm -f "$dir"/run*.backup
}
trap cleanup EXIT

machine "$dir"
db_bytes=$(sql_value 'SELECT pg_database_size(current_database())')
echo "database: $(bytes "$db_bytes") ($db_bytes bytes); $(sql_value "SELECT 'subscriptions ' || (SELECT count(*) FROM subscriptions) || ', billing periods ' || (SELECT count(*) FROM subscription_billing_periods) || ', audits ' || (SELECT count(*) FROM subscription_transition_audits) || ', inbox rows ' || (SELECT count(*) FROM webhook_inbox)")"

backup_s=() restore_s=() verify_s=() verify_phase_s=() file_b=() restored_b=()
for run in $(seq 1 "$runs"); do
    file="$dir/run$run.backup"
    if [[ -n "$restore_file" ]]; then
        file="$restore_file"
        file_b+=("$(stat -c %s "$file")")
        echo "run $run: restoring $file ($(bytes "${file_b[-1]}"))"
    else
    sql -c 'CHECKPOINT' >/dev/null
    load0=$(load) t0=$(now)
    run_phased "$dir/run$run-backup.log" "$ctl" db backup --db "$db" --to "$file" \
        || { cat "$dir/run$run-backup.log" >&2; die "run $run: db backup failed"; }
    backup_s+=("$(seconds_since "$t0")")
    file_b+=("$(stat -c %s "$file")")
    echo "run $run backup: ${backup_s[-1]} s, file $(bytes "${file_b[-1]}") (load before $load0, after $(load))"
    echo "  phases: $(phase_split "$dir/run$run-backup.log")"
    fi
    if ((backup_only)); then
        echo "run $run: kept $file"
        continue
    fi

    case "$into" in
        data-dir)
            target="$dir/run$run-cluster"
            targets+=("cluster:$target")
            restore_args=(--data-dir "$target") ;;
        database)
            name="rd_restore_bench_$run"
            psql "$(with_dbname postgres)" -Xq -v ON_ERROR_STOP=1 \
                -c "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name" >/dev/null
            targets+=("database:$name")
            restore_args=(--db "$(with_dbname "$name")") ;;
    esac
    load0=$(load) t0=$(now)
    status=0
    run_phased "$dir/run$run-restore.log" "$ctl" db restore "$file" "${restore_args[@]}" || status=$?
    restore_s+=("$(seconds_since "$t0")")
    if ((status != 0)); then
        cat "$dir/run$run-restore.log" >&2
        die "run $run: db restore failed (exit $status)"
    fi
    echo "run $run restore (incl. verification): ${restore_s[-1]} s (load before $load0, after $(load))"
    echo "  phases: $(phase_split "$dir/run$run-restore.log")"
    verify_phase_s+=("$(phase_split "$dir/run$run-restore.log" | grep -o 'verify [0-9.]*' | awk '{ print $2 }')")
    grep -E 'audit (anchor|chains)|verified' "$dir/run$run-restore.log" | cut -d' ' -f2- | sed 's/^/  restore says: /'

    case "$into" in
        data-dir) restored=$("$ctl" db url --data-dir "$target") ;;
        database) restored=$(with_dbname "$name") ;;
    esac
    restored_b+=("$(psql "$restored" -XAtc 'SELECT pg_database_size(current_database())')")
    echo "run $run restored database: $(bytes "${restored_b[-1]}")"
    if ((verify_alone)); then
        load0=$(load) t0=$(now)
        "$ctl" audit verify --db "$restored" >"$dir/run$run-verify.log" 2>&1 \
            || { cat "$dir/run$run-verify.log" >&2; die "run $run: audit verify of the restored database failed"; }
        verify_s+=("$(seconds_since "$t0")")
        echo "run $run audit verify alone on the restored database: ${verify_s[-1]} s (load before $load0, after $(load)); $(tail -n 1 "$dir/run$run-verify.log")"
    fi
    # The next run restores into its own target; this one's is not needed any more.
    if ((!keep)); then
        cleanup
        targets=()
    fi
done

summary="summary ($runs run(s), medians): database $(bytes "$db_bytes")"
((${#backup_s[@]})) && summary+=", backup $(median "${backup_s[@]}") s"
summary+=", file $(bytes "$(median "${file_b[@]}")") ($(awk -v f="$(median "${file_b[@]}")" -v d="$db_bytes" 'BEGIN { printf "%.2f", f / d }')× the database)"
((${#restore_s[@]})) && summary+=", restore incl. verification $(median "${restore_s[@]}") s (its verify phase $(median "${verify_phase_s[@]}") s), restored database $(bytes "$(median "${restored_b[@]}")")"
((${#verify_s[@]})) && summary+=", audit verify alone $(median "${verify_s[@]}") s"
echo "$summary"
echo "load at the end: $(load)"
