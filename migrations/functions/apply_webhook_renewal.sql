REVOKE ALL ON FUNCTION public.apply_webhook_renewal(text,text,text,text,text,timestamp with time zone,timestamp with time zone,bigint,text,timestamp with time zone,uuid)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.apply_webhook_renewal(text,text,text,text,text,timestamp with time zone,timestamp with time zone,bigint,text,timestamp with time zone,uuid) TO renewal_ingest;

-- A renewal delivered by provider key p_provider_key, for callers outside a delivery
-- (`renewalctl apply`): the core with the actor a webhook delivery always has.
CREATE OR REPLACE FUNCTION public.apply_webhook_renewal(
    p_provider_key text, p_provider_event_id text, p_provider_subscription_id text,
    p_provider_renewal_key text, p_provider_version text,
    p_period_start timestamptz, p_period_end timestamptz,
    p_paid_amount_minor bigint, p_currency text, p_paid_at timestamptz,
    p_billing_period_id uuid DEFAULT NULL,
    OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    a record;
BEGIN
    -- An assignment, not SELECT ... FROM: a plain expression skips the executor's function
    -- scan and its tuplestore. Over calling the core directly this wrapper costs 30,800
    -- instructions a renewal (1.1 %; SELECT ... FROM cost 48,000), counted with
    -- count-instructions.sh and webhook-statement.sql. The delivery path (ingest_delivery)
    -- calls the core directly and pays nothing.
    a := public.apply_successful_renewal(
             p_provider_key, p_provider_event_id, p_provider_subscription_id,
             p_provider_renewal_key, p_provider_version, p_period_start, p_period_end,
             p_paid_amount_minor, p_currency, p_paid_at, 'webhook', p_provider_key,
             p_billing_period_id);
    result := a.result;
    billing_period_id := a.billing_period_id;
    error_code := a.error_code;
    local_state := a.local_state;
END;
$$;
