#!/usr/bin/env bash
# Retention at size (#29): the purge of the inbox's raw bodies (`renewalctl inbox purge`) on
# a database filled by bench/generate-large.sh and bench/generate-inbox.sh (1,000,000
# processed deliveries with 2–3 KB bodies), and the renewal path while it runs.
#
#   bench/purge-bench.sh --db CONNINFO [--older-than DAYS] [--rate R] [--clients C]
#                        [--baseline SECONDS] [--subscriptions N] [--purge-command CMD]
#                        [--vacuum-full]
#
# 1. A fixed renewal workload, paced: pgbench at R transactions/s (default 100) over C clients
#    (default 4), half of them a webhook delivery as the receiver makes it
#    (bench/pgbench/delivery-statement.sql: ingest_delivery writes the inbox row with its body,
#    the table the purge rewrites, then the core) and half a renewal through
#    apply_webhook_renewal (bench/pgbench/webhook-statement.sql, what `renewalctl apply` does),
#    on N subscriptions of provider 'pgbench' (default 20,000; seeded when missing). Latency is
#    from each transaction's scheduled start (pgbench -R: it includes any wait for a client).
# 2. The workload alone for --baseline seconds (default 60); then the purge, with the workload
#    running beside it for as long as the purge takes (transactions counted when they end
#    inside the purge's window); then the workload alone again (a second baseline: the
#    machine's drift shows as the two baselines' difference).
# 3. The purge: `renewalctl inbox purge --older-than DAYS` (default 0: every processed
#    delivery), or --purge-command CMD (run by bash with $DB set, e.g. a psql call of the
#    purge function). Its wall time and bodies removed per second; the WAL written in its
#    window (pg_current_wal_lsn), less the workload's share (its WAL per transaction in the
#    baselines × its transactions in the window); the table's heap, TOAST and index sizes
#    before, after, and after a plain VACUUM (space freed for reuse, the files keep their
#    size except trailing empty pages) and, with --vacuum-full, after VACUUM FULL (space
#    returned to the file system; takes an exclusive lock on the inbox).
# Writes into the database (renewals of the 'pgbench' subscriptions, purged bodies): use a
# scratch copy. Exits non-zero when the purge fails or the workload has failed transactions.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

db="" older=0 rate=100 clients=4 baseline=60 subs=20000 purge_cmd="" vacuum_full=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --db) db="$2"; shift 2 ;;
        --older-than) older="$2"; shift 2 ;;
        --rate) rate="$2"; shift 2 ;;
        --clients) clients="$2"; shift 2 ;;
        --baseline) baseline="$2"; shift 2 ;;
        --subscriptions) subs="$2"; shift 2 ;;
        --purge-command) purge_cmd="$2"; shift 2 ;;
        --vacuum-full) vacuum_full=1; shift ;;
        -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
        *) die "unknown argument $1" ;;
    esac
done
[[ -n "$db" ]] || die "--db CONNINFO is required"
for v in "$older" "$rate" "$clients" "$baseline" "$subs"; do
    [[ "$v" =~ ^[0-9]+$ ]] || die "--older-than, --rate, --clients, --baseline and --subscriptions take whole numbers"
done
((rate > 0 && clients > 0 && baseline > 0 && subs > 0)) || die "--rate, --clients, --baseline and --subscriptions must be positive"
[[ -x "$ctl" ]] || die "no renewalctl at $ctl (build it, or set RENEWAL_DESK_BUILD_DIR)"
if [[ -z "$purge_cmd" ]]; then
    "$ctl" inbox purge --help >/dev/null 2>&1 || die "$ctl has no 'inbox purge' command"
    purge_cmd="\"\$RENEWALCTL\" inbox purge --older-than $older --db \"\$DB\""
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/rd-purge-bench-XXXXXX")
loop_pid=""
trap '[[ -n "$loop_pid" ]] && kill "$loop_pid" 2>/dev/null; rm -rf "$dir"' EXIT
machine "$(sql_value 'SHOW data_directory' 2>/dev/null || echo /)"

# The workload's subscriptions and provider.
sql -c "INSERT INTO billing_providers (provider_key, kind, display_name)
        VALUES ('pgbench', 'stripe', 'pgbench') ON CONFLICT (provider_key) DO NOTHING"
have=$(sql_value "SELECT count(*) FROM subscriptions WHERE provider_key = 'pgbench'")
if ((have < subs)); then
    seq $((have + 1)) "$subs" | awk '{ printf "{\"providerKey\":\"pgbench\",\"providerSubscriptionId\":\"pgb-%d\",\"status\":\"active\",\"currentPeriod\":{\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2026-02-01T00:00:00Z\"},\"cancelAtPeriodEnd\":false,\"providerVersion\":null}\n", $1 }' \
        | "$ctl" subscriptions import --db "$db" >/dev/null
    echo "seeded $((subs - have)) subscriptions of provider pgbench"
fi

# Runs the workload for SECONDS, logging every transaction in the directory DIR (log.NAME.*)
# and pgbench's summary in DIR/NAME.out.
workload() { # SECONDS DIR NAME
    mkdir -p "$2"
    "$bindir/pgbench" "$db" -n -M prepared -c "$clients" -j 2 -T "$1" -R "$rate" \
        -D subscriptions="$subs" -l --log-prefix="$2/log.$3" \
        -f "$here/bench/pgbench/delivery-statement.sql@1" \
        -f "$here/bench/pgbench/webhook-statement.sql@1" >"$2/$3.out" 2>&1 \
        || { cat "$2/$3.out" >&2; return 1; }
    grep -q 'number of failed transactions: 0 ' "$2/$3.out" \
        || { grep -E 'failed|error' "$2/$3.out" >&2; return 1; }
}
# Latency (ms) median/p95/p99 and transactions/s of the logs in DIR, for transactions that
# ended in [FROM, TO] (epoch seconds), per script (0: delivery, 1: apply) and both.
summarize() { # LABEL DIR FROM TO
    local label="$1" prefix="$2" from="$3" to="$4" script name
    cat "$prefix"/log.* | grep -v '^$' | awk -v f="$from" -v t="$to" \
        '{ e = $5 + $6 / 1e6; if (e >= f && e <= t) print $4, $3 / 1000 }' >"$prefix.window"
    for script in 0 1 all; do
        case "$script" in 0) name="delivery (ingest_delivery)" ;; 1) name="renewal (apply_webhook_renewal)" ;; all) name="both" ;; esac
        local n p
        if [[ "$script" == all ]]; then
            n=$(wc -l <"$prefix.window"); p=$(awk '{ print $2 }' "$prefix.window" | percentiles)
        else
            n=$(awk -v s="$script" '$1 == s' "$prefix.window" | wc -l)
            p=$(awk -v s="$script" '$1 == s { print $2 }' "$prefix.window" | percentiles)
        fi
        read -r p50 p95 p99 <<<"$p"
        printf '  %-12s %-32s %7d tx %8.1f tx/s   p50 %7s ms  p95 %7s ms  p99 %7s ms\n' \
            "$label" "$name" "$n" "$(awk -v n="$n" -v f="$from" -v t="$to" 'BEGIN { print n / (t - f) }')" \
            "$p50" "$p95" "$p99"
    done
}
sizes() { # LABEL
    sql_value "SELECT '$1: heap ' || pg_size_pretty(pg_relation_size(c.oid))
                   || ', TOAST ' || pg_size_pretty(coalesce(pg_relation_size(c.reltoastrelid), 0))
                   || ', indexes ' || pg_size_pretty(pg_indexes_size(c.oid))
                   || ', total ' || pg_size_pretty(pg_total_relation_size(c.oid))
                   || ' (' || pg_total_relation_size(c.oid) || ' bytes); deliveries with a body '
                   || (SELECT count(*) FROM webhook_inbox WHERE $with_body)
                   || ' of ' || (SELECT count(*) FROM webhook_inbox)
              FROM pg_class c WHERE c.oid = 'public.webhook_inbox'::regclass"
}
# A delivery whose body is still kept.
with_body="raw_body IS NOT NULL AND octet_length(raw_body) > 0"
wal() { sql_value 'SELECT pg_current_wal_lsn()'; }
wal_diff() { sql_value "SELECT pg_wal_lsn_diff('$2', '$1')::bigint"; }

sizes "inbox before"
# The generated deliveries' bodies (the workload's own deliveries, provider pgbench, arrive
# during the run and are not counted).
generated_bodies() { sql_value "SELECT count(*) FROM webhook_inbox WHERE provider_key <> 'pgbench' AND $with_body"; }
bodies_before=$(generated_bodies)
sql -c 'CHECKPOINT' >/dev/null

# The workload alone for --baseline seconds, logged in $dir/NAME; its window and WAL in
# NAME_from, NAME_to and NAME_wal.
alone() { # NAME LABEL
    local lsn0 lsn1 from
    echo "$2: ${baseline} s of the workload alone (load $(load))"
    lsn0=$(wal) from=$(now)
    workload "$baseline" "$dir/$1" run
    printf -v "$1_from" '%s' "$from"
    printf -v "$1_to" '%s' "$(now)"
    lsn1=$(wal)
    printf -v "$1_wal" '%s' "$(wal_diff "$lsn0" "$lsn1")"
}
alone base1 "baseline 1"

# The purge, with the workload beside it in chunks of 10 s until the purge has finished.
echo "purge: $purge_cmd (load $(load))"
touch "$dir/purging"
( chunk=0; while [[ -e "$dir/purging" ]]; do chunk=$((chunk + 1)); workload 10 "$dir/during" "c$chunk" || exit 1; done ) &
loop_pid=$!
sleep 2 # the workload's first connections, before the purge's first statement
lp0=$(wal) tp0=$(now) loadp0=$(load)
status=0
DB="$db" RENEWALCTL="$ctl" bash -c "$purge_cmd" >"$dir/purge.log" 2>&1 || status=$?
tp1=$(now) lp1=$(wal) loadp1=$(load)
rm -f "$dir/purging"
wait "$loop_pid" || { loop_pid=""; die "the workload failed during the purge"; }
loop_pid=""
sed 's/^/  purge says: /' "$dir/purge.log"
((status == 0)) || die "the purge failed (exit $status)"
purge_s=$(awk -v a="$tp0" -v b="$tp1" 'BEGIN { printf "%.1f", b - a }')
bodies_after=$(generated_bodies)
purged=$((bodies_before - bodies_after))
# What the purge says it removed: the generated bodies, and the workload's own deliveries that
# were processed before it started.
said=$(grep -oE 'removed [0-9]+ bodies|"removed": ?[0-9]+' "$dir/purge.log" | grep -oE '[0-9]+' | head -n 1 || true)
((${said:-0} > purged)) && purged=$said

alone base2 "baseline 2"

echo "renewal path (paced at $rate tx/s over $clients clients; latency from the scheduled start):"
summarize "baseline 1" "$dir/base1" "$base1_from" "$base1_to"
summarize "during purge" "$dir/during" "$tp0" "$tp1"
summarize "baseline 2" "$dir/base2" "$base2_from" "$base2_to"
base_tx=$(( $(wc -l <"$dir/base1.window") + $(wc -l <"$dir/base2.window") ))
during_tx=$(wc -l <"$dir/during.window")
purge_wal=$(wal_diff "$lp0" "$lp1")
workload_wal=$(awk -v w="$((base1_wal + base2_wal))" -v n="$base_tx" -v d="$during_tx" 'BEGIN { printf "%d", (n ? w / n * d : 0) }')
echo "purge: $purged bodies removed in $purge_s s ($(awk -v n="$purged" -v s="$purge_s" 'BEGIN { printf "%d", (s > 0 ? n / s : 0) }') bodies/s), load $loadp0 before, $loadp1 after"
echo "WAL in the purge's window: $(bytes "$purge_wal"); the workload's share ≈ $(bytes "$workload_wal") ($(awk -v w="$((base1_wal + base2_wal))" -v n="$base_tx" 'BEGIN { printf "%d", (n ? w / n : 0) }') bytes a transaction in the baselines); the purge ≈ $(bytes $((purge_wal - workload_wal))) ($(awk -v w="$((purge_wal - workload_wal))" -v n="$purged" 'BEGIN { printf "%d", (n ? w / n : 0) }') bytes a body)"
sizes "inbox after the purge"
t0=$(now)
sql -c 'VACUUM webhook_inbox'
echo "VACUUM webhook_inbox: $(seconds_since "$t0") s (load $(load))"
sizes "inbox after VACUUM"
if ((vacuum_full)); then
    t0=$(now)
    sql -c 'VACUUM FULL webhook_inbox'
    echo "VACUUM FULL webhook_inbox: $(seconds_since "$t0") s (load $(load))"
    sizes "inbox after VACUUM FULL"
fi
echo "load at the end: $(load)"
