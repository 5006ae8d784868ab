REVOKE ALL ON FUNCTION public.rd_ledger_totals(text,timestamp with time zone,timestamp with time zone)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- The recorded renewals of a provider paid in [p_lo, p_hi), per currency:
-- {"USD": {"renewals": n, "amountMinor": m}}; {} when none. The ledger's side of a statement
-- run and of a month close (0031).
CREATE OR REPLACE FUNCTION public.rd_ledger_totals(p_provider_key text, p_lo timestamptz,
                                        p_hi timestamptz)
    RETURNS jsonb
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
    RETURN coalesce((
        SELECT pg_catalog.jsonb_object_agg(t.currency, pg_catalog.jsonb_build_object(
                   'renewals', t.n, 'amountMinor', t.amount))
          FROM (SELECT b.currency::text AS currency, pg_catalog.count(*) AS n,
                       pg_catalog.sum(b.paid_amount_minor::numeric) AS amount
                  FROM public.subscription_billing_periods b
                 WHERE b.provider_key = p_provider_key AND b.paid_at >= p_lo
                   AND b.paid_at < p_hi
                 GROUP BY 1) t), '{}');
