REVOKE ALL ON FUNCTION public.rd_billing_period_json(public.subscription_billing_periods)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_billing_period_json(public.subscription_billing_periods) TO renewal_viewer;

-- As 0025 wrote it.
CREATE OR REPLACE FUNCTION public.rd_billing_period_json(bp public.subscription_billing_periods)
    RETURNS jsonb
    LANGUAGE sql STABLE
    RETURN pg_catalog.jsonb_build_object(
        'id', bp.id, 'subscriptionId', bp.subscription_id, 'providerKey', bp.provider_key,
        'providerRenewalKey', bp.provider_renewal_key, 'providerEventId', bp.provider_event_id,
        'period', public.rd_period_json(bp.period_start, bp.period_end),
        'paidAmountMinor', bp.paid_amount_minor, 'currency', bp.currency,
        'paidAt', public.rd_rfc3339(bp.paid_at), 'recordedBy', bp.recorded_by);
