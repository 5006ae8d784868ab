-- One recorded renewal for each seeded subscription (January to February 2026, 19.99 EUR, renewal
-- key in-seed-pgb-N), as apply_webhook_renewal records it: what refund-statement.sql pays back.
SELECT count(*)
  FROM subscriptions s,
       LATERAL apply_webhook_renewal('pgbench', 'evt-seed-' || s.provider_subscription_id,
           s.provider_subscription_id, 'in-seed-' || s.provider_subscription_id, NULL,
           s.current_period_end, s.current_period_end + interval '1 month', 1999, 'EUR',
           s.current_period_end) r
 WHERE s.provider_key = 'pgbench' AND r.result = 'applied';
