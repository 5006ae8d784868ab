REVOKE ALL ON FUNCTION public.apply_cli_renewal(text,text,text,text,text,timestamp with time zone,timestamp with time zone,bigint,text,timestamp with time zone,uuid)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.apply_cli_renewal(text,text,text,text,text,timestamp with time zone,timestamp with time zone,bigint,text,timestamp with time zone,uuid) TO renewal_ingest;

-- A renewal applied by `renewalctl apply` (domain/store/renewal_applier.cpp): the core with the
-- actor 'cli' and the login role that ran it. Like apply_webhook_renewal (0027), the caller
-- does not choose the actor.
CREATE OR REPLACE FUNCTION public.apply_cli_renewal(
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
    a := public.apply_successful_renewal(
             p_provider_key, p_provider_event_id, p_provider_subscription_id,
             p_provider_renewal_key, p_provider_version, p_period_start, p_period_end,
             p_paid_amount_minor, p_currency, p_paid_at, 'cli', session_user::text,
             p_billing_period_id);
    result := a.result;
    billing_period_id := a.billing_period_id;
    error_code := a.error_code;
    local_state := a.local_state;
    IF result = 'applied' THEN
        -- The money back that waited for it (#40), as a delivery's renewal does.
        PERFORM public.rd_heal_money_back(p_provider_key, billing_period_id,
            pg_catalog.jsonb_build_object('providerRenewalKey', p_provider_renewal_key,
                                          'providerEventId', p_provider_event_id));
    END IF;
END;
$$;
