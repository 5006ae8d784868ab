REVOKE ALL ON FUNCTION public.overdue_subscriptions(interval,text,text,timestamp with time zone,text,integer)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.overdue_subscriptions(interval,text,text,timestamp with time zone,text,integer) TO renewal_viewer;

-- The overdue subscriptions in (provider key, period end, provider subscription id) order,
-- the index's, a page at a time: pass the last row's three values to read the next page.
-- p_provider_key limits the list to one provider.
CREATE OR REPLACE FUNCTION public.overdue_subscriptions(p_grace interval DEFAULT NULL,
        p_provider_key text DEFAULT NULL, p_after_provider_key text DEFAULT NULL,
        p_after_period_end timestamptz DEFAULT NULL, p_after_subscription_id text DEFAULT NULL,
        p_limit integer DEFAULT 500)
    RETURNS TABLE (provider_key text, provider_subscription_id text, subscription_id uuid,
                   current_period_end timestamptz, overdue_for interval, grace interval)
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp SET jit = off
AS $$
    SELECT s.provider_key, s.provider_subscription_id, s.id, s.current_period_end,
           pg_catalog.now() - s.current_period_end,
           COALESCE(p_grace, bp.overdue_grace, interval '24 hours')
      FROM public.subscriptions s
      LEFT JOIN public.billing_providers bp ON bp.provider_key = s.provider_key
     WHERE s.status = 'active' AND NOT s.cancel_at_period_end
       AND s.current_period_end
           < pg_catalog.now() - COALESCE(p_grace, bp.overdue_grace, interval '24 hours')
       AND (p_provider_key IS NULL OR s.provider_key = p_provider_key)
       AND (p_after_provider_key IS NULL
            OR (s.provider_key, s.current_period_end, s.provider_subscription_id)
               > (p_after_provider_key, p_after_period_end, p_after_subscription_id))
     ORDER BY s.provider_key, s.current_period_end, s.provider_subscription_id
     LIMIT p_limit;
$$;
