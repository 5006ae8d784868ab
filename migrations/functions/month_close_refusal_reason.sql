REVOKE ALL ON FUNCTION public.month_close_refusal_reason(text,date)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.month_close_refusal_reason(text,date) TO renewal_viewer;

-- Why the month cannot be closed now, as a reason the programs put in their own words: {"code",
-- and what the sentence names}; NULL when it can. month_close_refusal says it in English (the
-- CLI's, close_month's refusal); the desk says it in its language (ui/actions/monthclose.cpp).
-- codes: not_first_day {day}; provider_not_registered {provider}; closed_already {provider,
-- month, closedBy, closedAt}; not_ended {month, endsAt}; no_covering_run {provider, month, from,
-- to, and latestRun, latestFrom, latestTo when a run covers part of it}; not_proven {provider,
-- month, runs}; open_cases {provider, month, count, first (up to five case ids)}.
CREATE OR REPLACE FUNCTION public.month_close_refusal_reason(p_provider_key text, p_month date)
    RETURNS jsonb
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_month text := pg_catalog.to_char(p_month, 'YYYY-MM');
    v_last date := (p_month + interval '1 month')::date - 1;
    v_end timestamptz := (p_month + interval '1 month')::timestamp AT TIME ZONE 'UTC';
    c public.month_closes%ROWTYPE;
    v_latest public.statement_runs%ROWTYPE;
    v_open bigint;
    v_first jsonb;
BEGIN
    IF p_month IS NULL OR pg_catalog.date_part('day', p_month) <> 1 THEN
        RETURN pg_catalog.jsonb_build_object('code', 'not_first_day', 'day', p_month);
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.billing_providers p
                    WHERE p.provider_key = p_provider_key) THEN
        RETURN pg_catalog.jsonb_build_object('code', 'provider_not_registered',
                                             'provider', p_provider_key);
    END IF;
    SELECT * INTO c FROM public.month_closes mc
     WHERE mc.provider_key = p_provider_key AND mc.month = p_month;
    IF FOUND THEN
        RETURN pg_catalog.jsonb_build_object('code', 'closed_already', 'provider', p_provider_key,
                                             'month', v_month, 'closedBy', c.closed_by,
                                             'closedAt', public.rd_rfc3339(c.closed_at));
    END IF;
    IF pg_catalog.now() < v_end THEN
        RETURN pg_catalog.jsonb_build_object('code', 'not_ended', 'month', v_month,
                                             'endsAt', public.rd_rfc3339(v_end));
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.statement_runs r
                    WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
                      AND r.covers_from <= p_month AND r.covers_to >= v_last) THEN
        SELECT * INTO v_latest FROM public.statement_runs r
         WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
           AND r.covers_from <= v_last AND r.covers_to >= p_month
         ORDER BY r.id DESC LIMIT 1;
        RETURN pg_catalog.jsonb_build_object('code', 'no_covering_run',
                                             'provider', p_provider_key, 'month', v_month,
                                             'from', p_month, 'to', v_last)
            || CASE WHEN v_latest.id IS NULL THEN '{}'::jsonb
                    ELSE pg_catalog.jsonb_build_object('latestRun', v_latest.id,
                             'latestFrom', v_latest.covers_from,
                             'latestTo', v_latest.covers_to) END;
    END IF;
    -- A run whose completeness is unproven looked for no renewal missing from it: it cannot
    -- say that the month's statement and ledger agree.
    IF NOT EXISTS (SELECT 1 FROM public.statement_runs r
                    WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
                      AND r.covers_from <= p_month AND r.covers_to >= v_last
                      AND r.completeness IS DISTINCT FROM 'unproven') THEN
        RETURN pg_catalog.jsonb_build_object('code', 'not_proven', 'provider', p_provider_key,
                   'month', v_month,
                   'runs', (SELECT pg_catalog.jsonb_agg(r.id ORDER BY r.id)
                              FROM public.statement_runs r
                             WHERE r.provider_key = p_provider_key
                               AND r.finished_at IS NOT NULL
                               AND r.covers_from <= p_month AND r.covers_to >= v_last));
    END IF;
    SELECT pg_catalog.count(*),
           coalesce(pg_catalog.jsonb_agg(o.id ORDER BY o.id) FILTER (WHERE o.n <= 5), '[]')
      INTO v_open, v_first
      FROM (SELECT oc.id, pg_catalog.row_number() OVER (ORDER BY oc.id) AS n
              FROM public.rd_month_close_lines(p_provider_key, p_month) l
              JOIN public.reconciliation_cases oc ON oc.id = l.case_id
             WHERE oc.status = 'open'
             GROUP BY oc.id) o;
    IF v_open > 0 THEN
        RETURN pg_catalog.jsonb_build_object('code', 'open_cases', 'provider', p_provider_key,
                                             'month', v_month, 'count', v_open,
                                             'first', v_first);
    END IF;
    RETURN NULL;
END;
$$;
