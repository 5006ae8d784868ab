-- The renewals ledger (finance): totals of billing periods per UTC day, provider, currency and
-- recorded_by, and the indexes the ledger's pages read.
--
-- Totals. A year of renewals is millions of billing periods: summing them per read costs
-- seconds, and a counter row updated by every renewal would serialize concurrent renewals on
-- its row lock. Billing periods are insert-only (nothing updates or deletes them: the renewal,
-- heal and reconcile functions of 0007-0011 only insert), so a total only ever grows:
--   - an AFTER INSERT statement trigger appends one delta row per (day, provider, currency,
--     recorded_by) of the statement's new rows to renewal_total_deltas: an insert, never an
--     update, so concurrent renewals never wait for each other here;
--   - fold_renewal_totals() moves the deltas into renewal_daily_totals, off the renewal path
--     (the desk calls it before reading totals, renewalctl ledger fold too): it deletes the
--     deltas it sees and adds exactly those to the totals, in one transaction;
--   - renewal_totals() reads totals + unfolded deltas in one snapshot, so it is right whether
--     or not anyone folded (a read-only standby cannot fold, and reads the primary's state).

CREATE TABLE public.renewal_daily_totals (
    day          date NOT NULL,
    provider_key text NOT NULL,
    currency     text NOT NULL,
    recorded_by  text NOT NULL,
    renewals     bigint NOT NULL,
    amount_minor numeric NOT NULL,
    PRIMARY KEY (day, provider_key, currency, recorded_by)
);

-- No index: the renewal path only appends here, and the fold reads the whole table.
CREATE TABLE public.renewal_total_deltas (
    day          date NOT NULL,
    provider_key text NOT NULL,
    currency     text NOT NULL,
    recorded_by  text NOT NULL,
    renewals     bigint NOT NULL,
    amount_minor numeric NOT NULL
);

REVOKE ALL ON public.renewal_daily_totals, public.renewal_total_deltas FROM PUBLIC;
GRANT SELECT ON public.renewal_daily_totals, public.renewal_total_deltas TO renewal_viewer;

CREATE FUNCTION public.rd_billing_periods_to_deltas()
    RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    INSERT INTO public.renewal_total_deltas (day, provider_key, currency, recorded_by, renewals,
                                             amount_minor)
    SELECT (n.paid_at AT TIME ZONE 'UTC')::date, n.provider_key, n.currency, n.recorded_by,
           pg_catalog.count(*), pg_catalog.sum(n.paid_amount_minor)
      FROM new_periods n
     GROUP BY 1, 2, 3, 4;
    RETURN NULL;
END;
$$;
REVOKE EXECUTE ON FUNCTION public.rd_billing_periods_to_deltas() FROM PUBLIC;

CREATE TRIGGER subscription_billing_periods_totals
    AFTER INSERT ON public.subscription_billing_periods
    REFERENCING NEW TABLE AS new_periods
    FOR EACH STATEMENT EXECUTE FUNCTION public.rd_billing_periods_to_deltas();

-- The ledger's totals rest on billing periods never changing: refuse it outright rather than
-- let totals drift. (Nothing in the product updates or deletes them; this keeps it so.)
CREATE FUNCTION public.rd_billing_periods_insert_only()
    RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION 'billing periods are insert-only (% refused)', TG_OP
        USING ERRCODE = 'RD004';
END;
$$;
REVOKE EXECUTE ON FUNCTION public.rd_billing_periods_insert_only() FROM PUBLIC;
CREATE TRIGGER subscription_billing_periods_insert_only
    BEFORE UPDATE OR DELETE ON public.subscription_billing_periods
    FOR EACH ROW EXECUTE FUNCTION public.rd_billing_periods_insert_only();
CREATE TRIGGER subscription_billing_periods_no_truncate
    BEFORE TRUNCATE ON public.subscription_billing_periods
    FOR EACH STATEMENT EXECUTE FUNCTION public.rd_billing_periods_insert_only();

-- Moves the deltas committed so far into the daily totals; returns how many delta rows it
-- folded. DELETE ... RETURNING takes exactly the rows it saw (a delta committed meanwhile stays
-- for the next fold), and the upsert adds them in the same transaction, so a reader sees a
-- delta either in the deltas or in the totals, never in both or neither. One fold at a time
-- (a transaction-scoped advisory lock): a second caller returns 0 at once instead of queueing.
CREATE FUNCTION public.fold_renewal_totals()
    RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
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
    ), added AS (
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
    )
    SELECT n INTO v_folded FROM counted, (SELECT pg_catalog.count(*) FROM added) a;
    RETURN v_folded;
END;
$$;
REVOKE EXECUTE ON FUNCTION public.fold_renewal_totals() FROM PUBLIC;
-- Folding changes no figure a reader sees (see above), so one who may only look may fold.
GRANT EXECUTE ON FUNCTION public.fold_renewal_totals() TO renewal_viewer;

-- Renewals per UTC day of paid_at in [p_from, p_to), provider, currency and recorded_by: the
-- folded totals plus the deltas not folded yet, in one statement's snapshot.
CREATE FUNCTION public.renewal_totals(p_from date, p_to date)
    RETURNS TABLE (day date, provider_key text, currency text, recorded_by text,
                   renewals bigint, amount_minor numeric)
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
AS $$
    SELECT u.day, u.provider_key, u.currency, u.recorded_by,
           pg_catalog.sum(u.renewals)::bigint, pg_catalog.sum(u.amount_minor)
      FROM (SELECT t.day, t.provider_key, t.currency, t.recorded_by, t.renewals, t.amount_minor
              FROM public.renewal_daily_totals t
             WHERE t.day >= p_from AND t.day < p_to
            UNION ALL
            SELECT d.day, d.provider_key, d.currency, d.recorded_by, d.renewals, d.amount_minor
              FROM public.renewal_total_deltas d
             WHERE d.day >= p_from AND d.day < p_to) u
     GROUP BY u.day, u.provider_key, u.currency, u.recorded_by
$$;
REVOKE EXECUTE ON FUNCTION public.renewal_totals(date, date) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.renewal_totals(date, date) TO renewal_viewer;

-- The ledger's pages. A page is the next rows in (paid_at, id) or (period_start, id) order
-- within a date range, narrowed by any of provider, currency and recorded_by. The list is
-- read as one short index range scan per (provider, currency, recorded_by) combination that
-- has renewals (the combinations come from the totals above: a handful), merged: whatever the
-- filter, a page reads about a page of rows per combination, and a rare currency or
-- recorded_by is as fast as a common one. Two indexes serve both orders; 0001's paid_at index,
-- which nothing reads, gives its place to them (each index is work for every renewal).
CREATE INDEX billing_periods_ledger_by_paid_at ON public.subscription_billing_periods
    (provider_key, currency, recorded_by, paid_at, id);
CREATE INDEX billing_periods_ledger_by_period_start ON public.subscription_billing_periods
    (provider_key, currency, recorded_by, period_start, id);
DROP INDEX public.billing_periods_paid_at;

-- Backfill, with inserts held off (SHARE blocks them) so that no period is counted twice or
-- missed between the trigger's creation above and this read.
LOCK TABLE public.subscription_billing_periods IN SHARE MODE;
INSERT INTO public.renewal_daily_totals (day, provider_key, currency, recorded_by, renewals,
                                         amount_minor)
SELECT (paid_at AT TIME ZONE 'UTC')::date, provider_key, currency, recorded_by, count(*),
       sum(paid_amount_minor)
  FROM public.subscription_billing_periods
 GROUP BY 1, 2, 3, 4;
