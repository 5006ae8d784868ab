REVOKE ALL ON FUNCTION public.month_close_refusal(text,date)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.month_close_refusal(text,date) TO renewal_viewer;

-- Why the month cannot be closed now, in one English sentence (month_close_refusal_reason's,
-- the CLI's and close_month's refusal); NULL when it can. Any viewer may ask; close_month asks
-- the same under the provider's lock.
CREATE OR REPLACE FUNCTION public.month_close_refusal(p_provider_key text, p_month date)
    RETURNS text
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    r jsonb := public.month_close_refusal_reason(p_provider_key, p_month);
BEGIN
    RETURN CASE r->>'code'
        WHEN 'not_first_day' THEN
            pg_catalog.format('%s is not the first day of a month', coalesce(r->>'day', 'NULL'))
        WHEN 'provider_not_registered' THEN
            pg_catalog.format('provider %s is not registered', r->>'provider')
        WHEN 'closed_already' THEN
            pg_catalog.format('%s %s was closed already, by %s at %s', r->>'provider',
                              r->>'month', r->>'closedBy', r->>'closedAt')
        WHEN 'not_ended' THEN
            pg_catalog.format('%s has not ended yet (it ends at %s)', r->>'month',
                              r->>'endsAt')
        -- With a run of part of the month, what differs from what was imported (#42, 4): the
        -- days it covers, and the days the close needs.
        WHEN 'no_covering_run' THEN
            CASE WHEN r ? 'latestRun' THEN
                pg_catalog.format('no statement run of %s covers all of %s: run %s covers only '
                                  '%s to %s; closing %s needs one covering %s to %s (import '
                                  'the statement again with those days)', r->>'provider',
                                  r->>'month', r->>'latestRun', r->>'latestFrom',
                                  r->>'latestTo', r->>'month', r->>'from', r->>'to')
            ELSE
                pg_catalog.format('no statement run of %s covers all of %s (%s to %s); import '
                                  'a statement of the whole month first', r->>'provider',
                                  r->>'month', r->>'from', r->>'to')
            END
        WHEN 'not_proven' THEN
            pg_catalog.format('no statement run of %s covering %s is proven complete (run%s '
                              '%s: pages given without their manifest); import the pages '
                              'with the manifest `statement fetch --save` wrote, fetch them, '
                              'or state --pages-complete', r->>'provider', r->>'month',
                              CASE WHEN pg_catalog.jsonb_array_length(r->'runs') = 1 THEN ''
                                   ELSE 's' END,
                              (SELECT pg_catalog.string_agg(x.id, ', ' ORDER BY x.n)
                                 FROM pg_catalog.jsonb_array_elements_text(r->'runs')
                                      WITH ORDINALITY AS x(id, n)))
        WHEN 'open_cases' THEN
            pg_catalog.format('%s %s has %s open statement case%s (case%s %s%s); resolve or '
                              'dismiss them first', r->>'provider', r->>'month', r->>'count',
                              CASE WHEN (r->>'count')::bigint = 1 THEN '' ELSE 's' END,
                              CASE WHEN (r->>'count')::bigint = 1 THEN '' ELSE 's' END,
                              (SELECT pg_catalog.string_agg(x.id, ', ' ORDER BY x.n)
                                 FROM pg_catalog.jsonb_array_elements_text(r->'first')
                                      WITH ORDINALITY AS x(id, n)),
                              CASE WHEN (r->>'count')::bigint > 5 THEN ', ...' ELSE '' END)
    END;
END;
$$;
