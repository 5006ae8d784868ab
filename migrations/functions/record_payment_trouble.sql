REVOKE ALL ON FUNCTION public.record_payment_trouble(jsonb,text,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- Payment trouble (#41): records what one delivery tells of a subscription's payment trouble.
-- p_event: {providerKey, providerEventId, providerSubscriptionId, trouble: {attempts: [{
-- invoiceKey, attempt, failedAt, nextAttemptAt, declineCode, amountMinor, currency}],
-- standing: {standing, observedAt, reason} or null}}. Under the subscription's row lock (the
-- one a renewal takes), each failed attempt is kept once on (provider, invoice, attempt) with
-- one audit row and one outbox intent payment.failed; the standing once on (subscription,
-- instant, standing) with one audit row; then the access verdict is settled (rd_access_settle).
-- result: 'recorded' (something new), 'duplicate' (all of it known), or 'not_a_renewal' with
-- error_code subscription_not_found for a subscription not known here (the delivery stays in
-- the inbox, for a replay once it is). The owner's alone: ingest_delivery calls it.
CREATE OR REPLACE FUNCTION public.record_payment_trouble(p_event jsonb, p_actor_type text,
    p_actor_id text, OUT result text, OUT error_code text)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_provider text := p_event->>'providerKey';
    v_trouble jsonb := p_event->'trouble';
    s public.subscriptions%ROWTYPE;
    a jsonb;
    v_id bigint;
    v_new integer := 0;
    v_recorded_by text := CASE WHEN p_actor_type IN ('operator', 'statement', 'cli')
                               THEN p_actor_type ELSE 'webhook' END;
BEGIN
    IF pg_catalog.jsonb_typeof(v_trouble) IS DISTINCT FROM 'object' THEN
        RAISE EXCEPTION 'record_payment_trouble: the event tells no trouble'
            USING ERRCODE = '22023';
    END IF;
    SELECT * INTO s FROM public.subscriptions x
     WHERE x.provider_key = v_provider
       AND x.provider_subscription_id = p_event->>'providerSubscriptionId'
       FOR UPDATE;
    IF NOT FOUND THEN
        result := 'not_a_renewal';
        error_code := 'subscription_not_found';
        RETURN;
    END IF;
    FOR a IN SELECT e.value
               FROM pg_catalog.jsonb_array_elements(coalesce(v_trouble->'attempts', '[]')) e
    LOOP
        INSERT INTO public.payment_attempts AS p
            (provider_key, invoice_key, attempt, subscription_id, failed_at, next_attempt_at,
             decline_code, amount_minor, currency, provider_event_id, recorded_by)
        VALUES (v_provider, a->>'invoiceKey', (a->>'attempt')::integer, s.id,
                (a->>'failedAt')::timestamptz, (a->>'nextAttemptAt')::timestamptz,
                a->>'declineCode', (a->>'amountMinor')::bigint, a->>'currency',
                p_event->>'providerEventId', v_recorded_by)
        ON CONFLICT DO NOTHING
        RETURNING p.id INTO v_id;
        CONTINUE WHEN v_id IS NULL; -- told before, by this event or another
        v_new := v_new + 1;
        INSERT INTO public.subscription_transition_audits
            (subscription_id, transition, actor_type, actor_id, provider_event_id,
             provider_renewal_key, reason, details)
        VALUES (s.id, 'payment_failed', p_actor_type, p_actor_id, p_event->>'providerEventId',
                a->>'invoiceKey', a->>'declineCode',
                pg_catalog.jsonb_build_object('attemptId', v_id, 'invoiceKey', a->>'invoiceKey',
                    'attempt', (a->>'attempt')::integer,
                    'failedAt', public.rd_rfc3339((a->>'failedAt')::timestamptz),
                    'nextAttemptAt', public.rd_rfc3339((a->>'nextAttemptAt')::timestamptz),
                    'declineCode', a->>'declineCode'));
        INSERT INTO public.subscription_outbox (event_type, subscription_id, payload)
        VALUES ('payment.failed', s.id, pg_catalog.jsonb_build_object(
                    'type', 'payment.failed', 'attemptId', v_id, 'subscriptionId', s.id,
                    'providerKey', v_provider,
                    'providerSubscriptionId', s.provider_subscription_id,
                    'invoiceKey', a->>'invoiceKey', 'attempt', (a->>'attempt')::integer,
                    'failedAt', public.rd_rfc3339((a->>'failedAt')::timestamptz),
                    'nextAttemptAt', public.rd_rfc3339((a->>'nextAttemptAt')::timestamptz),
                    'declineCode', a->>'declineCode',
                    'amountMinor', (a->>'amountMinor')::bigint, 'currency', a->>'currency'));
    END LOOP;
    IF pg_catalog.jsonb_typeof(v_trouble->'standing') = 'object' THEN
        v_id := NULL;
        INSERT INTO public.provider_standing_facts AS f
            (subscription_id, provider_key, standing, observed_at, reason, provider_event_id,
             recorded_by)
        VALUES (s.id, v_provider, v_trouble->'standing'->>'standing',
                (v_trouble->'standing'->>'observedAt')::timestamptz,
                v_trouble->'standing'->>'reason', p_event->>'providerEventId', v_recorded_by)
        ON CONFLICT DO NOTHING
        RETURNING f.id INTO v_id;
        IF v_id IS NOT NULL THEN
            v_new := v_new + 1;
            INSERT INTO public.subscription_transition_audits
                (subscription_id, transition, actor_type, actor_id, provider_event_id, reason,
                 details)
            VALUES (s.id, 'provider_standing', p_actor_type, p_actor_id,
                    p_event->>'providerEventId', v_trouble->'standing'->>'reason',
                    pg_catalog.jsonb_build_object('standingFactId', v_id,
                        'standing', v_trouble->'standing'->>'standing',
                        'observedAt', public.rd_rfc3339(
                            (v_trouble->'standing'->>'observedAt')::timestamptz)));
        END IF;
    END IF;
    IF v_new = 0 THEN
        result := 'duplicate';
        RETURN;
    END IF;
    result := 'recorded';
    PERFORM public.rd_access_settle(s.id, pg_catalog.now(), p_actor_type, p_actor_id);
END;
$$;
