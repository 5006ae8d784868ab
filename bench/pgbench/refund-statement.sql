-- A refund (#40) as a delivery records it: record_money_movements with one movement, naming the
-- renewal seed-renewals.sql recorded by its renewal key; one movement, one audit row, one outbox
-- intent and one totals delta. Compare with webhook-statement.sql on the same seeded database.
\set sid random(1, :subscriptions)
SELECT r.result
  FROM record_money_movements(jsonb_build_object('providerKey', 'pgbench',
           'providerEventId', 'evt-re-' || :sid, 'providerSubscriptionId', NULL,
           'movements', jsonb_build_array(jsonb_build_object('movementKey', 're-' || :sid,
               'kind', 'refund', 'amountMinor', 500, 'currency', 'EUR',
               'occurredAt', '2026-02-10T00:00:00Z',
               'renewalRefs', jsonb_build_array('in-seed-pgb-' || :sid)))),
           'webhook', 'pgbench') r;
