REVOKE ALL ON FUNCTION public.fold_renewal_totals()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.fold_renewal_totals() TO renewal_viewer;

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
    IF NOT public.rd_try_work_lock('fold renewal totals') THEN
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
