-- The ledger's totals by period start (#15), kept like 0016's totals by paid-at day: counting a
-- month of billing periods by period_start took 2.7 s on 12 M periods, the budget is 500 ms.
--
-- One renewal still appends ONE delta row (an insert, never an update of a shared counter row):
-- the delta now also knows the UTC day its periods start, and the fold adds it to two sets of
-- daily totals, one keyed by the day paid (0016's renewal_daily_totals, which the Overview
-- reads) and one keyed by the day the period starts. Two tables rather than one keyed by both
-- days: each stays days × (provider, currency, recorded_by) whatever the spread between a
-- period's start and its payment (late payments, snapshots recorded weeks later would
-- multiply the rows of a table keyed by both), and each basis reads its own primary key.

-- No period may be inserted (no delta appended) while the deltas change shape and the
-- period-start totals are counted; no fold may run meanwhile either.
LOCK TABLE public.subscription_billing_periods IN SHARE MODE;
LOCK TABLE public.renewal_total_deltas IN ACCESS EXCLUSIVE MODE;

-- The deltas not folded yet do not know their period-start day: fold them into the paid-day
-- totals now (the period-start totals below are counted from the billing periods themselves).
WITH taken AS (
    DELETE FROM public.renewal_total_deltas RETURNING *
)
INSERT INTO public.renewal_daily_totals AS t (day, provider_key, currency, recorded_by,
                                              renewals, amount_minor)
SELECT day, provider_key, currency, recorded_by, sum(renewals), sum(amount_minor)
  FROM taken
 GROUP BY day, provider_key, currency, recorded_by
ON CONFLICT (day, provider_key, currency, recorded_by) DO UPDATE
   SET renewals = t.renewals + excluded.renewals,
       amount_minor = t.amount_minor + excluded.amount_minor;

ALTER TABLE public.renewal_total_deltas ADD COLUMN period_start_day date NOT NULL;

CREATE TABLE public.renewal_period_start_totals (
    day          date NOT NULL, -- UTC day of period_start
    provider_key text NOT NULL,
    currency     text NOT NULL,
    recorded_by  text NOT NULL,
    renewals     bigint NOT NULL,
    amount_minor numeric NOT NULL,
    PRIMARY KEY (day, provider_key, currency, recorded_by)
);
REVOKE ALL ON public.renewal_period_start_totals FROM PUBLIC;
GRANT SELECT ON public.renewal_period_start_totals TO renewal_viewer;

-- One delta row per (paid day, period-start day, provider, currency, recorded_by) of the
-- statement's new periods: one row for a renewal.
CREATE OR REPLACE FUNCTION public.rd_billing_periods_to_deltas()
    RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO public.renewal_total_deltas (day, period_start_day, provider_key, currency,
                                             recorded_by, renewals, amount_minor)
    SELECT (n.paid_at AT TIME ZONE 'UTC')::date, (n.period_start AT TIME ZONE 'UTC')::date,
           n.provider_key, n.currency, n.recorded_by, pg_catalog.count(*),
           pg_catalog.sum(n.paid_amount_minor)
      FROM new_periods n
     GROUP BY 1, 2, 3, 4, 5;
    RETURN NULL;
END;
$$;
REVOKE EXECUTE ON FUNCTION public.rd_billing_periods_to_deltas() FROM PUBLIC;

-- As 0016's, adding the same deltas to both totals in the same statement: a reader sees a
-- delta either in the deltas or in both totals, never in one total only.
CREATE OR REPLACE FUNCTION public.fold_renewal_totals()
    RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v_folded bigint;
BEGIN
    IF pg_catalog.pg_is_in_recovery() THEN
        RETURN 0;
    END IF;
    IF NOT pg_catalog.pg_try_advisory_xact_lock(pg_catalog.hashtext('rd_fold_renewal_totals')) THEN
        RETURN 0;
    END IF;
    WITH taken AS (
        DELETE FROM public.renewal_total_deltas RETURNING *
    ), counted AS (
        SELECT pg_catalog.count(*) AS n FROM taken
    ), by_paid AS (
        INSERT INTO public.renewal_daily_totals AS t (day, provider_key, currency, recorded_by,
                                                      renewals, amount_minor)
        SELECT day, provider_key, currency, recorded_by, pg_catalog.sum(renewals),
               pg_catalog.sum(amount_minor)
          FROM taken
         GROUP BY day, provider_key, currency, recorded_by
        ON CONFLICT (day, provider_key, currency, recorded_by) DO UPDATE
           SET renewals = t.renewals OPERATOR(pg_catalog.+) excluded.renewals,
               amount_minor = t.amount_minor OPERATOR(pg_catalog.+) excluded.amount_minor
        RETURNING 1
    ), by_start AS (
        INSERT INTO public.renewal_period_start_totals AS t (day, provider_key, currency,
                                                             recorded_by, renewals, amount_minor)
        SELECT period_start_day, provider_key, currency, recorded_by, pg_catalog.sum(renewals),
               pg_catalog.sum(amount_minor)
          FROM taken
         GROUP BY period_start_day, provider_key, currency, recorded_by
        ON CONFLICT (day, provider_key, currency, recorded_by) DO UPDATE
           SET renewals = t.renewals OPERATOR(pg_catalog.+) excluded.renewals,
               amount_minor = t.amount_minor OPERATOR(pg_catalog.+) excluded.amount_minor
        RETURNING 1
    )
    SELECT n INTO v_folded
      FROM counted, (SELECT pg_catalog.count(*) FROM by_paid) p,
           (SELECT pg_catalog.count(*) FROM by_start) s;
    RETURN v_folded;
END;
$$;
REVOKE EXECUTE ON FUNCTION public.fold_renewal_totals() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.fold_renewal_totals() TO renewal_viewer;

-- Renewals per UTC day of period_start in [p_from, p_to), provider, currency and recorded_by:
-- the folded totals plus the deltas not folded yet, in one statement's snapshot. The same
-- shape as renewal_totals (0016), which stays the paid-at basis.
CREATE FUNCTION public.renewal_period_start_totals(p_from date, p_to date)
    RETURNS TABLE (day date, provider_key text, currency text, recorded_by text,
                   renewals bigint, amount_minor numeric)
    LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $$
    SELECT u.day, u.provider_key, u.currency, u.recorded_by,
           pg_catalog.sum(u.renewals)::bigint, pg_catalog.sum(u.amount_minor)
      FROM (SELECT t.day, t.provider_key, t.currency, t.recorded_by, t.renewals, t.amount_minor
              FROM public.renewal_period_start_totals t
             WHERE t.day OPERATOR(pg_catalog.>=) p_from AND t.day OPERATOR(pg_catalog.<) p_to
            UNION ALL
            SELECT d.period_start_day, d.provider_key, d.currency, d.recorded_by, d.renewals,
                   d.amount_minor
              FROM public.renewal_total_deltas d
             WHERE d.period_start_day OPERATOR(pg_catalog.>=) p_from
               AND d.period_start_day OPERATOR(pg_catalog.<) p_to) u
     GROUP BY u.day, u.provider_key, u.currency, u.recorded_by
$$;
REVOKE EXECUTE ON FUNCTION public.renewal_period_start_totals(date, date) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.renewal_period_start_totals(date, date) TO renewal_viewer;

-- Backfill: every existing period by the day it starts (inserts are still held off by the
-- SHARE lock above, so none is counted twice or missed).
INSERT INTO public.renewal_period_start_totals (day, provider_key, currency, recorded_by,
                                                renewals, amount_minor)
SELECT (period_start AT TIME ZONE 'UTC')::date, provider_key, currency, recorded_by, count(*),
       sum(paid_amount_minor)
  FROM public.subscription_billing_periods
 GROUP BY 1, 2, 3, 4;
