REVOKE ALL ON FUNCTION public.rd_access_verdict(uuid,timestamptz)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_access_verdict(uuid,timestamptz) TO renewal_viewer;

-- Payment trouble (#41): a subscription's access verdict at p_now, worked out from the facts as
-- they stand (nothing recorded needed): good_standing, in_grace (until an instant), blocked or
-- ended, with its source (provider, policy, operator), the instant it began and a reason.
-- Only what the database knew by p_now counts: facts observed and attempts failed after it
-- do not. The rules, first match wins (docs/user-guide.md, "Payment trouble and access"):
-- 1. ended: the subscription is canceled here, or the provider's newest standing is canceled,
--    or it was to cancel at its period's end and that end has passed;
-- 2. blocked: the provider paused it;
-- 3. the provider gave up (standing unpaid): blocked, or with the policy
--    keep_until_period_end in grace until the paid period's end and the grace days;
-- 4. the provider's dunning runs (standing past_due, or failed attempts since the last
--    payment whose invoice is not paid): in grace until its next retry or the local grace,
--    whichever is later; blocked (policy) when that passed with no payment;
-- 5. the period ended without its renewal and the provider said nothing: in grace for the
--    policy's grace days from its end, then blocked (policy);
-- 6. good_standing.
-- An operator's extension that runs at p_now turns in_grace and blocked into in_grace until
-- its end, when that is later. Recovery is the renewal: facts and attempts older than the last
-- recorded payment, and attempts of an invoice recorded as a renewal, are over.
-- SECURITY INVOKER: a viewer asks it of tables it may read; every name is schema-qualified.
CREATE OR REPLACE FUNCTION public.rd_access_verdict(p_subscription_id uuid, p_now timestamptz,
    OUT verdict text, OUT since timestamptz, OUT until timestamptz, OUT source text,
    OUT reason text)
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    s public.subscriptions%ROWTYPE;
    f public.provider_standing_facts%ROWTYPE;
    o public.access_overrides%ROWTYPE;
    v_days integer;
    v_grace interval;
    v_give_up text;
    v_paid_at timestamptz;
    v_settled timestamptz;
    v_grace_end timestamptz;
    v_first timestamptz;
    v_last_at timestamptz;
    v_next timestamptz;
    v_attempts integer;
BEGIN
    SELECT * INTO s FROM public.subscriptions x WHERE x.id = p_subscription_id;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT p.grace_days, p.when_provider_gives_up INTO v_days, v_give_up
      FROM public.access_policies p WHERE p.provider_key = s.provider_key;
    v_days := coalesce(v_days, 7);
    v_give_up := coalesce(v_give_up, 'block');
    v_grace := pg_catalog.make_interval(days => v_days);
    v_grace_end := s.current_period_end + v_grace;
    SELECT pg_catalog.max(b.paid_at) INTO v_paid_at
      FROM public.subscription_billing_periods b
     WHERE b.subscription_id = s.id AND b.paid_at <= p_now;
    SELECT * INTO f FROM public.provider_standing_facts x
     WHERE x.subscription_id = s.id AND x.observed_at <= p_now
     ORDER BY x.observed_at DESC, x.id DESC LIMIT 1;
    -- A past_due or unpaid older than the last payment: the payment ended that trouble.
    IF f.standing IN ('past_due', 'unpaid') AND f.observed_at < v_paid_at THEN
        f := NULL;
    END IF;
    v_settled := GREATEST(v_paid_at, CASE WHEN f.standing = 'active' THEN f.observed_at END);
    SELECT pg_catalog.count(*), pg_catalog.min(a.failed_at), pg_catalog.max(a.failed_at)
      INTO v_attempts, v_first, v_last_at
      FROM public.payment_attempts a
     WHERE a.subscription_id = s.id AND a.failed_at <= p_now
       AND a.failed_at > coalesce(v_settled, '-infinity')
       AND NOT EXISTS (SELECT 1 FROM public.subscription_billing_periods b
                        WHERE b.provider_key = a.provider_key
                          AND b.provider_renewal_key = a.invoice_key);
    IF v_attempts > 0 THEN
        SELECT a.next_attempt_at INTO v_next FROM public.payment_attempts a
         WHERE a.subscription_id = s.id AND a.failed_at = v_last_at
         ORDER BY a.attempt DESC LIMIT 1;
    END IF;

    IF s.status = 'canceled' OR f.standing = 'canceled' THEN
        verdict := 'ended';
        source := 'provider';
        since := CASE WHEN f.standing = 'canceled' THEN f.observed_at ELSE s.updated_at END;
        reason := CASE WHEN f.reason = 'not_paid' THEN 'canceled by the provider for non-payment'
                       ELSE 'canceled by the provider' END;
        RETURN;
    ELSIF s.cancel_at_period_end AND s.current_period_end <= p_now THEN
        verdict := 'ended';
        source := 'provider';
        since := s.current_period_end;
        reason := 'canceled at the end of its period';
        RETURN;
    ELSIF f.standing = 'paused' THEN
        verdict := 'blocked';
        source := 'provider';
        since := f.observed_at;
        reason := 'paused by the provider';
    ELSIF f.standing = 'unpaid' THEN
        IF v_give_up = 'keep_until_period_end' AND p_now < v_grace_end THEN
            verdict := 'in_grace';
            source := 'policy';
            since := f.observed_at;
            until := v_grace_end;
            reason := pg_catalog.format('the provider gave up collecting (%s); kept until the '
                                        'paid period''s end and %s grace days',
                                        coalesce(f.reason, 'unpaid'), v_days);
        ELSE
            verdict := 'blocked';
            source := CASE WHEN v_give_up = 'keep_until_period_end' THEN 'policy'
                           ELSE 'provider' END;
            since := CASE WHEN v_give_up = 'keep_until_period_end'
                          THEN GREATEST(f.observed_at, v_grace_end) ELSE f.observed_at END;
            reason := pg_catalog.format('the provider gave up collecting (%s)',
                                        coalesce(f.reason, 'unpaid'));
        END IF;
    ELSIF f.standing = 'past_due' OR v_attempts > 0 THEN
        until := GREATEST(v_grace_end, v_next);
        since := LEAST(v_first, CASE WHEN f.standing = 'past_due' THEN f.observed_at END);
        IF until IS NULL OR p_now < until THEN
            verdict := 'in_grace';
            source := 'provider';
            reason := CASE WHEN v_attempts > 0
                           THEN pg_catalog.format('%s failed payment attempt%s; %s', v_attempts,
                                    CASE WHEN v_attempts = 1 THEN '' ELSE 's' END,
                                    CASE WHEN v_next IS NOT NULL
                                         THEN 'the provider retries at '
                                              || public.rd_rfc3339(v_next)
                                         ELSE 'the provider retries' END)
                           ELSE 'past due: the provider retries its payment' END;
        ELSE
            verdict := 'blocked';
            source := 'policy';
            since := until;
            until := NULL;
            reason := pg_catalog.format('no payment by the end of the grace (%s days after the '
                                        'period''s end, or the provider''s last retry)', v_days);
        END IF;
    ELSIF s.current_period_end <= p_now THEN
        since := s.current_period_end;
        IF p_now < v_grace_end THEN
            verdict := 'in_grace';
            source := 'policy';
            until := v_grace_end;
            reason := pg_catalog.format('the period ended without its renewal; %s grace days',
                                        v_days);
        ELSE
            verdict := 'blocked';
            source := 'policy';
            since := v_grace_end;
            reason := pg_catalog.format('the period ended %s without its renewal, and its %s '
                                        'grace days passed',
                                        public.rd_rfc3339(s.current_period_end), v_days);
        END IF;
    ELSE
        verdict := 'good_standing';
        source := 'provider';
        since := coalesce(v_settled, s.current_period_start, s.created_at);
        reason := CASE WHEN s.current_period_end IS NOT NULL
                       THEN 'paid through ' || public.rd_rfc3339(s.current_period_end)
                       ELSE 'no payment trouble' END;
        RETURN;
    END IF;

    -- An operator's extension running at p_now.
    SELECT * INTO o FROM public.access_overrides x
     WHERE x.subscription_id = s.id AND x.created_at <= p_now AND x.until > p_now
     ORDER BY x.created_at DESC, x.id DESC LIMIT 1;
    IF FOUND AND (verdict = 'blocked' OR until IS NULL OR until < o.until) THEN
        verdict := 'in_grace';
        source := 'operator';
        since := o.created_at;
        until := o.until;
        reason := pg_catalog.format('grace extended by %s: %s', o.granted_by, o.note);
    END IF;
END;
$$;
