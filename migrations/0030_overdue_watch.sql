-- The overdue watch (#27, part 3): renewals that never reached us.
--
-- An overdue subscription is active, not set to cancel at period end, and its current period
-- ended more than a grace ago. A renewal advances current_period_end, so "no renewal recorded
-- since" needs no look at the billing periods. Either the payment failed at the provider or
-- its renewal was lost on the way (retries given up, an endpoint disabled, a secret rotated
-- wrong): a person imports or fetches a statement, or attaches a snapshot.
--
-- The grace is the provider's (billing_providers.overdue_grace, 24 hours unless set with
-- `renewalctl providers set-grace`), or one the caller passes for every provider (`--grace`,
-- the desk's setting). A subscription whose provider key is not registered has the default.
--
-- Every function here reads as its caller (no SECURITY DEFINER): the viewer, and so the
-- operator and the ingest role (the receiver's /metrics), may read subscriptions already.

ALTER TABLE public.billing_providers
    ADD COLUMN overdue_grace interval NOT NULL DEFAULT interval '24 hours'
        -- Not negative (an overdue before its period ended is a mistake), at most 90 days (a
        -- watch that waits longer watches nothing), no months: '1 month' would be 30 days.
        CONSTRAINT billing_providers_overdue_grace_range
        CHECK (overdue_grace >= interval '0' AND overdue_grace <= interval '90 days'
               AND pg_catalog.date_part('month', overdue_grace) = 0
               AND pg_catalog.date_part('year', overdue_grace) = 0);

-- The overdue count is one index range per provider key: the keys are read from this index
-- too (a loose scan, one probe per key). A renewal moves current_period_end, which another
-- index already holds, so it was never a HOT update: this is one more index entry a renewal
-- (measured in README's Benchmarks). Canceled, paused, past_due and cancel-at-period-end
-- subscriptions are not in it.
CREATE INDEX subscriptions_overdue_watch
    ON public.subscriptions (provider_key, current_period_end)
    WHERE status = 'active' AND NOT cancel_at_period_end;

-- The instant before which a period end of this provider is overdue: now minus the grace
-- given, else the provider's, else 24 hours.
CREATE FUNCTION public.rd_overdue_cutoff(p_provider_key text, p_grace interval)
    RETURNS timestamptz
    LANGUAGE sql STABLE PARALLEL SAFE SET search_path = pg_catalog, public, pg_temp
    RETURN pg_catalog.now() - COALESCE(p_grace,
        (SELECT bp.overdue_grace FROM public.billing_providers bp
          WHERE bp.provider_key = p_provider_key),
        interval '24 hours');

-- Overdue subscriptions per provider key: every registered provider and every key an active
-- subscription has, 0 included (a gauge that drops to 0 must say so).
--
-- jit off: the planner cannot know a provider's range is small, prices the counts at the
-- whole index, and would JIT-compile a query of a millisecond for ten (measured at 20,000 rows).
CREATE FUNCTION public.overdue_subscription_counts(p_grace interval DEFAULT NULL)
    RETURNS TABLE (provider_key text, grace interval, overdue bigint)
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp SET jit = off
AS $$
    WITH RECURSIVE watched(k) AS (
        (SELECT s.provider_key FROM public.subscriptions s
          WHERE s.status = 'active' AND NOT s.cancel_at_period_end
          ORDER BY s.provider_key LIMIT 1)
        UNION ALL
        SELECT (SELECT s.provider_key FROM public.subscriptions s
                 WHERE s.status = 'active' AND NOT s.cancel_at_period_end
                   AND s.provider_key > w.k
                 ORDER BY s.provider_key LIMIT 1)
          FROM watched w
         WHERE w.k IS NOT NULL
    ), keys AS (
        SELECT w.k FROM watched w WHERE w.k IS NOT NULL
        UNION
        SELECT bp.provider_key FROM public.billing_providers bp
    )
    SELECT keys.k, g.grace,
           (SELECT pg_catalog.count(*) FROM public.subscriptions s
             WHERE s.status = 'active' AND NOT s.cancel_at_period_end
               AND s.provider_key = keys.k
               AND s.current_period_end < pg_catalog.now() - g.grace)
      FROM keys
      LEFT JOIN public.billing_providers bp ON bp.provider_key = keys.k
     CROSS JOIN LATERAL (SELECT COALESCE(p_grace, bp.overdue_grace, interval '24 hours')
                                AS grace) g
     ORDER BY keys.k;
$$;

-- The overdue subscriptions in (provider key, period end, provider subscription id) order,
-- the index's, a page at a time: pass the last row's three values to read the next page.
-- p_provider_key limits the list to one provider.
CREATE FUNCTION public.overdue_subscriptions(p_grace interval DEFAULT NULL,
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

REVOKE EXECUTE ON FUNCTION
    public.rd_overdue_cutoff(text, interval),
    public.overdue_subscription_counts(interval),
    public.overdue_subscriptions(interval, text, text, timestamptz, text, integer)
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION
    public.rd_overdue_cutoff(text, interval),
    public.overdue_subscription_counts(interval),
    public.overdue_subscriptions(interval, text, text, timestamptz, text, integer)
    TO renewal_viewer;
