#!/usr/bin/env bash
# Fills a database with a large, realistic-looking data set for the desk's benchmark:
# 1,000,000 subscriptions over four providers and 12 monthly billing periods each
# (12,000,000 rows), a thousand open reconciliation cases and some undelivered outbox intents,
# then the audit trail the product writes for them: one `subscription_imported` audit per
# subscription (what `renewalctl import` writes), one `subscription_renewed` audit per billing
# period (what the renewal core writes), and the cases' "opened" history entries, all
# hash-chained by the chain triggers of migration 0003 (`renewalctl audit verify` checks them).
# Everything is generated server-side (INSERT ... SELECT generate_series), in batches so that
# progress shows and no transaction grows without bound.
#
#   bench/generate-large.sh --db "host=... dbname=..." [--subscriptions N] [--periods N]
#   bench/generate-large.sh --db "..." --only-audits   # the audit phase alone, on a database
#                                                      # generated without audits
#   bench/generate-large.sh --db "..." --no-audits     # everything but the audit phase (the
#                                                      # ledger's benchmarks read no audit)
#
# The database must be migrated and should be empty (ids are deterministic: a second run
# collides with the first and stops at the unique constraints). --only-audits needs a database
# with no audit rows yet.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

db=""
subscriptions=1000000
periods=12
batch=50000
only_audits=0
no_audits=0
through_trigger=false
while [[ $# -gt 0 ]]; do
    case "$1" in
        --db) db="$2"; shift 2 ;;
        --subscriptions) subscriptions="$2"; shift 2 ;;
        --periods) periods="$2"; shift 2 ;;
        --batch) batch="$2"; shift 2 ;;
        --only-audits) only_audits=1; shift ;;
        --no-audits) no_audits=1; shift ;;
        --audits-through-trigger) through_trigger=true; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "generate-large.sh: unknown argument $1" >&2; exit 64 ;;
    esac
done
if [[ -z "$db" ]]; then
    echo "generate-large.sh: --db CONNINFO is required" >&2
    exit 64
fi

run() { psql "$db" -X -q -v ON_ERROR_STOP=1 "$@"; }

started=$(date +%s)
if ((only_audits == 0)); then
for ((from = 1; from <= subscriptions; from += batch)); do
    to=$((from + batch - 1))
    ((to > subscriptions)) && to=$subscriptions
    # Subscription i starts its first period on day (i % 28) of January 2025 and has had
    # `periods` monthly renewals since: its current period is the last one.
    run <<SQL
SET synchronous_commit = off;
BEGIN;
WITH s AS (
INSERT INTO subscriptions (provider_key, provider_subscription_id, status, current_period_start,
                           current_period_end, cancel_at_period_end, revision)
SELECT (ARRAY['stripe-main', 'paddle-eu', 'stripe-us', 'chargebee'])[1 + i % 4],
       'sub_' || substr(md5(i::text), 1, 10) || to_char(i, 'FM0000000'),
       CASE WHEN i % 53 = 0 THEN 'past_due' WHEN i % 41 = 0 THEN 'canceled'
            WHEN i % 97 = 0 THEN 'trialing' ELSE 'active' END,
       timestamptz '2025-01-01 00:00Z' + (i % 28) * interval '1 day'
           + ($periods - 1) * interval '1 month',
       timestamptz '2025-01-01 00:00Z' + (i % 28) * interval '1 day'
           + $periods * interval '1 month',
       i % 29 = 0, $periods + 1
  FROM generate_series($from, $to) AS i
RETURNING id, provider_key, provider_subscription_id, current_period_start, current_period_end)
INSERT INTO subscription_billing_periods
       (subscription_id, provider_key, provider_renewal_key, provider_event_id, period_start,
        period_end, paid_amount_minor, currency, paid_at)
SELECT s.id, s.provider_key, 'in_' || s.provider_subscription_id || '_' || k,
       'evt_' || s.provider_subscription_id || '_' || k,
       s.current_period_start - (${periods} - 1 - k) * interval '1 month',
       s.current_period_end - (${periods} - 1 - k) * interval '1 month',
       CASE s.provider_key WHEN 'paddle-eu' THEN 1800 WHEN 'chargebee' THEN 2500 ELSE 2000 END,
       CASE s.provider_key WHEN 'paddle-eu' THEN 'EUR' WHEN 'chargebee' THEN 'GBP' ELSE 'USD' END,
       s.current_period_start - (${periods} - 1 - k) * interval '1 month' + interval '3 minutes'
  FROM s CROSS JOIN generate_series(0, ${periods} - 1) AS k;
COMMIT;
SQL
    echo "subscriptions $to/$subscriptions, billing periods $((to * periods)) ($(( $(date +%s) - started )) s)"
done

# Open cases on one subscription in a thousand, and undelivered outbox intents.
run <<SQL
SET synchronous_commit = off;
INSERT INTO reconciliation_cases (provider_key, provider_subscription_id, subscription_id,
        provider_renewal_key, first_provider_event_id, last_provider_event_id, error_code, event,
        event_fingerprint, local_state)
SELECT s.provider_key, s.provider_subscription_id, s.id, 'in_late_' || s.provider_subscription_id,
       'evt_late_' || s.provider_subscription_id, 'evt_late_' || s.provider_subscription_id,
       'renewal_period_is_not_contiguous',
       jsonb_build_object('providerKey', s.provider_key,
           'providerEventId', 'evt_late_' || s.provider_subscription_id,
           'providerSubscriptionId', s.provider_subscription_id,
           'providerRenewalKey', 'in_late_' || s.provider_subscription_id,
           'providerVersion', NULL,
           'period', rd_period_json(s.current_period_end + interval '29 days',
                                    s.current_period_end + interval '29 days 1 month'),
           'paidAmountMinor', 2000, 'currency', 'USD',
           'paidAt', rd_rfc3339(s.current_period_end + interval '29 days')),
       md5(s.id::text), rd_subscription_state_json(s)
  FROM subscriptions s
 WHERE s.status = 'active' AND s.provider_subscription_id LIKE 'sub_0%'
 LIMIT GREATEST($subscriptions / 1000, 1);
INSERT INTO subscription_outbox (event_type, subscription_id, billing_period_id, payload,
                                 attempts, last_error)
SELECT 'subscription_renewed', b.subscription_id, b.id, rd_billing_period_json(b),
       CASE WHEN x.n % 3 = 0 THEN 4 ELSE 0 END,
       CASE WHEN x.n % 3 = 0 THEN 'HTTP 503 from the ledger' END
  FROM (SELECT id, row_number() OVER () AS n FROM subscription_billing_periods
         WHERE period_start >= timestamptz '2025-12-01 00:00Z'
         LIMIT GREATEST($subscriptions / 200, 1)) x
  JOIN subscription_billing_periods b ON b.id = x.id;
ANALYZE;
SQL
fi

# The audit trail. Rows go in chain order (a subscription's import, then its renewals oldest
# first), so the chain trigger of migration 0003 links them exactly as it links the product's
# own writes: the same canonical form, the same hashes, nothing re-implemented here. Each of the
# `periods + 1` statements of a batch inserts one position of every chain of the batch; the
# trigger's probe for the chain's head is one index lookup. Committed per batch (a DO block may
# COMMIT), with progress as notices.
if ((no_audits == 0)); then
audits_started=$(date +%s)
run <<SQL
SET synchronous_commit = off;
SET client_min_messages = notice;
-- The trigger's probe for a chain's head is planned once per session, while the table is still
-- empty (on a database generated without audits): a sequential scan then, kept as the table
-- grows, made every insert read every row (minutes for the first 100,000). The index is the
-- only sensible path at any size. The same for the direct route's probe of the previous
-- position: a nested loop over the batch, never a merge join reading the whole chain index.
-- Without JIT: the disabled paths' costs would make every statement pay a second of compiling.
SET enable_seqscan = off;
SET enable_mergejoin = off;
SET enable_hashjoin = off;
SET jit = off;
-- Without the trigger (the default), the chain is computed set-based by the trigger's own
-- functions, and the session skips triggers (session_replication_role = replica: the chain
-- trigger, and the foreign-key checks, which hold by construction: every id comes from the
-- rows joined). --audits-through-trigger takes the product's path instead, for comparison.
SET session_replication_role = $([[ $through_trigger == true ]] && echo origin || echo replica);
DO \$\$
DECLARE
    last_id uuid := '00000000-0000-0000-0000-000000000000';
    done bigint := 0;
    total bigint := (SELECT count(*) FROM subscriptions);
    t0 timestamptz := clock_timestamp();
    pos int;
BEGIN
    IF EXISTS (SELECT 1 FROM subscription_transition_audits) THEN
        RAISE EXCEPTION 'generate-large: this database has audit rows already; the audit phase '
                        'writes every chain from its start';
    END IF;
    CREATE TEMP TABLE gen_periods (subscription_id uuid, k int, id uuid, provider_key text,
        provider_renewal_key text, provider_event_id text, period_start timestamptz,
        period_end timestamptz, paid_amount_minor bigint, currency text, paid_at timestamptz,
        prev_start timestamptz, prev_end timestamptz, status text, cancel boolean);
    CREATE TEMP TABLE gen_audits AS SELECT * FROM subscription_transition_audits WITH NO DATA;
    LOOP
        TRUNCATE gen_periods;
        INSERT INTO gen_periods
        SELECT b.subscription_id,
               row_number() OVER (PARTITION BY b.subscription_id ORDER BY b.period_start)::int,
               b.id, b.provider_key, b.provider_renewal_key, b.provider_event_id,
               b.period_start, b.period_end, b.paid_amount_minor, b.currency, b.paid_at,
               lag(b.period_start, 1, b.period_start - interval '1 month')
                   OVER (PARTITION BY b.subscription_id ORDER BY b.period_start),
               lag(b.period_end, 1, b.period_start)
                   OVER (PARTITION BY b.subscription_id ORDER BY b.period_start),
               s.status, s.cancel_at_period_end
          FROM (SELECT * FROM subscriptions WHERE id > last_id ORDER BY id LIMIT $batch) s
          JOIN subscription_billing_periods b ON b.subscription_id = s.id;
        EXIT WHEN NOT FOUND;
        SELECT subscription_id INTO last_id FROM gen_periods
         ORDER BY subscription_id DESC LIMIT 1;
        -- The batch's audits, each at its place in its chain (chain_seq): the import a month
        -- before the first renewal, with the period that renewal follows (what
        -- renewalctl import writes); then the renewal core's audit per billing period: the
        -- state before, the amount; a webhook of the provider, a few seconds after the payment.
        TRUNCATE gen_audits;
        INSERT INTO gen_audits (subscription_id, transition, actor_type, actor_id, db_role,
               period_start, period_end, details, created_at, chain_seq, provider_key)
        SELECT g.subscription_id, 'subscription_imported', 'import', 'generate-large.sh',
               session_user, g.prev_start, g.prev_end,
               jsonb_build_object('status', 'active', 'cancelAtPeriodEnd', g.cancel),
               g.prev_start + interval '1 hour', 1, g.provider_key
          FROM gen_periods g WHERE g.k = 1;
        INSERT INTO gen_audits (subscription_id, transition, billing_period_id, actor_type,
               actor_id, db_role, provider_event_id, provider_renewal_key, period_start,
               period_end, details, created_at, chain_seq, provider_key)
        SELECT g.subscription_id, 'subscription_renewed', g.id, 'webhook', g.provider_key,
               session_user, g.provider_event_id, g.provider_renewal_key, g.period_start,
               g.period_end,
               jsonb_build_object('before', jsonb_build_object(
                       'subscriptionId', g.subscription_id, 'status', 'active',
                       'currentPeriod', rd_period_json(g.prev_start, g.prev_end),
                       'cancelAtPeriodEnd', g.cancel, 'providerVersion', NULL,
                       'revision', g.k),
                   'paidAmountMinor', g.paid_amount_minor, 'currency', g.currency),
               g.paid_at + interval '4 seconds', g.k + 1, g.provider_key
          FROM gen_periods g;
        -- One position of every chain of the batch per statement, in chain order.
        FOR pos IN 1 .. (SELECT max(a.chain_seq) FROM gen_audits a) LOOP
            IF $through_trigger THEN
                INSERT INTO subscription_transition_audits (subscription_id, transition,
                       billing_period_id, actor_type, actor_id, db_role, provider_event_id,
                       provider_renewal_key, period_start, period_end, reason, comment,
                       details, created_at)
                SELECT a.subscription_id, a.transition, a.billing_period_id, a.actor_type,
                       a.actor_id, a.db_role, a.provider_event_id, a.provider_renewal_key,
                       a.period_start, a.period_end, a.reason, a.comment, a.details,
                       a.created_at
                  FROM gen_audits a WHERE a.chain_seq = pos ORDER BY a.subscription_id;
            ELSE
                -- What the trigger does, set-based: the previous position's hash by the chain
                -- index, the row's hash by the same rd_audit_canonical and rd_sha256_hex.
                INSERT INTO subscription_transition_audits (subscription_id, transition,
                       billing_period_id, actor_type, actor_id, db_role, provider_event_id,
                       provider_renewal_key, period_start, period_end, reason, comment,
                       details, created_at, chain_seq, prev_hash, row_hash, provider_key)
                SELECT (r).subscription_id, (r).transition, (r).billing_period_id,
                       (r).actor_type, (r).actor_id, (r).db_role, (r).provider_event_id,
                       (r).provider_renewal_key, (r).period_start, (r).period_end, (r).reason,
                       (r).comment, (r).details, (r).created_at, (r).chain_seq, (r).prev_hash,
                       rd_sha256_hex(rd_audit_canonical(r)), (r).provider_key
                  FROM (SELECT ROW(NULL, a.subscription_id, a.transition, a.billing_period_id,
                                   a.actor_type, a.actor_id, a.db_role, a.provider_event_id,
                                   a.provider_renewal_key, a.period_start, a.period_end,
                                   a.reason, a.comment, a.details, a.created_at, a.chain_seq,
                                   coalesce(p.row_hash, ''), NULL, a.provider_key
                               )::subscription_transition_audits AS r
                          FROM gen_audits a
                          LEFT JOIN subscription_transition_audits p
                            ON p.subscription_id = a.subscription_id
                           AND p.chain_seq = a.chain_seq - 1
                         WHERE a.chain_seq = pos
                         ORDER BY a.subscription_id) x;
            END IF;
        END LOOP;
        done := done + (SELECT count(DISTINCT subscription_id) FROM gen_periods);
        COMMIT;
        RAISE NOTICE 'audits: subscriptions %/% (% s)', done, total,
            extract(epoch FROM clock_timestamp() - t0)::int;
    END LOOP;
    SET LOCAL session_replication_role = origin;
    -- Every generated case opened by the delivery that brought its renewal, as the renewal
    -- core records it; one in three was claimed by an operator and noted since.
    INSERT INTO reconciliation_case_history (case_id, action, outcome, error_code, actor,
           details, created_at, chain_seq, prev_hash, row_hash)
    SELECT c.id, 'opened', 'open', c.error_code, 'renewal_ingest',
           jsonb_build_object('providerEventId', c.first_provider_event_id,
                              'localState', c.local_state),
           c.first_seen_at, 0, '', ''
      FROM reconciliation_cases c
     WHERE NOT EXISTS (SELECT 1 FROM reconciliation_case_history h WHERE h.case_id = c.id)
     ORDER BY c.id;
    INSERT INTO reconciliation_case_history (case_id, action, outcome, actor, details,
           created_at, chain_seq, prev_hash, row_hash)
    SELECT c.id, 'claimed', 'claimed', 'alice', '{}', c.first_seen_at + interval '2 hours',
           0, '', ''
      FROM reconciliation_cases c WHERE c.id % 3 = 0 ORDER BY c.id;
    UPDATE reconciliation_cases SET assigned_to = 'alice',
           assigned_at = first_seen_at + interval '2 hours'
     WHERE id % 3 = 0 AND status = 'open';
    INSERT INTO reconciliation_case_history (case_id, action, outcome, actor, comment,
           created_at, chain_seq, prev_hash, row_hash)
    SELECT c.id, 'noted', 'noted', 'alice', 'asked the provider for the invoice',
           c.first_seen_at + interval '3 hours', 0, '', ''
      FROM reconciliation_cases c WHERE c.id % 3 = 0 ORDER BY c.id;
END;
\$\$;
ANALYZE subscription_transition_audits;
ANALYZE reconciliation_case_history;
SQL
echo "audits written in $(( $(date +%s) - audits_started )) s"
fi
echo "done in $(( $(date +%s) - started )) s"
