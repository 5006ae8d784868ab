-- The same renewal transaction in the lesson's shape: eight statements, eight round trips
-- (BEGIN, lock, renewal-key lookup, insert, projection update, audit, outbox, COMMIT).
-- Written for pgbench -M prepared: \gset values come back as statement parameters.
\set sid random(1, :subscriptions)
BEGIN;
SELECT id AS sub_id, current_period_end AS cpe,
       'in-' || :sid || '-' || extract(epoch FROM current_period_end)::bigint AS rkey
  FROM subscriptions
 WHERE provider_key = 'pgbench' AND provider_subscription_id = 'pgb-' || :sid
   FOR UPDATE \gset
SELECT count(*) AS existing FROM subscription_billing_periods
 WHERE provider_key = 'pgbench' AND provider_renewal_key = :rkey \gset
INSERT INTO subscription_billing_periods (subscription_id, provider_key, provider_renewal_key,
        provider_event_id, period_start, period_end, paid_amount_minor, currency, paid_at)
VALUES (:sub_id, 'pgbench', :rkey, 'evt-' || :rkey, :cpe,
        :cpe::timestamptz + interval '1 month', 1999, 'EUR', now())
RETURNING id AS bp_id \gset
UPDATE subscriptions
   SET current_period_start = :cpe, current_period_end = :cpe::timestamptz + interval '1 month',
       revision = revision + 1, updated_at = now()
 WHERE id = :sub_id;
INSERT INTO subscription_transition_audits (subscription_id, transition, billing_period_id,
        actor_type, actor_id, provider_event_id, provider_renewal_key, period_start, period_end)
VALUES (:sub_id, 'subscription_renewed', :bp_id, 'webhook', 'pgbench', 'evt-' || :rkey, :rkey,
        :cpe, :cpe::timestamptz + interval '1 month');
INSERT INTO subscription_outbox (event_type, subscription_id, billing_period_id, payload)
VALUES ('subscription_renewed', :sub_id, :bp_id,
        jsonb_build_object('billingPeriodId', :bp_id::uuid, 'providerRenewalKey', :rkey::text));
COMMIT;
