-- Why case p_case_id may not be reopened now, in the sentence reopen_case refuses with, or NULL
-- when a reopen would succeed. reopen_case refuses by it, and case_detail shows it (with
-- `reopenable`), so that the desk offers Reopen… by the same rule the database keeps (#42, 5).
-- SECURITY INVOKER: it reads with the caller's privileges (a viewer may read all it reads).
REVOKE ALL ON FUNCTION public.rd_case_reopen_refusal(public.reconciliation_cases)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_case_reopen_refusal(public.reconciliation_cases) TO renewal_viewer;

CREATE OR REPLACE FUNCTION public.rd_case_reopen_refusal(c public.reconciliation_cases)
    RETURNS text
    LANGUAGE sql STABLE
    SET search_path = pg_catalog, public, pg_temp
AS $$
    SELECT CASE
        WHEN c.status = 'open' THEN
            pg_catalog.format('case %s is open: there is nothing to reopen', c.id)
        WHEN c.status = 'resolved' THEN
            pg_catalog.format('case %s was resolved (%s)%s: its renewal is recorded, and only a dismissed case can be reopened',
                c.id, c.resolution, coalesce(' by ' || c.resolved_by, ''))
        -- A closed month stays as it was closed: its close counted this case as dismissed.
        WHEN m.month IS NOT NULL THEN
            pg_catalog.format('case %s''s renewal was paid in %s, a month of %s closed by %s: a closed month''s cases stay as they were closed; add a note instead',
                c.id, pg_catalog.to_char(m.month, 'YYYY-MM'), c.provider_key, m.closed_by)
        -- Recorded after the case opened: nothing is left to reconcile. A payload conflict's
        -- case opened against the period already recorded (local_state names it), which is
        -- therefore no reason to refuse; the renewal key has only that one period.
        WHEN b.id IS NOT NULL THEN
            pg_catalog.format('case %s''s renewal %s has been recorded since it was %s (billing period %s, recorded %s): there is nothing left to reconcile',
                c.id, c.provider_renewal_key,
                CASE WHEN b.created_at >= c.resolved_at THEN 'dismissed' ELSE 'opened' END,
                b.id, public.rd_rfc3339(b.created_at))
        WHEN o.id IS NOT NULL THEN
            pg_catalog.format('case %s is open for the same renewal (%s): work that case instead of reopening case %s',
                o.id, c.provider_renewal_key, c.id)
    END
      FROM (SELECT 1) one
      LEFT JOIN public.month_closes m
        ON m.provider_key = c.provider_key
       AND m.month = pg_catalog.date_trunc('month',
               (c.event->>'paidAt')::timestamptz AT TIME ZONE 'UTC')::date
      LEFT JOIN public.subscription_billing_periods b
        ON b.provider_key = c.provider_key AND b.provider_renewal_key = c.provider_renewal_key
       AND b.id IS DISTINCT FROM (c.local_state->'conflictingBillingPeriod'->>'id')::uuid
      LEFT JOIN LATERAL (
            SELECT x.id FROM public.reconciliation_cases x
             WHERE x.status = 'open' AND x.provider_key = c.provider_key
               AND x.provider_renewal_key = c.provider_renewal_key AND x.id <> c.id
             ORDER BY x.id LIMIT 1) o ON true
$$;
