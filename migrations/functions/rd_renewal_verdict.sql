REVOKE ALL ON FUNCTION public.rd_renewal_verdict(public.subscriptions,text,text,timestamp with time zone,timestamp with time zone,bigint,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_renewal_verdict(public.subscriptions,text,text,timestamp with time zone,timestamp with time zone,bigint,text) TO renewal_viewer;

-- What the core would do with a renewal against subscription state `s` (rules 2-5 of
-- 0002's apply_successful_renewal): 'applicable', 'duplicate' (existing_id is the recorded
-- period), or the rejection code (conflicting is the recorded period it contradicts).
-- Takes no lock: the core calls it holding the subscription's row lock; the queue calls it to
-- say which cases a re-apply would now apply.
CREATE OR REPLACE FUNCTION public.rd_renewal_verdict(
    s public.subscriptions, p_provider_key text, p_provider_renewal_key text,
    p_period_start timestamptz, p_period_end timestamptz, p_paid_amount_minor bigint,
    p_currency text, OUT verdict text, OUT existing_id uuid, OUT conflicting jsonb)
    LANGUAGE plpgsql STABLE
AS $$
DECLARE
    bp public.subscription_billing_periods%ROWTYPE;
BEGIN
    IF s.id IS NULL THEN
        verdict := 'subscription_not_found';
        RETURN;
    END IF;
    -- The renewal fact decides first: a replay of a renewal already recorded is a duplicate
    -- even if the subscription has since been cancelled.
    SELECT * INTO bp FROM public.subscription_billing_periods b
     WHERE b.provider_key = p_provider_key AND b.provider_renewal_key = p_provider_renewal_key;
    IF FOUND THEN
        IF bp.subscription_id = s.id AND bp.period_start = p_period_start
           AND bp.period_end = p_period_end AND bp.paid_amount_minor = p_paid_amount_minor
           AND bp.currency = p_currency THEN
            verdict := 'duplicate';
            existing_id := bp.id;
        ELSE
            verdict := 'provider_renewal_key_payload_conflict';
            conflicting := public.rd_billing_period_json(bp);
        END IF;
        RETURN;
    END IF;
    verdict := CASE
        WHEN p_period_start IS NULL OR p_period_end IS NULL THEN 'needs_snapshot'
        WHEN s.status <> 'active' THEN 'renewal_not_allowed_for_subscription_status'
        WHEN s.current_period_end IS NULL THEN 'subscription_has_no_current_period'
        WHEN p_period_end <= p_period_start THEN 'invalid_provider_billing_period'
        WHEN p_period_start <> s.current_period_end THEN 'renewal_period_is_not_contiguous'
        WHEN s.cancel_at_period_end THEN 'renewal_conflicts_with_scheduled_cancellation'
        ELSE 'applicable' END;
END;
$$;
