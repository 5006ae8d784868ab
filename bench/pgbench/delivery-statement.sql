-- A webhook delivery as the receiver makes it since migration 0013 (ingest_delivery: the inbox
-- row written once, with the body, its size, SHA-256 and the adapter's normalization, then the
-- core with the actor webhook/pgbench), for bench/purge-bench.sh: the renewal path that writes
-- the table a purge rewrites. The body is a Stripe invoice.paid of ~2.9 KB with the customer's
-- personal data. Otherwise webhook-statement.sql: a random subscription of provider 'pgbench'
-- (registered, kind stripe) renewed from its period end.
\set sid random(1, :subscriptions)
SELECT d.outcome
  FROM subscriptions s,
       LATERAL (SELECT 'in-' || :sid || '-' || extract(epoch FROM s.current_period_end)::bigint AS k) key,
       LATERAL (SELECT jsonb_build_object('providerKey', 'pgbench', 'providerEventId', 'evt-' || key.k,
                   'providerSubscriptionId', 'pgb-' || :sid, 'providerRenewalKey', key.k,
                   'providerVersion', NULL,
                   'period', rd_period_json(s.current_period_end, s.current_period_end + interval '1 month'),
                   'paidAmountMinor', 1999, 'currency', 'EUR', 'paidAt', rd_rfc3339(now())) AS ev) e,
       LATERAL (SELECT convert_to(replace(replace(replace(replace(replace(replace(
'{
  "id": "@EVT@",
  "object": "event",
  "api_version": "2024-06-20",
  "created": 1767229270,
  "data": {
    "object": {
      "id": "@INV@",
      "object": "invoice",
      "account_country": "US",
      "account_name": "Example SaaS",
      "amount_due": 1999,
      "amount_paid": 1999,
      "amount_remaining": 0,
      "attempt_count": 1,
      "attempted": true,
      "auto_advance": false,
      "billing_reason": "subscription_cycle",
      "collection_method": "charge_automatically",
      "created": 1767225600,
      "currency": "eur",
      "customer": "cus_@SID@",
      "livemode": false,
      "lines": {
        "object": "list",
        "data": [
          {
            "id": "il_1QxLine0001",
            "object": "line_item",
            "amount": 1999,
            "currency": "eur",
            "description": "1 × Pro (at $20.00 / month)",
            "discount_amounts": [],
            "discountable": true,
            "discounts": [],
            "livemode": false,
            "metadata": {},
            "period": {
              "start": @START@,
              "end": @END@
            },
            "quantity": 1,
            "plan": {
              "id": "price_1QxPro",
              "object": "plan",
              "amount": 1999,
              "interval": "month"
            },
            "price": {
              "id": "price_1QxPro",
              "object": "price",
              "unit_amount": 1999
            },
            "proration": false,
            "subscription": "pgb-@SID@",
            "subscription_item": "si_QxItem0001",
            "type": "subscription"
          }
        ],
        "has_more": false,
        "total_count": 1,
        "url": "/v1/invoices/@INV@/lines"
      },
      "number": "A1B2C3-0007",
      "period_start": 1764547200,
      "period_end": 1767225600,
      "status": "paid",
      "status_transitions": {
        "finalized_at": 1767229200,
        "marked_uncollectible_at": null,
        "paid_at": @PAID@,
        "voided_at": null
      },
      "subtotal": 1999,
      "total": 1999,
      "subscription": "pgb-@SID@",
      "paid": true,
      "charge": "ch_3QxCharge0001",
      "payment_intent": "pi_3QxPay0001",
      "customer_address": {
        "city": "Saint-Étienne",
        "country": "FR",
        "line1": "102 Baker Street",
        "line2": "Apt @SID@",
        "postal_code": "15838",
        "state": null
      },
      "customer_email": "chloe.muller@SID@@example.net",
      "customer_name": "Chloé Müller",
      "customer_phone": "+1 555 0209458",
      "hosted_invoice_url": "https://invoice.stripe.com/i/acct_1QxExample/live_@INV@",
      "invoice_pdf": "https://invoice.stripe.com/i/acct_1QxExample/live_@INV@/pdf"
    }
  },
  "livemode": false,
  "pending_webhooks": 1,
  "request": {
    "id": null,
    "idempotency_key": null
  },
  "type": "invoice.paid"
}',
                   '@EVT@', 'evt-' || key.k), '@INV@', key.k), '@SID@', :sid::text),
                   '@START@', extract(epoch FROM s.current_period_end)::bigint::text),
                   '@END@', extract(epoch FROM s.current_period_end + interval '1 month')::bigint::text),
                   '@PAID@', extract(epoch FROM now())::bigint::text), 'UTF8') AS body) b,
       LATERAL ingest_delivery('pgbench', 'evt-' || key.k, b.body, octet_length(b.body),
                   encode(sha256(b.body), 'hex'), NULL, 'renewal', NULL,
                   jsonb_build_object('outcome', 'renewal', 'reason', 'renewal',
                       'message', 'invoice ' || key.k || ' renews subscription pgb-' || :sid,
                       'providerEventId', 'evt-' || key.k, 'providerSubscriptionId', 'pgb-' || :sid,
                       'eventIdDerived', false, 'event', e.ev),
                   e.ev, NULL) d
 WHERE s.provider_key = 'pgbench' AND s.provider_subscription_id = 'pgb-' || :sid;
