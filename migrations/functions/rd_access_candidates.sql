REVOKE ALL ON FUNCTION public.rd_access_candidates(timestamptz,uuid,integer)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_access_candidates(timestamptz,uuid,integer) TO renewal_viewer;

-- Payment trouble (#41): the first p_limit subscriptions after p_after (by id) whose verdict at
-- p_now may be other than the one recorded, or other than good standing: a recorded verdict in
-- grace or blocked (it ends, or recovers), a period ended by p_now, a subscription canceled
-- here, each unless its end is recorded already. Every other subscription is in good standing
-- and recorded so: a trouble a delivery tells is settled by that delivery. SECURITY INVOKER,
-- for access_sweep and access_trouble.
CREATE OR REPLACE FUNCTION public.rd_access_candidates(p_now timestamptz, p_after uuid,
        p_limit integer)
    RETURNS TABLE (subscription_id uuid)
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp SET jit = off
AS $$
BEGIN
    -- PL/pgSQL, not SQL: a SQL function with SET clauses is never inlined and is planned
    -- without p_now and p_after, so each batch walked the whole primary key (1 M entries);
    -- RETURN QUERY plans it with the values (docs/benchmarks.md, "Payment trouble and access").
    RETURN QUERY
    SELECT c.id FROM (
        SELECT v.subscription_id AS id FROM public.access_verdicts v
         WHERE v.verdict IN ('in_grace', 'blocked')
           AND v.subscription_id > coalesce(p_after, '00000000-0000-0000-0000-000000000000')
        UNION
        SELECT s.id FROM public.subscriptions s
         WHERE s.current_period_end <= p_now
           AND s.id > coalesce(p_after, '00000000-0000-0000-0000-000000000000')
           AND NOT EXISTS (SELECT 1 FROM public.access_verdicts v
                            WHERE v.subscription_id = s.id AND v.verdict = 'ended')
        UNION
        SELECT s.id FROM public.subscriptions s
         WHERE s.status = 'canceled'
           AND s.id > coalesce(p_after, '00000000-0000-0000-0000-000000000000')
           AND NOT EXISTS (SELECT 1 FROM public.access_verdicts v
                            WHERE v.subscription_id = s.id AND v.verdict = 'ended')
    ) c ORDER BY c.id LIMIT p_limit;
END;
$$;
