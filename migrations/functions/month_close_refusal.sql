REVOKE ALL ON FUNCTION public.month_close_refusal(text,date)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.month_close_refusal(text,date) TO renewal_viewer;

-- Why the month cannot be closed now, in one sentence; NULL when it can. Any viewer may ask
-- (the desk's Close month dialog); close_month asks the same under the provider's lock.
CREATE OR REPLACE FUNCTION public.month_close_refusal(p_provider_key text, p_month date)
    RETURNS text
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_month text := pg_catalog.to_char(p_month, 'YYYY-MM');
    v_last date := (p_month + interval '1 month')::date - 1;
    v_end timestamptz := (p_month + interval '1 month')::timestamp AT TIME ZONE 'UTC';
    c public.month_closes%ROWTYPE;
    v_latest public.statement_runs%ROWTYPE;
    v_open bigint;
    v_first text;
BEGIN
    IF p_month IS NULL OR pg_catalog.date_part('day', p_month) <> 1 THEN
        RETURN pg_catalog.format('%s is not the first day of a month', coalesce(p_month::text,
                                                                                 'NULL'));
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.billing_providers p
                    WHERE p.provider_key = p_provider_key) THEN
        RETURN pg_catalog.format('provider %s is not registered', p_provider_key);
    END IF;
    SELECT * INTO c FROM public.month_closes mc
     WHERE mc.provider_key = p_provider_key AND mc.month = p_month;
    IF FOUND THEN
        RETURN pg_catalog.format('%s %s was closed already, by %s at %s', p_provider_key,
                                 v_month, c.closed_by, public.rd_rfc3339(c.closed_at));
    END IF;
    IF pg_catalog.now() < v_end THEN
        RETURN pg_catalog.format('%s has not ended yet (it ends at %s)', v_month,
                                 public.rd_rfc3339(v_end));
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.statement_runs r
                    WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
                      AND r.covers_from <= p_month AND r.covers_to >= v_last) THEN
        SELECT * INTO v_latest FROM public.statement_runs r
         WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
           AND r.covers_from <= v_last AND r.covers_to >= p_month
         ORDER BY r.id DESC LIMIT 1;
        RETURN pg_catalog.format('no statement run of %s covers all of %s (%s to %s)%s; import '
                                 'a statement of the whole month first', p_provider_key,
                                 v_month, p_month, v_last,
                                 CASE WHEN v_latest.id IS NULL THEN ''
                                      ELSE pg_catalog.format(': run %s covers only %s to %s',
                                               v_latest.id, v_latest.covers_from,
                                               v_latest.covers_to) END);
    END IF;
    -- A run whose completeness is unproven looked for no renewal missing from it: it cannot
    -- say that the month's statement and ledger agree.
    IF NOT EXISTS (SELECT 1 FROM public.statement_runs r
                    WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
                      AND r.covers_from <= p_month AND r.covers_to >= v_last
                      AND r.completeness IS DISTINCT FROM 'unproven') THEN
        RETURN pg_catalog.format('no statement run of %s covering %s is proven complete (run%s '
                                 '%s: pages given without their manifest); import the pages '
                                 'with the manifest `statement fetch --save` wrote, fetch them, '
                                 'or state --pages-complete', p_provider_key, v_month,
                                 CASE WHEN (SELECT pg_catalog.count(*)
                                              FROM public.statement_runs r
                                             WHERE r.provider_key = p_provider_key
                                               AND r.finished_at IS NOT NULL
                                               AND r.covers_from <= p_month
                                               AND r.covers_to >= v_last) = 1
                                      THEN '' ELSE 's' END,
                                 (SELECT pg_catalog.string_agg(r.id::text, ', ' ORDER BY r.id)
                                    FROM public.statement_runs r
                                   WHERE r.provider_key = p_provider_key
                                     AND r.finished_at IS NOT NULL
                                     AND r.covers_from <= p_month AND r.covers_to >= v_last));
    END IF;
    SELECT pg_catalog.count(*), pg_catalog.string_agg(o.id::text, ', ' ORDER BY o.id)
             FILTER (WHERE o.n <= 5)
      INTO v_open, v_first
      FROM (SELECT oc.id, pg_catalog.row_number() OVER (ORDER BY oc.id) AS n
              FROM public.rd_month_close_lines(p_provider_key, p_month) l
              JOIN public.reconciliation_cases oc ON oc.id = l.case_id
             WHERE oc.status = 'open'
             GROUP BY oc.id) o;
    IF v_open > 0 THEN
        RETURN pg_catalog.format('%s %s has %s open statement case%s (case%s %s%s); resolve or '
                                 'dismiss them first', p_provider_key, v_month, v_open,
                                 CASE WHEN v_open = 1 THEN '' ELSE 's' END,
                                 CASE WHEN v_open = 1 THEN '' ELSE 's' END, v_first,
                                 CASE WHEN v_open > 5 THEN ', ...' ELSE '' END);
    END IF;
    RETURN NULL;
END;
$$;
