-- Out-of-order deliveries heal themselves. Providers do not promise order: a renewal that
-- arrives before its predecessor is rejected as not contiguous and waits in a case. When the
-- predecessor is applied (webhook, apply, re-apply, or a snapshot that re-anchors the
-- subscription), the core looks, in the same transaction and under the same row lock, for open
-- `renewal_period_is_not_contiguous` cases of that subscription whose renewal starts exactly
-- where the current period now ends, and applies each through the same rules, while the chain
-- continues. One probe of a partial index per applied renewal. Anything the rules still
-- reject stays open for a person: nothing is forced, no dates are made to fit.
--
-- What makes it safe: a case closes only when its renewal is recorded (0007), and the case is
-- recorded under the subscription's row lock after judging the renewal again (below), so a
-- predecessor committed between the rejection and the recording is never missed.

ALTER TABLE public.reconciliation_cases ADD COLUMN renewal_period_start timestamptz;
UPDATE public.reconciliation_cases
   SET renewal_period_start = (event->'period'->>'start')::timestamptz
 WHERE jsonb_typeof(event->'period') = 'object';
-- The one probe per applied renewal: "which open gap case starts where this period ends?"
CREATE INDEX reconciliation_cases_waiting_for_predecessor
    ON public.reconciliation_cases (subscription_id, renewal_period_start)
    WHERE status = 'open' AND error_code = 'renewal_period_is_not_contiguous';

------------------------------------------------------------------------------------------
-- The core, split: rd_record_renewal is steps 2-8 on a subscription whose row lock the caller
-- holds (no lock, no healing); apply_successful_renewal locks, records, and heals.
------------------------------------------------------------------------------------------

CREATE FUNCTION public.rd_record_renewal(
    s public.subscriptions, p_provider_key text, p_provider_event_id text,
    p_provider_subscription_id text, p_provider_renewal_key text, p_provider_version text,
    p_period_start timestamptz, p_period_end timestamptz,
    p_paid_amount_minor bigint, p_currency text, p_paid_at timestamptz,
    p_actor_type text, p_actor_id text, p_billing_period_id uuid,
    OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb)
    LANGUAGE plpgsql
AS $$
DECLARE
    bp public.subscription_billing_periods%ROWTYPE;
    v_verdict text;
    v_existing uuid;
    v_conflicting jsonb;
    new_id uuid;
BEGIN
    local_state := public.rd_subscription_state_json(s);

    -- 2-5. The rules.
    SELECT v.verdict, v.existing_id, v.conflicting INTO v_verdict, v_existing, v_conflicting
      FROM public.rd_renewal_verdict(s, p_provider_key, p_provider_renewal_key, p_period_start,
                                     p_period_end, p_paid_amount_minor, p_currency) v;
    IF v_verdict = 'duplicate' THEN
        result := 'duplicate'; billing_period_id := v_existing;
        RETURN;
    ELSIF v_verdict <> 'applicable' THEN
        result := 'rejected'; error_code := v_verdict;
        IF v_conflicting IS NOT NULL THEN
            local_state := local_state
                || jsonb_build_object('conflictingBillingPeriod', v_conflicting);
        END IF;
        RETURN;
    END IF;

    -- 6. Record the renewal fact. A conflict here comes from a winner we could not see before
    --    it committed (the same renewal key under another subscription) or from the same
    --    period recorded under another key; either is judged, never assumed a duplicate.
    INSERT INTO public.subscription_billing_periods
        (id, subscription_id, provider_key, provider_renewal_key, provider_event_id,
         period_start, period_end, paid_amount_minor, currency, paid_at, recorded_by)
    VALUES (coalesce(p_billing_period_id, gen_random_uuid()), s.id, p_provider_key,
            p_provider_renewal_key, p_provider_event_id, p_period_start, p_period_end,
            p_paid_amount_minor, p_currency, p_paid_at,
            CASE WHEN p_actor_type = 'operator' THEN 'operator' ELSE 'webhook' END)
    ON CONFLICT DO NOTHING
    RETURNING id INTO new_id;
    IF new_id IS NULL THEN
        SELECT * INTO bp FROM public.subscription_billing_periods b
         WHERE b.provider_key = p_provider_key AND b.provider_renewal_key = p_provider_renewal_key;
        IF FOUND AND bp.subscription_id = s.id AND bp.period_start = p_period_start
           AND bp.period_end = p_period_end AND bp.paid_amount_minor = p_paid_amount_minor
           AND bp.currency = p_currency THEN
            result := 'duplicate'; billing_period_id := bp.id;
            RETURN;
        END IF;
        IF NOT FOUND THEN
            SELECT * INTO bp FROM public.subscription_billing_periods b
             WHERE b.subscription_id = s.id AND b.period_start = p_period_start
               AND b.period_end = p_period_end;
        END IF;
        result := 'rejected'; error_code := 'provider_renewal_key_payload_conflict';
        local_state := local_state
            || jsonb_build_object('conflictingBillingPeriod', public.rd_billing_period_json(bp));
        RETURN;
    END IF;

    -- 7. Advance the projection; cancellation, plan and quantity are not a renewal's business.
    UPDATE public.subscriptions
       SET current_period_start = p_period_start, current_period_end = p_period_end,
           provider_version = coalesce(p_provider_version, provider_version),
           revision = revision + 1, updated_at = now()
     WHERE id = s.id;

    -- 8. One audit row and one outbox intent, committed with the renewal or not at all.
    INSERT INTO public.subscription_transition_audits
        (subscription_id, transition, billing_period_id, actor_type, actor_id,
         provider_event_id, provider_renewal_key, period_start, period_end, details)
    VALUES (s.id, 'subscription_renewed', new_id, p_actor_type, p_actor_id,
            p_provider_event_id, p_provider_renewal_key, p_period_start, p_period_end,
            jsonb_build_object('before', local_state,
                               'paidAmountMinor', p_paid_amount_minor, 'currency', p_currency));
    INSERT INTO public.subscription_outbox (event_type, subscription_id, billing_period_id, payload)
    VALUES ('subscription_renewed', s.id, new_id, jsonb_build_object(
        'type', 'subscription_renewed', 'subscriptionId', s.id,
        'providerKey', p_provider_key, 'providerSubscriptionId', p_provider_subscription_id,
        'billingPeriodId', new_id, 'providerRenewalKey', p_provider_renewal_key,
        'period', public.rd_period_json(p_period_start, p_period_end),
        'paidAmountMinor', p_paid_amount_minor, 'currency', p_currency,
        'paidAt', public.rd_rfc3339(p_paid_at)));

    result := 'applied'; billing_period_id := new_id;
END;
$$;

-- Applies, while the chain continues, the open gap cases of a subscription (whose row lock the
-- caller holds) that start where its current period ends. `p_unblocked_by` is the renewal key
-- that just moved the period; each healed case names the one that unblocked it. A case another
-- session holds locked (ingest linking it to its payload, an operator acting on it) is waited
-- for, not skipped: skipping it would leave it waiting for a predecessor that already came.
-- (An operator's re-apply locks the case, then the subscription; this the other way round: the
-- rare deadlock is detected by PostgreSQL and both sides retry.) Returns how many cases were
-- resolved.
CREATE FUNCTION public.rd_heal_gaps(p_subscription_id uuid, p_unblocked_by text)
    RETURNS integer
    LANGUAGE plpgsql
AS $$
DECLARE
    s public.subscriptions%ROWTYPE;
    c public.reconciliation_cases%ROWTYPE;
    r record;
    e jsonb;
    healed integer := 0;
    advanced boolean;
    note text;
BEGIN
    LOOP
        SELECT * INTO s FROM public.subscriptions WHERE id = p_subscription_id;
        advanced := false;
        FOR c IN SELECT * FROM public.reconciliation_cases oc
                  WHERE oc.subscription_id = s.id AND oc.status = 'open'
                    AND oc.error_code = 'renewal_period_is_not_contiguous'
                    AND oc.renewal_period_start = s.current_period_end
                  ORDER BY oc.id
                    FOR UPDATE LOOP
            e := c.event;
            SELECT * INTO r FROM public.rd_record_renewal(s,
                e->>'providerKey', e->>'providerEventId', e->>'providerSubscriptionId',
                e->>'providerRenewalKey', e->>'providerVersion',
                (e->'period'->>'start')::timestamptz, (e->'period'->>'end')::timestamptz,
                (e->>'paidAmountMinor')::bigint, e->>'currency', (e->>'paidAt')::timestamptz,
                'system', 'auto-reapply', NULL);
            note := 're-applied automatically after ' || p_unblocked_by || ' arrived';
            IF r.result IN ('applied', 'duplicate') THEN
                UPDATE public.reconciliation_cases
                   SET status = 'resolved',
                       resolution = CASE r.result WHEN 'applied' THEN 'reapplied'
                                                  ELSE 'already_applied' END,
                       resolved_at = now(), resolved_by = 'system', resolution_comment = note,
                       billing_period_id = r.billing_period_id
                 WHERE id = c.id;
                healed := healed + 1;
            ELSE
                PERFORM public.rd_keep_case_open(c.id, r.error_code, r.local_state);
            END IF;
            INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code,
                actor, comment, details, chain_seq, prev_hash, row_hash)
            VALUES (c.id, 'reapply', r.result, r.error_code, 'system',
                    CASE WHEN r.result = 'rejected'
                         THEN 'tried automatically after ' || p_unblocked_by || ' arrived'
                         ELSE note END,
                    jsonb_build_object('automatic', true, 'unblockedBy', p_unblocked_by,
                                       'billingPeriodId', r.billing_period_id,
                                       'localState', r.local_state),
                    0, '', '');
            IF r.result = 'applied' THEN
                p_unblocked_by := c.provider_renewal_key;
                advanced := true;
                EXIT; -- the period moved: look again from its new end
            END IF;
        END LOOP;
        EXIT WHEN NOT advanced;
    END LOOP;
    RETURN healed;
END;
$$;

CREATE OR REPLACE FUNCTION public.apply_successful_renewal(
    p_provider_key text, p_provider_event_id text, p_provider_subscription_id text,
    p_provider_renewal_key text, p_provider_version text,
    p_period_start timestamptz, p_period_end timestamptz,
    p_paid_amount_minor bigint, p_currency text, p_paid_at timestamptz,
    p_actor_type text, p_actor_id text, p_billing_period_id uuid DEFAULT NULL,
    OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    s public.subscriptions%ROWTYPE;
BEGIN
    -- 1. The per-subscription row lock serializes every change to this subscription: two
    --    deliveries of one renewal, or two renewals of one subscription, queue here.
    SELECT * INTO s FROM public.subscriptions
     WHERE provider_key = p_provider_key AND provider_subscription_id = p_provider_subscription_id
       FOR UPDATE;
    IF NOT FOUND THEN
        result := 'rejected'; error_code := 'subscription_not_found';
        local_state := jsonb_build_object('subscriptionId', NULL);
        RETURN;
    END IF;

    -- 2-8.
    SELECT r.result, r.billing_period_id, r.error_code, r.local_state
      INTO result, billing_period_id, error_code, local_state
      FROM public.rd_record_renewal(s, p_provider_key, p_provider_event_id,
               p_provider_subscription_id, p_provider_renewal_key, p_provider_version,
               p_period_start, p_period_end, p_paid_amount_minor, p_currency, p_paid_at,
               p_actor_type, p_actor_id, p_billing_period_id) r;

    -- 9. Renewals that arrived before this one and wait for it.
    IF result = 'applied' AND EXISTS (
           SELECT 1 FROM public.reconciliation_cases c
            WHERE c.subscription_id = s.id AND c.status = 'open'
              AND c.error_code = 'renewal_period_is_not_contiguous'
              AND c.renewal_period_start = p_period_end) THEN
        PERFORM public.rd_heal_gaps(s.id, p_provider_renewal_key);
    END IF;
END;
$$;

------------------------------------------------------------------------------------------
-- Recording a rejection: judged again under the subscription's row lock. If the renewal has
-- become applicable (its predecessor committed after the rejection) or recorded (another
-- delivery of it applied) meanwhile, no case is opened and NULL is returned: the caller applies
-- it again. Otherwise the case is opened (or counts one more occurrence) with the reason it
-- fails now, and a later predecessor will find it.
------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION public.record_reconciliation_case(p_event jsonb, p_error_code text,
                                                             p_local_state jsonb) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    case_id bigint;
    inserted boolean;
    s public.subscriptions%ROWTYPE;
    v_code text := p_error_code;
    v_state jsonb := p_local_state;
    v_conflicting jsonb;
    v_start timestamptz;
    v_end timestamptz;
BEGIN
    IF jsonb_typeof(p_event->'period') = 'object' THEN
        v_start := (p_event->'period'->>'start')::timestamptz;
        v_end := (p_event->'period'->>'end')::timestamptz;
    END IF;
    IF p_error_code <> 'needs_snapshot' THEN
        SELECT * INTO s FROM public.subscriptions
         WHERE provider_key = p_event->>'providerKey'
           AND provider_subscription_id = p_event->>'providerSubscriptionId'
           FOR UPDATE;
        SELECT v.verdict, v.conflicting INTO v_code, v_conflicting
          FROM public.rd_renewal_verdict(s, p_event->>'providerKey',
                   p_event->>'providerRenewalKey', v_start, v_end,
                   (p_event->>'paidAmountMinor')::bigint, p_event->>'currency') v;
        IF v_code = 'applicable' THEN
            -- Only the core's INSERT sees this one: the same period under another key.
            SELECT public.rd_billing_period_json(b) INTO v_conflicting
              FROM public.subscription_billing_periods b
             WHERE b.subscription_id = s.id AND b.period_start = v_start
               AND b.period_end = v_end;
            IF FOUND THEN
                v_code := 'provider_renewal_key_payload_conflict';
            END IF;
        END IF;
        IF v_code IN ('applicable', 'duplicate') THEN
            RETURN NULL;
        END IF;
        v_state := CASE WHEN s.id IS NULL THEN jsonb_build_object('subscriptionId', NULL)
                        ELSE public.rd_subscription_state_json(s) END;
        IF v_conflicting IS NOT NULL THEN
            v_state := v_state || jsonb_build_object('conflictingBillingPeriod', v_conflicting);
        END IF;
    END IF;

    INSERT INTO public.reconciliation_cases AS c
        (provider_key, provider_subscription_id, subscription_id, provider_renewal_key,
         first_provider_event_id, last_provider_event_id, error_code, event, event_fingerprint,
         local_state, renewal_period_start)
    VALUES (p_event->>'providerKey', p_event->>'providerSubscriptionId',
            (SELECT id FROM public.subscriptions
              WHERE provider_key = p_event->>'providerKey'
                AND provider_subscription_id = p_event->>'providerSubscriptionId'),
            p_event->>'providerRenewalKey', p_event->>'providerEventId',
            p_event->>'providerEventId', v_code, p_event,
            public.rd_renewal_fingerprint(p_event), v_state, v_start)
    ON CONFLICT (provider_key, provider_renewal_key, event_fingerprint, error_code)
        WHERE status = 'open'
    DO UPDATE SET occurrences = c.occurrences + 1, last_seen_at = now(),
                  last_provider_event_id = excluded.last_provider_event_id,
                  local_state = excluded.local_state
    RETURNING id, (xmax = 0) INTO case_id, inserted;

    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code,
                                                   details, chain_seq, prev_hash, row_hash)
    VALUES (case_id, CASE WHEN inserted THEN 'opened' ELSE 'occurrence' END, 'open', v_code,
            jsonb_build_object('providerEventId', p_event->>'providerEventId',
                               'localState', v_state),
            0, '', '');
    RETURN case_id;
END;
$$;

------------------------------------------------------------------------------------------
-- A snapshot that re-anchors a subscription heals what waits on its new period too.
------------------------------------------------------------------------------------------

-- Called by attach_provider_snapshot (0007) after it moved the subscription (its lock held).
CREATE OR REPLACE FUNCTION public.rd_after_reanchor(p_subscription_id uuid, p_snapshot_id bigint)
    RETURNS integer
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    SELECT public.rd_heal_gaps(p_subscription_id, 'snapshot ' || p_snapshot_id);
END;

REVOKE EXECUTE ON FUNCTION
    public.rd_record_renewal(public.subscriptions, text, text, text, text, text, timestamptz,
                             timestamptz, bigint, text, timestamptz, text, text, uuid),
    public.rd_heal_gaps(uuid, text)
    FROM PUBLIC;
