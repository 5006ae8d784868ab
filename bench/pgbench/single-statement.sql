-- The renewal transaction as ONE statement: the core's plpgsql function, called once per
-- renewal in autocommit (one round trip). Each transaction renews a random subscription of
-- provider 'pgbench' from its current period end, so the renewal is always contiguous.
\set sid random(1, :subscriptions)
SELECT r.result
  FROM subscriptions s,
       LATERAL (SELECT 'in-' || :sid || '-' || extract(epoch FROM s.current_period_end)::bigint AS k) key,
       LATERAL apply_successful_renewal('pgbench', 'evt-' || key.k, 'pgb-' || :sid, key.k, NULL,
           s.current_period_end, s.current_period_end + interval '1 month', 1999, 'EUR', now(),
           'webhook', 'pgbench') r
 WHERE s.provider_key = 'pgbench' AND s.provider_subscription_id = 'pgb-' || :sid;
