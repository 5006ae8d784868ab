REVOKE ALL ON FUNCTION public.fold_money_back_totals()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.fold_money_back_totals() TO renewal_viewer;

-- Moves money back's deltas into its daily totals (0050), as fold_renewal_totals does the
-- renewals': the deltas it sees, deleted and added in one transaction; one fold at a time (the
-- owner's work lock, which no viewer may hold); nothing on a standby.
CREATE OR REPLACE FUNCTION public.fold_money_back_totals()
    RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v_folded bigint;
BEGIN
    IF pg_catalog.pg_is_in_recovery() THEN
        RETURN 0;
    END IF;
    IF NOT public.rd_try_work_lock('fold money back totals') THEN
        RETURN 0;
    END IF;
    WITH taken AS (
        DELETE FROM public.money_back_deltas RETURNING *
    ), counted AS (
        SELECT pg_catalog.count(*) AS n FROM taken
    ), folded AS (
        INSERT INTO public.money_back_daily_totals AS t (day, provider_key, currency, kind,
                                                         movements, amount_minor)
        SELECT day, provider_key, currency, kind, pg_catalog.sum(movements),
               pg_catalog.sum(amount_minor)
          FROM taken
         GROUP BY day, provider_key, currency, kind
        ON CONFLICT (day, provider_key, currency, kind) DO UPDATE
           SET movements = t.movements OPERATOR(pg_catalog.+) excluded.movements,
               amount_minor = t.amount_minor OPERATOR(pg_catalog.+) excluded.amount_minor
        RETURNING 1
    )
    SELECT n INTO v_folded FROM counted, (SELECT pg_catalog.count(*) FROM folded) f;
    RETURN v_folded;
END;
$$;
