REVOKE ALL ON FUNCTION public.renewal_totals(date,date)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.renewal_totals(date,date) TO renewal_viewer;

-- Renewals per UTC day of paid_at in [p_from, p_to), provider, currency and recorded_by: the
-- folded totals plus the deltas not folded yet, in one statement's snapshot.
CREATE OR REPLACE FUNCTION public.renewal_totals(p_from date, p_to date)
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
