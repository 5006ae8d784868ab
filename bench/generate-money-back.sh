#!/usr/bin/env bash
# Adds money back (#40) to a database of bench/generate-large.sh, for the ledger's benchmarks:
# N movements (default 1,000,000) of the renewals recorded there, as money_movements holds them,
# with one totals delta each (what record_money_movements appends), then folded as
# `renewalctl fold` folds them. Nine in ten are a refund (a quarter of the renewal) or, one in
# five of those, a chargeback (the whole renewal); the tenth is the reversal of one of them, ten
# days later. Each is dated by its own day: 0 to 24 days after its renewal was paid.
# Not written: the audit row and the outbox intent of each (the ledger reads neither), so
# `renewalctl audit verify` says nothing of these movements.
#
#   bench/generate-money-back.sh --db "host=... dbname=..." [--movements N]
#   build/bench/renewal-desk-bench --db "..." --ledger-only --repeat 5
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

db=""
movements=1000000
while [[ $# -gt 0 ]]; do
    case "$1" in
        --db) db="$2"; shift 2 ;;
        --movements) movements="$2"; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "generate-money-back.sh: unknown argument $1" >&2; exit 64 ;;
    esac
done
[[ -n "$db" ]] || { echo "generate-money-back.sh: --db CONNINFO is required" >&2; exit 64; }
[[ "$movements" =~ ^[1-9][0-9]*$ ]] \
    || { echo "generate-money-back.sh: --movements takes a positive whole number" >&2; exit 64; }

started=$(date +%s)
psql "$db" -X -q -v ON_ERROR_STOP=1 <<SQL
SET synchronous_commit = off;
BEGIN;
-- The first (N - N/10) renewals by id get a refund or a chargeback; every ninth of those gets
-- its reversal too: N/10 reversals, N movements in all.
CREATE TEMP TABLE gen_back ON COMMIT DROP AS
SELECT b.id AS billing_period_id, b.subscription_id, b.provider_key, b.currency, b.paid_at,
       b.paid_amount_minor, x.n
  FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM subscription_billing_periods
         ORDER BY id LIMIT $movements - $movements / 10) x
  JOIN subscription_billing_periods b ON b.id = x.id;
INSERT INTO money_movements (provider_key, movement_key, kind, subscription_id,
        billing_period_id, amount_minor, currency, occurred_at, provider_event_id)
SELECT g.provider_key, 'mb_' || g.n, CASE WHEN g.n % 5 = 0 THEN 'chargeback' ELSE 'refund' END,
       g.subscription_id, g.billing_period_id,
       CASE WHEN g.n % 5 = 0 THEN g.paid_amount_minor ELSE greatest(g.paid_amount_minor / 4, 1) END,
       g.currency, g.paid_at + (g.n % 25) * interval '1 day' + (g.n % 24) * interval '1 hour',
       'evt_mb_' || g.n
  FROM gen_back g;
INSERT INTO money_movements (provider_key, movement_key, kind, subscription_id,
        billing_period_id, amount_minor, currency, occurred_at, provider_event_id)
SELECT m.provider_key, m.movement_key,
       CASE m.kind WHEN 'refund' THEN 'refund_reversal' ELSE 'chargeback_reversal' END,
       m.subscription_id, m.billing_period_id, m.amount_minor, m.currency,
       m.occurred_at + interval '10 days', m.provider_event_id || '_reversed'
  FROM money_movements m
 WHERE m.movement_key LIKE 'mb\_%' AND substr(m.movement_key, 4)::bigint % 9 = 0
 ORDER BY m.occurred_at
 LIMIT $movements / 10;
-- One delta a movement, by its own day, as record_money_movements appends it.
INSERT INTO money_back_deltas (day, provider_key, currency, kind, movements, amount_minor)
SELECT (m.occurred_at AT TIME ZONE 'UTC')::date, m.provider_key, m.currency, m.kind, 1,
       m.amount_minor
  FROM money_movements m WHERE m.movement_key LIKE 'mb\_%';
COMMIT;
ANALYZE money_movements;
SQL
echo "movements written in $(( $(date +%s) - started )) s: $(psql "$db" -X -At -c \
    "SELECT count(*) FROM money_movements WHERE movement_key LIKE 'mb\_%'")"
fold_started=$(date +%s)
"$ctl" fold --db "$db"
echo "folded in $(( $(date +%s) - fold_started )) s"
