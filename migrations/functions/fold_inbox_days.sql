REVOKE ALL ON FUNCTION public.fold_inbox_days()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.fold_inbox_days() TO renewal_viewer;

-- Folds the finished days not folded yet; returns how many (day, outcome) rows it wrote. One
-- fold at a time (a work lock, 0045): a second caller returns 0 at once. A standby cannot
-- write, and returns 0.
CREATE OR REPLACE FUNCTION public.fold_inbox_days()
    RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v_from date;
    v_to date := ((pg_catalog.now() OPERATOR(pg_catalog.-) interval '10 minutes')
                  AT TIME ZONE 'UTC')::date;
    v_rows bigint;
BEGIN
    IF pg_catalog.pg_is_in_recovery() THEN
        RETURN 0;
    END IF;
    IF NOT public.rd_try_work_lock('fold inbox days') THEN
        RETURN 0;
    END IF;
    SELECT s.folded_before INTO v_from FROM public.webhook_inbox_daily_state s;
    IF v_from IS NULL OR v_from OPERATOR(pg_catalog.>=) v_to THEN
        RETURN 0;
    END IF;
    INSERT INTO public.webhook_inbox_daily (day, outcome, deliveries)
    SELECT (w.received_at AT TIME ZONE 'UTC')::date, COALESCE(w.outcome, ''), pg_catalog.count(*)
      FROM public.webhook_inbox w
     WHERE w.received_at OPERATOR(pg_catalog.>=) (v_from::timestamp AT TIME ZONE 'UTC')
       AND w.received_at OPERATOR(pg_catalog.<) (v_to::timestamp AT TIME ZONE 'UTC')
     GROUP BY 1, 2;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    UPDATE public.webhook_inbox_daily_state SET folded_before = v_to;
    RETURN v_rows;
END;
$$;
