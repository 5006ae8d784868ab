-- The renewal as `renewalctl apply` and the ingest role make it since migration 0027: through
-- apply_webhook_renewal, which calls the core with the actor a webhook delivery always has.
-- Otherwise single-statement.sql: one statement, a random subscription renewed from its end.
\set sid random(1, :subscriptions)
SELECT r.result
  FROM subscriptions s,
       LATERAL (SELECT 'in-' || :sid || '-' || extract(epoch FROM s.current_period_end)::bigint AS k) key,
       LATERAL apply_webhook_renewal('pgbench', 'evt-' || key.k, 'pgb-' || :sid, key.k, NULL,
           s.current_period_end, s.current_period_end + interval '1 month', 1999, 'EUR', now()) r
 WHERE s.provider_key = 'pgbench' AND s.provider_subscription_id = 'pgb-' || :sid;
