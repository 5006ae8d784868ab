REVOKE ALL ON FUNCTION public.rd_overdue_cutoff(text,interval)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_overdue_cutoff(text,interval) TO renewal_viewer;

-- The instant before which a period end of this provider is overdue: now minus the grace
-- given, else the provider's, else 24 hours.
CREATE OR REPLACE FUNCTION public.rd_overdue_cutoff(p_provider_key text, p_grace interval)
    RETURNS timestamptz
    LANGUAGE sql STABLE PARALLEL SAFE SET search_path = pg_catalog, public, pg_temp
    RETURN pg_catalog.now() - COALESCE(p_grace,
        (SELECT bp.overdue_grace FROM public.billing_providers bp
          WHERE bp.provider_key = p_provider_key),
        interval '24 hours');
