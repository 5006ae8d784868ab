REVOKE ALL ON FUNCTION public.rd_access_settle(uuid,timestamptz,text,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- Payment trouble (#41): records the subscription's verdict at p_now when it differs from the
-- one recorded last (no row: good standing) in its verdict, source or end of grace: a
-- numbered transition, the current verdict, one audit row in the subscription's chain and one
-- outbox intent access.changed, all or nothing. The caller holds the subscription's row lock,
-- so the verdict it compares is the one it records; access_transitions_once holds each
-- transition to one even so. Returns whether it recorded one. The owner's alone: called by
-- record_payment_trouble, access_sweep and extend_access.
CREATE OR REPLACE FUNCTION public.rd_access_settle(p_subscription_id uuid, p_now timestamptz,
    p_actor_type text, p_actor_id text)
    RETURNS boolean
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v record;
    cur public.access_verdicts%ROWTYPE;
    s public.subscriptions%ROWTYPE;
    v_transition bigint;
    v_seq integer;
    v_previous text;
BEGIN
    v := public.rd_access_verdict(p_subscription_id, p_now);
    IF v.verdict IS NULL THEN
        RETURN false;
    END IF;
    SELECT * INTO cur FROM public.access_verdicts x WHERE x.subscription_id = p_subscription_id;
    IF FOUND THEN
        IF v.verdict = cur.verdict AND v.source = cur.source
           AND v.until IS NOT DISTINCT FROM cur.until THEN
            RETURN false;
        END IF;
        v_seq := cur.seq + 1;
        v_previous := cur.verdict;
    ELSE
        IF v.verdict = 'good_standing' THEN
            RETURN false;
        END IF;
        v_seq := 1;
        v_previous := 'good_standing';
    END IF;
    SELECT * INTO s FROM public.subscriptions x WHERE x.id = p_subscription_id;
    INSERT INTO public.access_transitions AS t
        (subscription_id, seq, verdict, previous_verdict, since, until, source, reason,
         evaluated_at, recorded_by)
    VALUES (p_subscription_id, v_seq, v.verdict, v_previous, v.since, v.until, v.source,
            v.reason, p_now, p_actor_type)
    RETURNING t.id INTO v_transition;
    INSERT INTO public.access_verdicts AS a
        (subscription_id, verdict, since, until, source, reason, seq, transition_id, changed_at)
    VALUES (p_subscription_id, v.verdict, v.since, v.until, v.source, v.reason, v_seq,
            v_transition, pg_catalog.now())
    ON CONFLICT (subscription_id) DO UPDATE
       SET verdict = EXCLUDED.verdict, since = EXCLUDED.since, until = EXCLUDED.until,
           source = EXCLUDED.source, reason = EXCLUDED.reason, seq = EXCLUDED.seq,
           transition_id = EXCLUDED.transition_id, changed_at = EXCLUDED.changed_at;
    INSERT INTO public.subscription_transition_audits
        (subscription_id, transition, actor_type, actor_id, reason, details)
    VALUES (p_subscription_id, 'access_changed', p_actor_type, p_actor_id, v.reason,
            pg_catalog.jsonb_build_object('accessTransitionId', v_transition,
                'verdict', v.verdict, 'previousVerdict', v_previous, 'seq', v_seq,
                'since', public.rd_rfc3339(v.since), 'until', public.rd_rfc3339(v.until),
                'source', v.source, 'evaluatedAt', public.rd_rfc3339(p_now)));
    INSERT INTO public.subscription_outbox (event_type, subscription_id, payload)
    VALUES ('access.changed', p_subscription_id, pg_catalog.jsonb_build_object(
                'type', 'access.changed', 'accessTransitionId', v_transition,
                'subscriptionId', p_subscription_id, 'providerKey', s.provider_key,
                'providerSubscriptionId', s.provider_subscription_id,
                'verdict', v.verdict, 'previousVerdict', v_previous,
                'since', public.rd_rfc3339(v.since), 'until', public.rd_rfc3339(v.until),
                'source', v.source, 'reason', v.reason));
    RETURN true;
END;
$$;
