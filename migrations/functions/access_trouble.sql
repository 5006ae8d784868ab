REVOKE ALL ON FUNCTION public.access_trouble(timestamptz,text,integer)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.access_trouble(timestamptz,text,integer) TO renewal_viewer;

-- Payment trouble (#41): the subscriptions in grace or blocked at p_now, worked out as
-- rd_access_verdict does (no sweep needed), of one provider or all, the first p_limit by
-- subscription id: what `renewalctl access list` and the desk's Payment trouble view show.
-- attempts counts the failed attempts since the subscription's last payment.
CREATE OR REPLACE FUNCTION public.access_trouble(p_now timestamptz, p_provider_key text,
        p_limit integer)
    RETURNS TABLE (subscription_id uuid, provider_key text, provider_subscription_id text,
                   verdict text, since timestamptz, until timestamptz, source text,
                   reason text, attempts bigint, last_failed_at timestamptz,
                   decline_code text)
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp SET jit = off
AS $$
    SELECT s.id, s.provider_key, s.provider_subscription_id, v.verdict, v.since, v.until,
           v.source, v.reason, a.attempts, a.last_failed_at, a.decline_code
      FROM public.rd_access_candidates(p_now, NULL, 2147483647) c
      JOIN public.subscriptions s ON s.id = c.subscription_id
     CROSS JOIN LATERAL public.rd_access_verdict(s.id, p_now) v
     CROSS JOIN LATERAL (
         SELECT pg_catalog.count(*) AS attempts, pg_catalog.max(x.failed_at) AS last_failed_at,
                (pg_catalog.array_agg(x.decline_code ORDER BY x.failed_at DESC, x.attempt DESC))[1]
                    AS decline_code
           FROM public.payment_attempts x
          WHERE x.subscription_id = s.id AND x.failed_at <= p_now
            AND x.failed_at > coalesce((SELECT pg_catalog.max(b.paid_at)
                                          FROM public.subscription_billing_periods b
                                         WHERE b.subscription_id = s.id), '-infinity')) a
     WHERE v.verdict IN ('in_grace', 'blocked')
       AND (p_provider_key IS NULL OR s.provider_key = p_provider_key)
     ORDER BY s.id LIMIT p_limit;
$$;
