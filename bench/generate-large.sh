#!/usr/bin/env bash
# Fills a database with a large, realistic-looking data set for the desk's benchmark:
# 1,000,000 subscriptions over four providers and 12 monthly billing periods each
# (12,000,000 rows), a thousand open reconciliation cases and some undelivered outbox intents.
# Everything is generated server-side (INSERT ... SELECT generate_series), in batches so that
# progress shows and no transaction grows without bound.
#
#   bench/generate-large.sh --db "host=... dbname=..." [--subscriptions N] [--periods N]
#
# The database must be migrated and should be empty (ids are deterministic: a second run
# collides with the first and stops at the unique constraints).
set -euo pipefail

db=""
subscriptions=1000000
periods=12
batch=50000
while [[ $# -gt 0 ]]; do
    case "$1" in
        --db) db="$2"; shift 2 ;;
        --subscriptions) subscriptions="$2"; shift 2 ;;
        --periods) periods="$2"; shift 2 ;;
        --batch) batch="$2"; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "generate-large.sh: unknown argument $1" >&2; exit 64 ;;
    esac
done
if [[ -z "$db" ]]; then
    echo "generate-large.sh: --db CONNINFO is required" >&2
    exit 64
fi

run() { psql "$db" -X -q -v ON_ERROR_STOP=1 "$@"; }

started=$(date +%s)
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
echo "done in $(( $(date +%s) - started )) s"
