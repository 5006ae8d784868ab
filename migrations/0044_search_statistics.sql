-- The desk's "id contains" search (subscriptions and the case queue) is planned from the
-- column's histogram: with PostgreSQL's default of 100 buckets a five-digit fragment matches
-- either no bucket or one (1 % of the table), and which it is depends on ANALYZE's random
-- sample. Estimated at 1 % the planner read the whole table instead of the trigram index
-- (tst_ui_desksearch saw a sequential scan in about 1 run in 4 on 60,000 subscriptions).
-- A thousand buckets sample every row up to 300,000 and keep the estimate near the truth
-- beyond; the cost is a slower ANALYZE of two columns.
ALTER TABLE public.subscriptions ALTER COLUMN provider_subscription_id SET STATISTICS 1000;
ALTER TABLE public.reconciliation_cases ALTER COLUMN provider_subscription_id SET STATISTICS 1000;
