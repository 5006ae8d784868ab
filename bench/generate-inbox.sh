#!/usr/bin/env bash
# Adds processed deliveries to the inbox of a database filled by bench/generate-large.sh, for
# the retention benchmark (bench/purge-bench.sh): ROWS rows (default 1,000,000) of Stripe
# `invoice.paid` (and, one in five, `invoice.created`) events as Stripe sends them: pretty-
# printed JSON of 2–3 KB carrying the customer's name, e-mail, phone, postal
# address (the personal data a retention period is about). Each row is what ingestion keeps:
# a unique provider event id, body_sha256 = SHA-256 of the body, body_size, the adapter's
# normalized JSON, outcome `applied` (linked to the billing period it recorded) or
# `not_a_renewal`, received over the last 400 days in id order (as deliveries arrive).
#
#   bench/generate-inbox.sh --db CONNINFO [--rows N] [--batch N] [--first J] [--last J]
#
# --first/--last: write rows J..J' of the ROWS only (default: all), e.g. to go on after a stop,
# or to follow generate-large.sh while it runs (row j needs subscription 2j, or 2(j - 500,000)).
#
# The deliveries are those of the even-numbered (Stripe) subscriptions of generate-large.sh,
# their two latest periods: up to 1,000,000 rows. Generated server-side (INSERT ... SELECT
# generate_series), one transaction per batch; connect as the tables' owner. Registers the
# providers stripe-main and stripe-us if they are not (the inbox references them). A second
# run stops at the inbox's unique event ids.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

db="" rows=1000000 batch=100000 first=1 last=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --db) db="$2"; shift 2 ;;
        --rows) rows="$2"; shift 2 ;;
        --batch) batch="$2"; shift 2 ;;
        --first) first="$2"; shift 2 ;;
        --last) last="$2"; shift 2 ;;
        -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
        *) echo "generate-inbox.sh: unknown argument $1" >&2; exit 64 ;;
    esac
done
[[ -n "$db" ]] || { echo "generate-inbox.sh: --db CONNINFO is required" >&2; exit 64; }
[[ "$rows" =~ ^[1-9][0-9]*$ && "$batch" =~ ^[1-9][0-9]*$ ]] \
    || { echo "generate-inbox.sh: --rows and --batch take whole numbers" >&2; exit 64; }
((rows <= 1000000)) || { echo "generate-inbox.sh: at most 1,000,000 rows" >&2; exit 64; }
last="${last:-$rows}"
[[ "$first" =~ ^[1-9][0-9]*$ && "$last" =~ ^[1-9][0-9]*$ ]] && ((first <= last && last <= rows)) \
    || { echo "generate-inbox.sh: need 1 <= --first <= --last <= --rows" >&2; exit 64; }
run() { psql "$db" -X -q -v ON_ERROR_STOP=1 "$@"; }

run <<'SQL'
INSERT INTO billing_providers (provider_key, kind, display_name)
VALUES ('stripe-main', 'stripe', 'Stripe (main)'), ('stripe-us', 'stripe', 'Stripe (US)')
ON CONFLICT (provider_key) DO NOTHING;
SQL

started=$(date +%s)
for ((from = first; from <= last; from += batch)); do
    to=$((from + batch - 1))
    ((to > last)) && to=$last
    # Row j: subscription i = 2, 4, ..., 1,000,000 (i % 4 = 0: stripe-main, 2: stripe-us), its
    # period k = 11 for the first 500,000 rows, 10 for the next; its billing period found by
    # the period's event id. One row in five is the invoice.created event of the same invoice.
    written=$(run -At -v from="$from" -v to="$to" -v rows="$rows" <<'SQL'
SET synchronous_commit = off;
WITH written AS (
INSERT INTO webhook_inbox (provider_key, provider_event_id, raw_body, body_size, body_sha256,
                           received_at, deliveries, last_delivery_at, outcome, reason,
                           billing_period_id, normalized, processed_at)
SELECT r.pk, r.eid, r.body, octet_length(r.body), encode(sha256(r.body), 'hex'), r.rcv, 1,
       r.rcv, r.outcome, r.reason, r.bp, r.normalized, r.rcv + interval '42 milliseconds'
  FROM (
SELECT x.pk, x.eid, x.rcv, x.outcome, x.reason,
       CASE WHEN x.created THEN NULL ELSE b.id END AS bp,
       CASE WHEN x.created THEN jsonb_build_object('event', NULL, 'eventIdDerived', false,
                'message', 'Stripe event type invoice.created is not handled',
                'outcome', 'not_a_renewal', 'providerEventId', x.eid,
                'providerSubscriptionId', NULL, 'reason', 'other_event_type')
            ELSE jsonb_build_object('event', jsonb_build_object('currency', b.currency,
                    'paidAmountMinor', b.paid_amount_minor, 'paidAt', to_char(b.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                    'period', jsonb_build_object(
                        'start', to_char(b.period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                        'end', to_char(b.period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
                    'providerEventId', x.eid, 'providerKey', x.pk,
                    'providerRenewalKey', b.provider_renewal_key,
                    'providerSubscriptionId', x.sub, 'providerVersion', NULL),
                'eventIdDerived', false,
                'message', 'invoice ' || b.provider_renewal_key || ' renews subscription ' || x.sub,
                'outcome', 'renewal', 'providerEventId', x.eid,
                'providerSubscriptionId', x.sub, 'reason', 'renewal') END AS normalized,
       convert_to(format($body${
  "id": "%1$s",
  "object": "event",
  "api_version": "2024-06-20",
  "created": %2$s,
  "data": {
    "object": {
      "id": "%3$s",
      "object": "invoice",
      "account_country": "US",
      "account_name": "Example SaaS",
      "amount_due": %4$s,
      "amount_paid": %5$s,
      "amount_remaining": %6$s,
      "attempt_count": 1,
      "attempted": true,
      "auto_advance": false,
      "billing_reason": "subscription_cycle",
      "collection_method": "charge_automatically",
      "created": %7$s,
      "currency": "%8$s",
      "customer": "cus_%9$s",
      "customer_address": {
        "city": "%10$s",
        "country": "%11$s",
        "line1": "%12$s %13$s",
        "line2": "Apt %14$s",
        "postal_code": "%15$s",
        "state": null
      },
      "customer_email": "%33$s",
      "customer_name": "%16$s %17$s",
      "customer_phone": "+1 555 %19$s",
      "customer_tax_exempt": "none",
      "customer_tax_ids": [],
      "hosted_invoice_url": "https://invoice.stripe.com/i/acct_1QxExample/live_%20$s",
      "invoice_pdf": "https://pay.stripe.com/invoice/acct_1QxExample/live_%20$s/pdf",
      "lines": {
        "object": "list",
        "data": [
          {
            "id": "il_%21$s",
            "object": "line_item",
            "amount": %4$s,
            "currency": "%8$s",
            "description": "1 × Pro (at %22$s / month)",
            "livemode": true,
            "metadata": {},
            "period": {
              "start": %23$s,
              "end": %24$s
            },
            "quantity": 1,
            "price": {
              "id": "price_1QxPro",
              "object": "price",
              "unit_amount": %4$s
            },
            "proration": false,
            "subscription": "%25$s",
            "subscription_item": "si_%21$s",
            "type": "subscription"
          }
        ],
        "has_more": false,
        "total_count": 1,
        "url": "/v1/invoices/%3$s/lines"
      },
      "metadata": {
        "crm_account": "%26$s"
      },
      "number": "%27$s",
      "period_start": %28$s,
      "period_end": %23$s,
      "status": "%29$s",
      "status_transitions": {
        "finalized_at": %7$s,
        "marked_uncollectible_at": null,
        "paid_at": %30$s,
        "voided_at": null
      },
      "subtotal": %4$s,
      "total": %4$s,
      "subscription": "%25$s",
      "paid": %31$s,
      "charge": "ch_3%21$s",
      "payment_intent": "pi_3%21$s"
    }
  },
  "livemode": true,
  "pending_webhooks": 1,
  "request": {
    "id": null,
    "idempotency_key": null
  },
  "type": "%32$s"
}
$body$,
           x.eid, extract(epoch FROM x.rcv)::bigint, b.provider_renewal_key,
           b.paid_amount_minor, CASE WHEN x.created THEN 0 ELSE b.paid_amount_minor END,
           CASE WHEN x.created THEN b.paid_amount_minor ELSE 0 END,
           extract(epoch FROM b.period_start)::bigint - 3600, lower(b.currency), x.i,
           (ARRAY['Springfield', 'Portland', 'Saint-Étienne', 'München', 'Leeds', 'Austin',
                  'Kraków', 'Utrecht'])[1 + x.i % 8],
           (ARRAY['US', 'US', 'FR', 'DE', 'GB', 'US', 'PL', 'NL'])[1 + x.i % 8],
           100 + x.i % 9900,
           (ARRAY['Maple Street', 'Baker Street', 'Rue de la République', 'Lindenstraße',
                  'High Street', 'Congress Avenue', 'ulica Długa', 'Oudegracht'])[1 + x.j % 8],
           1 + x.j % 40, lpad((x.i::bigint * 7919 % 100000)::text, 5, '0'),
           (ARRAY['Alice', 'Bruno', 'Chloé', 'Dieter', 'Emma', 'Farid', 'Grażyna', 'Hugo',
                  'Ines', 'Jamal'])[1 + x.i % 10],
           (ARRAY['Smith', 'Martin', 'Müller', 'Kowalski', 'Jones', 'de Vries', 'Garcia',
                  'Nguyen', 'Rossi', 'Okafor', 'Dubois'])[1 + x.i % 11],
           (ARRAY['com', 'org', 'net'])[1 + x.i % 3],
           lpad((x.i::bigint * 104729 % 10000000)::text, 7, '0'),
           md5(x.eid), upper(substr(md5(x.eid || 'l'), 1, 22)),
           CASE b.currency WHEN 'USD' THEN '$' || (b.paid_amount_minor / 100.0)::numeric(10, 2)
                           ELSE (b.paid_amount_minor / 100.0)::numeric(10, 2) || ' ' || b.currency END,
           extract(epoch FROM b.period_start)::bigint, extract(epoch FROM b.period_end)::bigint,
           x.sub, 'crm-' || md5(x.sub), upper(substr(md5(x.sub), 1, 8)) || '-' || lpad(x.k::text, 4, '0'),
           extract(epoch FROM b.period_start - (b.period_end - b.period_start))::bigint,
           CASE WHEN x.created THEN 'open' ELSE 'paid' END,
           CASE WHEN x.created THEN 'null' ELSE extract(epoch FROM b.paid_at)::bigint::text END,
           CASE WHEN x.created THEN 'false' ELSE 'true' END, CASE WHEN x.created THEN 'invoice.created' ELSE 'invoice.paid' END,
           lower(translate((ARRAY['Alice', 'Bruno', 'Chloé', 'Dieter', 'Emma', 'Farid', 'Grażyna', 'Hugo', 'Ines', 'Jamal'])[1 + x.i % 10] || '.' || (ARRAY['Smith', 'Martin', 'Müller', 'Kowalski', 'Jones', 'de Vries', 'Garcia', 'Nguyen', 'Rossi', 'Okafor', 'Dubois'])[1 + x.i % 11], 'éüż ', 'euz')) || x.i || '@example.' || (ARRAY['com', 'org', 'net'])[1 + x.i % 3]),
           'UTF8') AS body
  FROM (SELECT j, i, k, s.pk, s.sub, j % 5 = 0 AS created,
               CASE WHEN j % 5 = 0 THEN 'evt_created_' ELSE 'evt_' END || s.sub || '_' || k AS eid,
               CASE WHEN j % 5 = 0 THEN 'not_a_renewal' ELSE 'applied' END AS outcome,
               CASE WHEN j % 5 = 0 THEN 'other_event_type' ELSE 'renewal' END AS reason,
               now() - interval '400 days' + (j::float8 / :rows) * interval '400 days' AS rcv
          FROM generate_series(:from, :to) AS j,
               LATERAL (SELECT 2 * ((j - 1) % 500000) + 2 AS i, 11 - (j - 1) / 500000 AS k) n,
               LATERAL (SELECT (ARRAY['stripe-main', 'paddle-eu', 'stripe-us', 'chargebee'])[1 + i % 4] AS pk,
                               'sub_' || substr(md5(i::text), 1, 10) || to_char(i, 'FM0000000') AS sub) s
       ) x
  JOIN subscription_billing_periods b
    ON b.provider_key = x.pk AND b.provider_event_id = 'evt_' || x.sub || '_' || x.k
  ) r
RETURNING 1)
SELECT count(*) FROM written;
SQL
)
    # A row whose billing period is not there (yet) would be left out silently by the join.
    [[ "$written" == "$((to - from + 1))" ]] || {
        echo "generate-inbox.sh: rows $from..$to: $written written, $((to - from + 1)) expected (are their subscriptions generated?)" >&2
        exit 1
    }
    echo "inbox rows $from..$to of $rows ($(( $(date +%s) - started )) s)"
done
run -c 'ANALYZE webhook_inbox'
echo "done in $(( $(date +%s) - started )) s"
