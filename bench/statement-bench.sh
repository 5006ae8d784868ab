#!/usr/bin/env bash
# The statement import at size (#27), on a database filled by bench/generate-large.sh
# (1,000,000 subscriptions, 12,000,000 billing periods; stripe-main holds a quarter of them).
#
#   bench/statement-bench.sh --db CONNINFO [--month YYYY-MM] [--days N] [--differing N]
#                            [--backfill-compare N]
#
# 1. A Stripe statement (JSON lines of invoices, as `GET /v1/invoices` lists them) of every
#    stripe-main renewal paid on the first N days of --month (default 2025-11; --days default
#    9: in the generated set stripe-main's renewals fall on every fourth day, 35,714 a day)
#    plus renewals missing here, each continuing its subscription's current period (the
#    backfill): --missing N, default 9/91 of the recorded ones, so that the statement is 90 %
#    matched, 9 % missing and 1 % differing (--days 9: 107,142 recorded, 117,737 objects).
#    --differing of the recorded ones (default 1 % of the statement) carry another amount. The statement is written by the database itself (COPY), from
#    the rows it will be compared with.
# 2. The backfill against `renewalctl apply`, in the same run, of the same renewals:
#    --backfill-compare renewals (default 5,000) of other subscriptions, paid on a day nothing
#    else was (in the 2030s, one per run), imported as a statement
#    with --dry-run (the whole run, then rolled back), then the same renewals applied with
#    `renewalctl apply` (one statement per renewal, committed).
# 3. The import of the 100,000-object statement, timed; its counts printed.
# Writes into the database (backfills, cases, a statement run): use a scratch copy.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

db=""
month=2025-11
days=9
differing=""
missing=""
compare=5000
while [[ $# -gt 0 ]]; do
    case "$1" in
        --db) db="$2"; shift 2 ;;
        --month) month="$2"; shift 2 ;;
        --days) days="$2"; shift 2 ;;
        --differing) differing="$2"; shift 2 ;;
        --missing) missing="$2"; shift 2 ;;
        --backfill-compare) compare="$2"; shift 2 ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "statement-bench.sh: unknown argument $1" >&2; exit 64 ;;
    esac
done
[[ -n "$db" ]] || { echo "statement-bench.sh: --db CONNINFO is required" >&2; exit 64; }

dir=$(mktemp -d /tmp/rd-statement-bench-XXXXXX)
# RD_BENCH_KEEP=1 keeps the statement files (to import them again, or profile).
[[ -n "${RD_BENCH_KEEP:-}" ]] && echo "files in $dir" || trap 'rm -rf "$dir"' EXIT
run() { psql "$db" -X -q -At -v ON_ERROR_STOP=1 "$@"; }
from_day="$month-01"
to_day=$(printf '%s-%02d' "$month" "$days")

run -c "INSERT INTO billing_providers (provider_key, kind, display_name)
        VALUES ('stripe-main', 'stripe', 'Stripe') ON CONFLICT DO NOTHING"

# A Stripe invoice (API before basil) as JSON, from a renewal's facts.
invoice_sql="json_build_object('id', k, 'object', 'invoice', 'subscription', sub,
    'billing_reason', 'subscription_cycle', 'status', 'paid', 'amount_paid', amount,
    'currency', 'usd', 'created', extract(epoch FROM least(paid, ps + interval '1 day'))::bigint - 60,
    'customer_email', 'customer@example.com',
    'status_transitions', json_build_object('paid_at', extract(epoch FROM paid)::bigint),
    'lines', json_build_object('object', 'list', 'has_more', false, 'data', json_build_array(
        json_build_object('type', 'subscription', 'proration', false, 'period',
            json_build_object('start', extract(epoch FROM ps)::bigint,
                              'end', extract(epoch FROM pe)::bigint)))))"

# Subscriptions whose next renewal may be recorded: active, not set to cancel, no open case.
free_subs="SELECT s.id, s.provider_subscription_id, s.current_period_end
             FROM subscriptions s
            WHERE s.provider_key = 'stripe-main' AND s.status = 'active'
              AND NOT s.cancel_at_period_end
              AND NOT EXISTS (SELECT 1 FROM reconciliation_cases c WHERE c.subscription_id = s.id)"

recorded=$(run -c "SELECT count(*) FROM subscription_billing_periods
                    WHERE provider_key = 'stripe-main' AND paid_at >= '$from_day'
                      AND paid_at < date '$to_day' + 1")
[[ -n "$missing" ]] || missing=$((recorded * 9 / 91))
[[ -n "$differing" ]] || differing=$(((recorded + missing) / 100))
# Renewal keys of this run's own: the bench can run again on the same database.
tag=$(date +%s)
# The comparison's renewals are paid on a day of their own (nothing else is), so that its
# statement finds nothing "not in the statement" to open cases for: only backfills are timed.
compare_day=$(date -u -d "2030-01-01 + $((tag % 3000)) days" +%F)
echo "statement: $recorded recorded renewals of stripe-main paid $from_day..$to_day" \
     "($differing of them differing), $missing missing here"

# 1. The statement, and the comparison's renewals.
run > "$dir/statement.jsonl" <<SQL
COPY (
  SELECT $invoice_sql FROM (
    SELECT b.provider_renewal_key AS k, s.provider_subscription_id AS sub,
           b.paid_amount_minor + CASE WHEN row_number() OVER (ORDER BY b.id) <= $differing
                                      THEN 100 ELSE 0 END AS amount,
           b.paid_at AS paid, b.period_start AS ps, b.period_end AS pe
      FROM subscription_billing_periods b JOIN subscriptions s ON s.id = b.subscription_id
     WHERE b.provider_key = 'stripe-main' AND b.paid_at >= '$from_day'
       AND b.paid_at < date '$to_day' + 1
    UNION ALL
    SELECT 'in_bench_missing_' || '$tag' || '_' || f.provider_subscription_id, f.provider_subscription_id, 2000,
           timestamptz '$from_day 12:00Z' + (row_number() OVER (ORDER BY f.id) % $days) * interval '1 day',
           f.current_period_end, f.current_period_end + interval '1 month'
      FROM ($free_subs ORDER BY s.id LIMIT $missing) f
  ) x
) TO STDOUT
SQL
run > "$dir/compare.jsonl" <<SQL
COPY (
  SELECT $invoice_sql FROM (
    SELECT 'in_bench_compare_' || '$tag' || '_' || f.provider_subscription_id AS k, f.provider_subscription_id AS sub,
           2000 AS amount, timestamptz '$compare_day 12:00Z' AS paid,
           f.current_period_end AS ps, f.current_period_end + interval '1 month' AS pe
      FROM ($free_subs ORDER BY s.id DESC LIMIT $compare) f
  ) x
) TO STDOUT
SQL
run > "$dir/compare-events.jsonl" <<SQL
COPY (
  SELECT json_build_object('providerKey', 'stripe-main',
      'providerEventId', 'evt_bench_compare_' || '$tag' || '_' || f.provider_subscription_id,
      'providerSubscriptionId', f.provider_subscription_id,
      'providerRenewalKey', 'in_bench_compare_' || '$tag' || '_' || f.provider_subscription_id,
      'providerVersion', NULL,
      'period', json_build_object('start', rd_rfc3339(f.current_period_end),
                                  'end', rd_rfc3339(f.current_period_end + interval '1 month')),
      'paidAmountMinor', 2000, 'currency', 'USD',
      'paidAt', '${compare_day}T12:00:00Z')
    FROM ($free_subs ORDER BY s.id DESC LIMIT $compare) f
) TO STDOUT
SQL
echo "files: $(wc -l < "$dir/statement.jsonl") statement objects ($(du -h "$dir/statement.jsonl" | cut -f1))," \
     "$(wc -l < "$dir/compare.jsonl") for the comparison"

seconds() { local t0=$1 t1=$2; awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'; }

# 2. Backfill against apply, the same renewals.
t0=$(date +%s.%N)
"$ctl" statement import --db "$db" --provider-key stripe-main --from "$compare_day" --to "$compare_day" \
    --dry-run --json "$dir/compare.jsonl" > "$dir/compare-result.json" || true
t1=$(date +%s.%N)
"$ctl" apply --db "$db" < "$dir/compare-events.jsonl" > /dev/null || true
t2=$(date +%s.%N)
backfill_s=$(seconds "$t0" "$t1")
apply_s=$(seconds "$t1" "$t2")
echo "backfill (statement import --dry-run): $compare renewals in ${backfill_s} s;" \
     "renewalctl apply: ${apply_s} s;" \
     "$(awk -v n="$compare" -v b="$backfill_s" -v a="$apply_s" \
         'BEGIN { printf "%.0f vs %.0f renewals/s: %.2fx", n / b, n / a, a / b }')"
grep -o '"backfilled":[0-9]*' "$dir/compare-result.json" || true

# 3. The 100,000.
t0=$(date +%s.%N)
status=0
"$ctl" statement import --db "$db" --provider-key stripe-main --from "$from_day" --to "$to_day" \
    --json "$dir/statement.jsonl" > "$dir/result.json" || status=$?
t1=$(date +%s.%N)
echo "import of $(wc -l < "$dir/statement.jsonl") objects: $(seconds "$t0" "$t1") s, exit $status"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print({k: j[k] for k in ("runId","renewals","matched","backfilled","unapplied","differing","notInStatement","cases")})' "$dir/result.json" 2>/dev/null \
    || head -c 600 "$dir/result.json"
