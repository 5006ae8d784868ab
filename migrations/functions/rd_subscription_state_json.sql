REVOKE ALL ON FUNCTION public.rd_subscription_state_json(public.subscriptions)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_subscription_state_json(public.subscriptions) TO renewal_viewer;

CREATE OR REPLACE FUNCTION public.rd_subscription_state_json(s public.subscriptions)
    RETURNS jsonb
    LANGUAGE sql STABLE
    RETURN pg_catalog.jsonb_build_object(
        'subscriptionId', s.id, 'status', s.status,
        'currentPeriod', public.rd_period_json(s.current_period_start, s.current_period_end),
        'cancelAtPeriodEnd', s.cancel_at_period_end, 'providerVersion', s.provider_version,
        'revision', s.revision);
