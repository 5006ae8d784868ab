REVOKE ALL ON FUNCTION public.money_back_totals(date,date)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.money_back_totals(date,date) TO renewal_viewer;

-- Money back per UTC day of the movement, provider and currency in [p_from, p_to): refunded
-- (refunds less their reversals) and disputed (chargebacks less their reinstatements), in minor
-- units, from the folded totals and the deltas not folded yet, in one snapshot.
CREATE OR REPLACE FUNCTION public.money_back_totals(p_from date, p_to date)
    RETURNS TABLE (day date, provider_key text, currency text, movements bigint,
                   refunded_minor numeric, disputed_minor numeric)
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
AS $$
    SELECT u.day, u.provider_key, u.currency, pg_catalog.sum(u.movements)::bigint,
           pg_catalog.sum(CASE u.kind WHEN 'refund' THEN u.amount_minor
                                      WHEN 'refund_reversal' THEN -u.amount_minor
                                      ELSE 0 END),
           pg_catalog.sum(CASE u.kind WHEN 'chargeback' THEN u.amount_minor
                                      WHEN 'chargeback_reversal' THEN -u.amount_minor
                                      ELSE 0 END)
      FROM (SELECT t.day, t.provider_key, t.currency, t.kind, t.movements, t.amount_minor
              FROM public.money_back_daily_totals t
             WHERE t.day >= p_from AND t.day < p_to
            UNION ALL
            SELECT d.day, d.provider_key, d.currency, d.kind, d.movements, d.amount_minor
              FROM public.money_back_deltas d
             WHERE d.day >= p_from AND d.day < p_to) u
     GROUP BY u.day, u.provider_key, u.currency
$$;
