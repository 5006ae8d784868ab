-- The same renewal transaction in the lesson's shape: eight statements, eight round trips
-- (BEGIN, lock, renewal-key lookup, insert, projection update, audit, outbox, COMMIT).
-- It writes the rows the core function writes, field for field (the audit's before-state
-- and the full outbox payload included), so that the two shapes differ only in how they
-- reach the server. Written for pgbench -M prepared: \gset values come back as statement
-- parameters, as an application's would.
\set sid random(1, :subscriptions)
BEGIN;
SELECT s.id AS sub_id, s.current_period_end AS cpe,
       'in-' || :sid || '-' || extract(epoch FROM s.current_period_end)::bigint AS rkey,
       rd_subscription_state_json(s) AS before
  FROM subscriptions s
 WHERE s.provider_key = 'pgbench' AND s.provider_subscription_id = 'pgb-' || :sid
   FOR UPDATE \gset
SELECT count(*) AS existing FROM subscription_billing_periods
 WHERE provider_key = 'pgbench' AND provider_renewal_key = :rkey \gset
INSERT INTO subscription_billing_periods (subscription_id, provider_key, provider_renewal_key,
        provider_event_id, period_start, period_end, paid_amount_minor, currency, paid_at,
        recorded_by)
VALUES (:sub_id, 'pgbench', :rkey, 'evt-' || :rkey, :cpe,
        :cpe::timestamptz + interval '1 month', 1999, 'EUR', now(), 'webhook')
RETURNING id AS bp_id, rd_rfc3339(paid_at) AS paid_at \gset
UPDATE subscriptions
   SET current_period_start = :cpe, current_period_end = :cpe::timestamptz + interval '1 month',
       provider_version = coalesce(NULL, provider_version),
       revision = revision + 1, updated_at = now()
 WHERE id = :sub_id;
INSERT INTO subscription_transition_audits (subscription_id, transition, billing_period_id,
        actor_type, actor_id, provider_event_id, provider_renewal_key, period_start, period_end,
        details)
VALUES (:sub_id, 'subscription_renewed', :bp_id, 'webhook', 'pgbench', 'evt-' || :rkey, :rkey,
        :cpe, :cpe::timestamptz + interval '1 month',
        jsonb_build_object('before', :before::jsonb, 'paidAmountMinor', 1999,
                           'currency', 'EUR'));
INSERT INTO subscription_outbox (event_type, subscription_id, billing_period_id, payload)
VALUES ('subscription_renewed', :sub_id, :bp_id, jsonb_build_object(
        'type', 'subscription_renewed', 'subscriptionId', :sub_id::uuid,
        'providerKey', 'pgbench', 'providerSubscriptionId', 'pgb-' || :sid,
        'billingPeriodId', :bp_id::uuid, 'providerRenewalKey', :rkey::text,
        'period', rd_period_json(:cpe::timestamptz, :cpe::timestamptz + interval '1 month'),
        'paidAmountMinor', 1999, 'currency', 'EUR', 'paidAt', :paid_at::text));
COMMIT;
