#!/usr/bin/env bash
# The overdue watch's count (migration 0030) on a large subscriptions table: the time of
# `SELECT * FROM overdue_subscription_counts()` (what /metrics and the Overview read), median
# of RUNS, and the plan its per-provider count runs with (auto_explain: it must be an Index
# Only Scan on subscriptions_overdue_watch).
#
#   bench/overdue-count.sh [--db CONNINFO] [--subscriptions N] [--overdue-share F] [--runs R]
#
# Without --db: a scratch cluster, migrated, filled, and removed at the end. With --db: a
# migrated database; rows are added only when it holds no subscriptions (a database of
# bench/generate-large.sh is measured as it is: every period there ended in 2026's first
# months, so nearly every active subscription is overdue, the count's worst case).
# The generated shape: four providers and generate-large.sh's statuses and cancellations; an
# active subscription's period ends within the next 30 days, except a share F (default 0.005)
# whose period ended 2 to 12 days ago; canceled ones ended long ago.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
db="" subscriptions=1000000 share=0.005 runs=5 batch=100000
while [[ $# -gt 0 ]]; do
    case "$1" in
        --db) db="$2"; shift 2 ;;
        --subscriptions) subscriptions="$2"; shift 2 ;;
        --overdue-share) share="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "overdue-count.sh: unknown argument $1" >&2; exit 64 ;;
    esac
done
[[ "$subscriptions" =~ ^[0-9]+$ && "$runs" =~ ^[1-9][0-9]*$ ]] \
    || { echo "overdue-count.sh: --subscriptions and --runs take whole numbers" >&2; exit 64; }
[[ "$share" =~ ^(0(\.[0-9]+)?|1(\.0+)?)$ ]] \
    || { echo "overdue-count.sh: --overdue-share takes a number from 0 to 1" >&2; exit 64; }

if [[ -z "$db" ]]; then
    scratch_cluster rd-overdue
    db="$url"
    "$ctl" migrate --db "$db" >/dev/null
fi
run() { psql "$db" -X -q -v ON_ERROR_STOP=1 "$@"; }

if [[ "$(run -Atc 'SELECT count(*) = 0 FROM subscriptions')" == t ]]; then
    started=$(date +%s)
    for ((from = 1; from <= subscriptions; from += batch)); do
        to=$((from + batch - 1))
        ((to > subscriptions)) && to=$subscriptions
        run <<SQL
SET synchronous_commit = off;
INSERT INTO subscriptions (provider_key, provider_subscription_id, status, current_period_start,
                           current_period_end, cancel_at_period_end)
SELECT (ARRAY['stripe-main', 'paddle-eu', 'stripe-us', 'chargebee'])[1 + i % 4],
       'sub_' || substr(md5(i::text), 1, 10) || to_char(i, 'FM0000000'), st,
       e - interval '1 month', e, i % 29 = 0
  FROM generate_series($from, $to) AS i,
       LATERAL (SELECT CASE WHEN i % 53 = 0 THEN 'past_due' WHEN i % 41 = 0 THEN 'canceled'
                            WHEN i % 97 = 0 THEN 'trialing' ELSE 'active' END AS st) s,
       LATERAL (SELECT CASE
                    WHEN st = 'canceled' THEN now() - interval '200 days' + (i % 180) * interval '1 day'
                    WHEN (hashint4(i) & 2147483647) < $share * 2147483647
                        THEN now() - interval '2 days' - (i % 241) * interval '1 hour'
                    ELSE now() + (i % 43200) * interval '1 minute' END AS e) p;
SQL
        echo "subscriptions $to/$subscriptions ($(( $(date +%s) - started )) s)" >&2
    done
    run -c 'VACUUM ANALYZE subscriptions'
    # Again: an autovacuum ANALYZE running alongside the first holds back the horizon, and
    # pages it leaves not all-visible turn the index-only scans into heap fetches.
    run -c 'VACUUM subscriptions'
fi

rows=$(run -Atc 'SELECT count(*) FROM subscriptions')
visible=$(run -Atc "SELECT relallvisible || ' of ' || relpages FROM pg_class WHERE oid = 'subscriptions'::regclass")
echo "subscriptions: $rows (pages all-visible: $visible); overdue by provider (24 h grace):"
run -Atc "SELECT provider_key || ' ' || overdue FROM overdue_subscription_counts()" | sed 's/^/  /'
echo "plan of the per-provider count (auto_explain, one provider):"
run -At <<'SQL' 2>&1 | grep -E 'Index Only Scan|Index Scan|Seq Scan|Index Cond|Heap Fetches' | head -12 | sed 's/^/  /'
LOAD 'auto_explain';
SET auto_explain.log_min_duration = 0;
SET auto_explain.log_nested_statements = on;
SET auto_explain.log_analyze = on;
SET auto_explain.log_buffers = on;
SET auto_explain.log_level = notice;
SET client_min_messages = notice;
SELECT * FROM overdue_subscription_counts() LIMIT 1;
SQL
# One session, as the receiver's gauge and the desk's pool read it: the first call pays the
# session's catalog and plan caches, reported apart; the median is over the RUNS after it.
script=$'\\timing on\n'
for ((r = 0; r <= runs; ++r)); do
    script+=$'SELECT sum(overdue) FROM overdue_subscription_counts();\n'
done
mapfile -t times < <(run -At <<<"$script" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
first=${times[0]}
times=("${times[@]:1}")
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
echo "overdue_subscription_counts(): first in a new session $first ms; then ${times[*]} ms;" \
    "median $median ms"
