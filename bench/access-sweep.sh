#!/usr/bin/env bash
# Payment trouble and access (#41) on a large subscriptions table: `renewalctl access sweep`
# three times (the first records every transition due, the second finds little or nothing,
# the third judges an hour later with --now), each sweep's wall time, examined and changed;
# the plan the candidates query runs with (auto_explain of rd_access_candidates(now(), NULL,
# 1000): one batch); access_verdict_json (`renewalctl access show`) timed in one session for
# SAMPLES subscriptions in trouble and SAMPLES healthy ones, median and p95; and the renewalctl
# process end to end for CLI-RUNS calls.
#
#   bench/access-sweep.sh [--db CONNINFO] [--subscriptions N] [--trouble-share F]
#                         [--batch B] [--samples S] [--cli-runs C]
#
# Without --db: a scratch cluster, migrated, filled, and removed at the end. With --db: a
# migrated database; rows are added only when it holds no subscriptions. The sweeps record
# transitions (with their audit rows and outbox intents): use a scratch database.
# The generated shape: overdue-count.sh's (four providers, generate-large.sh's statuses and
# cancellations: canceled ones ended 20-200 days ago), except that a share F (default 0.01) of
# the subscriptions not canceled is in trouble, its period ended 1 to 20 days ago; every other
# period ends within the next 30 days. Each has its import's audit row (the chain a sweep's
# audit rows extend). Of those in trouble, half have 1 to 3 failed attempts of an invoice of
# their own (the last one's next retry in the future for half of them, none for the others)
# and a tenth a provider standing (past_due or unpaid) observed after the period's end. No
# access policy: 7 days of grace, then blocked. --batch: the sweep's batch (default 1000,
# renewalctl's). Defaults: 1,000,000 subscriptions, 200 samples, 20 CLI runs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
db="" subscriptions=1000000 share=0.01 sweep_batch=1000 samples=200 cli_runs=20 batch=100000
while [[ $# -gt 0 ]]; do
    case "$1" in
        --db) db="$2"; shift 2 ;;
        --subscriptions) subscriptions="$2"; shift 2 ;;
        --trouble-share) share="$2"; shift 2 ;;
        --batch) sweep_batch="$2"; shift 2 ;;
        --samples) samples="$2"; shift 2 ;;
        --cli-runs) cli_runs="$2"; shift 2 ;;
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
        *) echo "access-sweep.sh: unknown argument $1" >&2; exit 64 ;;
    esac
done
[[ "$subscriptions" =~ ^[0-9]+$ && "$sweep_batch" =~ ^[1-9][0-9]*$ && "$samples" =~ ^[1-9][0-9]*$
   && "$cli_runs" =~ ^[1-9][0-9]*$ ]] \
    || { echo "access-sweep.sh: --subscriptions, --batch, --samples and --cli-runs take whole numbers" >&2; exit 64; }
((sweep_batch <= 10000)) || { echo "access-sweep.sh: --batch takes 1 to 10000" >&2; exit 64; }
[[ "$share" =~ ^(0(\.[0-9]+)?|1(\.0+)?)$ ]] \
    || { echo "access-sweep.sh: --trouble-share takes a number from 0 to 1" >&2; exit 64; }

if [[ -z "$db" ]]; then
    scratch_cluster rd-access
    db="$url"
    "$ctl" migrate --db "$db" >/dev/null
fi
run() { psql "$db" -X -q -v ON_ERROR_STOP=1 "$@"; }
ms_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }

# A subscription's number i is the last seven digits of its provider id (as overdue-count.sh
# names them); in trouble: not canceled, and hashint4(i) below the share.
trouble="(hashint4(i) & 2147483647) < $share * 2147483647"
if [[ "$(run -Atc 'SELECT count(*) = 0 FROM subscriptions')" == t ]]; then
    started=$(date +%s)
    run -c "INSERT INTO billing_providers (provider_key, kind, display_name)
            VALUES ('stripe-main', 'stripe', 'Stripe (main)'), ('paddle-eu', 'paddle', 'Paddle (EU)'),
                   ('stripe-us', 'stripe', 'Stripe (US)'), ('chargebee', 'chargebee', 'Chargebee')
            ON CONFLICT (provider_key) DO NOTHING"
    for ((from = 1; from <= subscriptions; from += batch)); do
        to=$((from + batch - 1))
        ((to > subscriptions)) && to=$subscriptions
        run <<SQL
SET synchronous_commit = off;
-- Each subscription with the audit row \`renewalctl import\` writes (the first of its chain),
-- as generate-large.sh writes them: set-based, the hash by the chain trigger's own functions,
-- triggers skipped (session_replication_role = replica; the ids come from the rows inserted).
SET session_replication_role = replica;
WITH ins AS (
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
                    WHEN $trouble
                        THEN now() - interval '1 day' - (i % 457) * interval '1 hour'
                    ELSE now() + interval '1 minute' + (i % 43200) * interval '1 minute' END AS e) p
RETURNING id, provider_key, status, current_period_start, current_period_end, cancel_at_period_end)
INSERT INTO subscription_transition_audits (subscription_id, transition, actor_type, actor_id,
       db_role, period_start, period_end, details, created_at, chain_seq, prev_hash, row_hash,
       provider_key)
SELECT (r).subscription_id, (r).transition, (r).actor_type, (r).actor_id, (r).db_role,
       (r).period_start, (r).period_end, (r).details, (r).created_at, 1, '',
       rd_sha256_hex(rd_audit_canonical(r)), (r).provider_key
  FROM (SELECT ROW(NULL, x.id, 'subscription_imported', NULL, 'import', 'access-sweep.sh',
                   session_user, NULL, NULL, x.current_period_start, x.current_period_end, NULL,
                   NULL, jsonb_build_object('status', x.status,
                                            'cancelAtPeriodEnd', x.cancel_at_period_end),
                   x.current_period_start, 1, '', NULL, x.provider_key
               )::subscription_transition_audits AS r
          FROM ins x) a;
SQL
        echo "subscriptions $to/$subscriptions ($(( $(date +%s) - started )) s)" >&2
    done
    # The trouble's facts, inserted as a delivery would leave them (both tables insert-only).
    run <<'SQL'
SET synchronous_commit = off;
CREATE TEMP TABLE troubled AS
SELECT s.id, s.provider_key, s.current_period_end AS e,
       right(s.provider_subscription_id, 7)::int AS i
  FROM subscriptions s
 WHERE s.status <> 'canceled' AND s.current_period_end <= now();
-- Half: 1 to 3 failed attempts of one invoice, spread from the period's end to now; each
-- attempt's next retry is the next one's failure, the last one's in the future or none.
INSERT INTO payment_attempts (provider_key, invoice_key, attempt, subscription_id, failed_at,
                              next_attempt_at, decline_code, amount_minor, currency,
                              provider_event_id)
SELECT t.provider_key, 'in_' || substr(md5(t.i::text), 1, 10) || to_char(t.i, 'FM0000000'), k,
       t.id, at,
       CASE WHEN k < n THEN at + step
            WHEN t.i % 4 < 2 THEN now() + (1 + t.i % 5) * interval '1 day' END,
       (ARRAY['card_declined', 'insufficient_funds', 'expired_card'])[1 + t.i % 3], 1900, 'USD',
       'evt_' || substr(md5(t.i::text || '/' || k), 1, 16)
  FROM troubled t,
       LATERAL (SELECT 1 + t.i % 3 AS n) c,
       LATERAL (SELECT (now() - t.e - interval '2 hours') / n AS step) d,
       LATERAL generate_series(1, n) AS k,
       LATERAL (SELECT t.e + interval '1 hour' + (k - 1) * step AS at) f
 WHERE t.i % 2 = 0;
-- A tenth (with or without attempts): the provider's standing, past_due or unpaid.
INSERT INTO provider_standing_facts (subscription_id, provider_key, standing, observed_at,
                                     provider_event_id)
SELECT t.id, t.provider_key, CASE WHEN (t.i / 20) % 2 = 0 THEN 'past_due' ELSE 'unpaid' END,
       t.e + interval '2 hours', 'evt_st_' || t.i
  FROM troubled t
 WHERE (t.i / 2) % 10 = 0;
SQL
    run -c 'VACUUM ANALYZE subscriptions' -c 'VACUUM ANALYZE subscription_transition_audits' \
        -c 'ANALYZE payment_attempts' -c 'ANALYZE provider_standing_facts'
    # Again: an autovacuum ANALYZE running alongside the first holds back the horizon.
    run -c 'VACUUM subscriptions'
    echo "filled in $(( $(date +%s) - started )) s" >&2
fi

machine "${dir:-/tmp}"
run -At <<'SQL' | sed 's/^/  /'
SELECT 'subscriptions: ' || count(*) || ' (canceled ' || count(*) FILTER (WHERE status = 'canceled')
       || ', period ended and not canceled ' ||
       count(*) FILTER (WHERE status <> 'canceled' AND current_period_end <= now()) || ')'
  FROM subscriptions;
SELECT 'payment attempts: ' || count(*) || ' of ' || count(DISTINCT subscription_id)
       || ' subscriptions (next retry in the future: '
       || count(*) FILTER (WHERE next_attempt_at > now()) || ')' FROM payment_attempts;
SELECT 'standing facts: ' || count(*) || ' (' || string_agg(DISTINCT standing, ', ') || ')'
  FROM provider_standing_facts;
SQL

# One sweep: its wall time (the whole renewalctl process) and its own counts.
sweep() { # LABEL [--now T]
    local label="$1" t out
    shift
    t=$(now)
    out=$("$ctl" access sweep --db "$db" --batch "$sweep_batch" --json "$@")
    echo "sweep $label: $(seconds_since "$t") s wall, $out (load $(load))"
}
sweep "1 (records every transition due)"
sweep "2 (steady state)"
sweep "3 (--now an hour later)" --now "$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)"
echo "recorded verdicts:"
run -Atc "SELECT verdict || ' ' || source || ' ' || count(*) FROM access_verdicts
          GROUP BY verdict, source ORDER BY 1" | sed 's/^/  /'
echo "transitions recorded: $(run -Atc 'SELECT count(*) FROM access_transitions')"

echo "plan of one batch of candidates (auto_explain: rd_access_candidates(now(), NULL, 1000)):"
run -At <<'SQL' 2>&1 | awk '/SELECT c.id FROM/ { state = 1 }
        state == 1 && /cost=.*actual/ { state = 2 }
        state == 2 && /NOTICE|Query Text/ { exit }
        state == 2 && NF { print "  " $0 }'
LOAD 'auto_explain';
SET auto_explain.log_min_duration = 0;
SET auto_explain.log_nested_statements = on;
SET auto_explain.log_analyze = on;
SET auto_explain.log_buffers = on;
SET auto_explain.log_level = notice;
SET client_min_messages = notice;
SELECT count(*) FROM rd_access_candidates(now(), NULL, 1000);
SQL
# The candidates query alone, one batch from the start and one from the middle, in a session.
mid=$(run -Atc "SELECT subscription_id FROM access_verdicts ORDER BY subscription_id
                OFFSET (SELECT count(*) / 2 FROM access_verdicts) LIMIT 1")
script=$'\\timing on\n'
for ((r = 0; r < 5; ++r)); do
    script+=$'SELECT count(*) FROM rd_access_candidates(now(), NULL, 1000);\n'
    script+="SELECT count(*) FROM rd_access_candidates(now(), '$mid', 1000);"$'\n'
done
mapfile -t times < <(run -At <<<"$script" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
echo "rd_access_candidates(now(), after, 1000): ${times[*]} ms (from the start, then from the" \
    "middle, five times); median $(median "${times[@]}") ms"

# access_verdict_json in one session: SAMPLES in trouble and SAMPLES healthy, interleaved at
# random; the first call (the session's catalog and plan caches) is reported apart.
mapfile -t picks < <(run -At -F ' ' <<SQL
SELECT kind, provider_key, provider_subscription_id FROM (
    (SELECT 'T' AS kind, provider_key, provider_subscription_id FROM subscriptions
      WHERE status <> 'canceled' AND current_period_end <= now() ORDER BY random() LIMIT $samples)
    UNION ALL
    (SELECT 'H', provider_key, provider_subscription_id FROM subscriptions
      WHERE status <> 'canceled' AND current_period_end > now() ORDER BY random() LIMIT $samples)
) x ORDER BY random();
SQL
)
script=$'\\timing on\n\\o /dev/null\n'
read -r kind key id <<<"${picks[0]}"
script+="SELECT access_verdict_json('$key', '$id', now());"$'\n'
kinds=()
for p in "${picks[@]}"; do
    read -r kind key id <<<"$p"
    kinds+=("$kind")
    script+="SELECT access_verdict_json('$key', '$id', now());"$'\n'
done
mapfile -t times < <(run -At <<<"$script" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
((${#times[@]} == ${#kinds[@]} + 1)) || die "expected $((${#kinds[@]} + 1)) timings, got ${#times[@]}"
trouble_times=() healthy_times=()
for ((k = 0; k < ${#kinds[@]}; ++k)); do
    if [[ "${kinds[k]}" == T ]]; then trouble_times+=("${times[k + 1]}"); else healthy_times+=("${times[k + 1]}"); fi
done
read -r t50 t95 t99 < <(printf '%s\n' "${trouble_times[@]}" | percentiles)
read -r h50 h95 h99 < <(printf '%s\n' "${healthy_times[@]}" | percentiles)
echo "access_verdict_json(), one session (first call ${times[0]} ms):"
echo "  ${#trouble_times[@]} in trouble: median $t50 ms, p95 $t95 ms, p99 $t99 ms"
echo "  ${#healthy_times[@]} healthy: median $h50 ms, p95 $h95 ms, p99 $h99 ms"

# renewalctl access show, the whole process: CLI-RUNS calls alternating in trouble and healthy.
mapfile -t t_picks < <(printf '%s\n' "${picks[@]}" | grep '^T' | head -n "$cli_runs")
mapfile -t h_picks < <(printf '%s\n' "${picks[@]}" | grep '^H' | head -n "$cli_runs")
cli_times=()
for ((k = 0; k < cli_runs; ++k)); do
    if ((k % 2 == 0)); then p="${t_picks[k / 2]}"; else p="${h_picks[k / 2]}"; fi
    read -r kind key id <<<"$p"
    t=$(now)
    "$ctl" access show --db "$db" --provider-key "$key" --subscription "$id" --json >/dev/null
    cli_times+=("$(ms_since "$t")")
done
t=$(now)
"$ctl" --version >/dev/null 2>&1 || true
echo "renewalctl access show --json, whole process, $cli_runs calls: ${cli_times[*]} ms;" \
    "median $(median "${cli_times[@]}") ms (renewalctl --version: $(ms_since "$t") ms; load $(load))"
