-- What the Overview reads beyond the ledger's renewal totals (0016).
--
-- Cases closed per UTC day, over the last 30 days. Cases are never deleted, and most end
-- resolved (healed by the core, re-applied) or dismissed, so the closed ones grow without
-- bound while the Overview reads a month of them: without this index that read walks every
-- case ever opened. Partial: a case is inserted open (resolved_at NULL), so opening one, on
-- the rejection path, does not touch it; only closing one does. The cases opened per day read
-- reconciliation_cases_by_age (status, first_seen_at) as three ranges, one per status.
CREATE INDEX reconciliation_cases_closed
    ON public.reconciliation_cases (resolved_at) WHERE resolved_at IS NOT NULL;

-- Deliveries per UTC day and outcome. A month of deliveries is a million rows or more at the
-- volume of bench/generate-large.sh (measured: counting 1.3M of them took 0.4-1.1 s, even as
-- an index-only scan), and the Overview reads them every time something changed. Nothing is
-- added on the receiver's path (no trigger, no counter row): an inbox row is written once,
-- with its outcome, at the database's now(), and never deleted, so a UTC day's counts are
-- final once every transaction that started in it has ended (an ingest transaction lasts
-- milliseconds; ten minutes of margin). fold_inbox_days() counts the finished days into
-- webhook_inbox_daily, once each; readers add the rows received since folded_before, counted
-- live (today's, and yesterday's in the first ten minutes), in the same snapshot.
CREATE TABLE public.webhook_inbox_daily (
    day        date NOT NULL,
    outcome    text NOT NULL, -- '' = not processed when the day was folded
    deliveries bigint NOT NULL,
    PRIMARY KEY (day, outcome)
);
CREATE TABLE public.webhook_inbox_daily_state (
    only_row      boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    folded_before date NOT NULL -- the days before it are in webhook_inbox_daily
);
REVOKE ALL ON public.webhook_inbox_daily, public.webhook_inbox_daily_state FROM PUBLIC;
GRANT SELECT ON public.webhook_inbox_daily, public.webhook_inbox_daily_state TO renewal_viewer;

-- Folds the finished days not folded yet; returns how many (day, outcome) rows it wrote. One
-- fold at a time: a second caller returns 0 at once. A standby cannot write, and returns 0.
CREATE FUNCTION public.fold_inbox_days()
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
    IF NOT pg_catalog.pg_try_advisory_xact_lock(pg_catalog.hashtext('rd_fold_inbox_days')) THEN
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
REVOKE EXECUTE ON FUNCTION public.fold_inbox_days() FROM PUBLIC;
-- Folding changes no figure a reader sees, so one who may only look may fold (as 0016's).
GRANT EXECUTE ON FUNCTION public.fold_inbox_days() TO renewal_viewer;

-- From the first delivery ever received (today when there is none), folded up to today.
INSERT INTO public.webhook_inbox_daily_state (folded_before)
SELECT COALESCE((SELECT (min(received_at) AT TIME ZONE 'UTC')::date FROM public.webhook_inbox),
                (now() AT TIME ZONE 'UTC')::date);
SELECT public.fold_inbox_days();
