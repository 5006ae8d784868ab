-- A renewal's outbox intent is one per event type and billing period (0001); a money movement's
-- is one per movement (0049's index on movementId), and a period may see many: two partial
-- refunds of one renewal are two 'refund.recorded' intents. 0049 left the table-wide rule in
-- place, which refused the second refund of a period; it now holds for the renewals' intents.
ALTER TABLE public.subscription_outbox DROP CONSTRAINT subscription_outbox_once_per_period;
CREATE UNIQUE INDEX subscription_outbox_once_per_period
    ON public.subscription_outbox (event_type, billing_period_id)
    WHERE NOT (payload ? 'movementId');

-- Money back's totals (#40, item 4), kept as the renewals' are (0016): record_money_movements
-- appends one delta row a movement, fold_money_back_totals() moves the deltas into daily totals
-- off the delivery's path, and money_back_totals() reads totals and unfolded deltas in one
-- snapshot, right whether or not anyone folded. A movement's day is its own (occurred_at, UTC),
-- never its renewal's.
CREATE TABLE public.money_back_daily_totals (
    day date NOT NULL,
    provider_key text NOT NULL,
    currency text NOT NULL,
    kind text NOT NULL,
    movements bigint NOT NULL,
    amount_minor numeric NOT NULL,
    PRIMARY KEY (day, provider_key, currency, kind)
);
-- No index: record_money_movements only appends here, and the fold reads the whole table.
CREATE TABLE public.money_back_deltas (
    day date NOT NULL,
    provider_key text NOT NULL,
    currency text NOT NULL,
    kind text NOT NULL,
    movements bigint NOT NULL,
    amount_minor numeric NOT NULL
);
REVOKE ALL ON public.money_back_daily_totals, public.money_back_deltas FROM PUBLIC;
GRANT SELECT ON public.money_back_daily_totals, public.money_back_deltas TO renewal_viewer;

-- The movements recorded before this migration, as deltas (the first fold adds them up).
INSERT INTO public.money_back_deltas (day, provider_key, currency, kind, movements, amount_minor)
SELECT (m.occurred_at AT TIME ZONE 'UTC')::date, m.provider_key, m.currency, m.kind,
       count(*), sum(m.amount_minor)
  FROM public.money_movements m
 GROUP BY 1, 2, 3, 4;

-- The fold's work lock (0045): one money back fold at a time.
INSERT INTO public.rd_work_locks (name) VALUES ('fold money back totals');
