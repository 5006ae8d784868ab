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
-- The core, with step 9. Steps 2-8 stay in this one body (no extra call on the hot path: a
-- version that called them as a function measured 9 % slower); they run first for the
-- delivered renewal and then, in the same loop, for each waiting case it unblocks.
------------------------------------------------------------------------------------------

-- Closes (or keeps open) a waiting case whose renewal step 9 just judged, with its history.
CREATE FUNCTION public.rd_settle_waiting_case(p_case_id bigint, p_result text,
                                              p_billing_period_id uuid, p_error_code text,
                                              p_local_state jsonb, p_unblocked_by text)
    RETURNS void
    LANGUAGE plpgsql
AS $$
DECLARE
    note text := 're-applied automatically after ' || p_unblocked_by || ' arrived';
BEGIN
    IF p_result IN ('applied', 'duplicate') THEN
        UPDATE public.reconciliation_cases
           SET status = 'resolved',
               resolution = CASE p_result WHEN 'applied' THEN 'reapplied'
                                          ELSE 'already_applied' END,
               resolved_at = now(), resolved_by = 'system', resolution_comment = note,
               billing_period_id = p_billing_period_id
         WHERE id = p_case_id;
    ELSE
        PERFORM public.rd_keep_case_open(p_case_id, p_error_code, p_local_state);
        note := 'tried automatically after ' || p_unblocked_by || ' arrived';
    END IF;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code, actor,
        comment, details, chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'reapply', p_result, p_error_code, 'system', note,
            jsonb_build_object('automatic', true, 'unblockedBy', p_unblocked_by,
                               'billingPeriodId', p_billing_period_id,
                               'localState', p_local_state),
            0, '', '');
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
    bp public.subscription_billing_periods%ROWTYPE;
    v_verdict text;
    v_existing uuid;
    v_conflicting jsonb;
    new_id uuid;
    -- The renewal being recorded: first the delivered one, then each waiting case it unblocks.
    c public.reconciliation_cases%ROWTYPE;
    healing boolean := false;
    unblocked_by text;
    tried_after bigint := 0;
    k_event_id text := p_provider_event_id;
    k_key text := p_provider_renewal_key;
    k_version text := p_provider_version;
    k_start timestamptz := p_period_start;
    k_end timestamptz := p_period_end;
    k_amount bigint := p_paid_amount_minor;
    k_currency text := p_currency;
    k_paid_at timestamptz := p_paid_at;
    k_actor_type text := p_actor_type;
    k_actor_id text := p_actor_id;
    k_id uuid := p_billing_period_id;
    k_result text;
    k_bp uuid;
    k_error text;
    k_state jsonb;
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

    LOOP
        k_state := public.rd_subscription_state_json(s);
        k_bp := NULL;
        k_error := NULL;
        -- 2-5. The rules (rd_renewal_verdict, 0007).
        SELECT v.verdict, v.existing_id, v.conflicting INTO v_verdict, v_existing, v_conflicting
          FROM public.rd_renewal_verdict(s, p_provider_key, k_key, k_start, k_end, k_amount,
                                         k_currency) v;
        IF v_verdict = 'duplicate' THEN
            k_result := 'duplicate'; k_bp := v_existing;
        ELSIF v_verdict <> 'applicable' THEN
            k_result := 'rejected'; k_error := v_verdict;
            IF v_conflicting IS NOT NULL THEN
                k_state := k_state || jsonb_build_object('conflictingBillingPeriod', v_conflicting);
            END IF;
        ELSE
            -- 6. Record the renewal fact. A conflict here comes from a winner we could not see
            --    before it committed (the same renewal key under another subscription) or from
            --    the same period under another key; either is judged, never assumed a duplicate.
            INSERT INTO public.subscription_billing_periods
                (id, subscription_id, provider_key, provider_renewal_key, provider_event_id,
                 period_start, period_end, paid_amount_minor, currency, paid_at, recorded_by)
            VALUES (coalesce(k_id, gen_random_uuid()), s.id, p_provider_key, k_key, k_event_id,
                    k_start, k_end, k_amount, k_currency, k_paid_at,
                    CASE WHEN k_actor_type = 'operator' THEN 'operator' ELSE 'webhook' END)
            ON CONFLICT DO NOTHING
            RETURNING id INTO new_id;
            IF new_id IS NULL THEN
                SELECT * INTO bp FROM public.subscription_billing_periods b
                 WHERE b.provider_key = p_provider_key AND b.provider_renewal_key = k_key;
                IF FOUND AND bp.subscription_id = s.id AND bp.period_start = k_start
                   AND bp.period_end = k_end AND bp.paid_amount_minor = k_amount
                   AND bp.currency = k_currency THEN
                    k_result := 'duplicate'; k_bp := bp.id;
                ELSE
                    IF NOT FOUND THEN
                        SELECT * INTO bp FROM public.subscription_billing_periods b
                         WHERE b.subscription_id = s.id AND b.period_start = k_start
                           AND b.period_end = k_end;
                    END IF;
                    k_result := 'rejected'; k_error := 'provider_renewal_key_payload_conflict';
                    k_state := k_state || jsonb_build_object('conflictingBillingPeriod',
                                                             public.rd_billing_period_json(bp));
                END IF;
            ELSE
                -- 7. Advance the projection; cancellation, plan and quantity are not a
                --    renewal's business.
                UPDATE public.subscriptions
                   SET current_period_start = k_start, current_period_end = k_end,
                       provider_version = coalesce(k_version, provider_version),
                       revision = revision + 1, updated_at = now()
                 WHERE id = s.id
                RETURNING * INTO s;

                -- 8. One audit row and one outbox intent, committed with the renewal or not
                --    at all.
                INSERT INTO public.subscription_transition_audits
                    (subscription_id, transition, billing_period_id, actor_type, actor_id,
                     provider_event_id, provider_renewal_key, period_start, period_end, details)
                VALUES (s.id, 'subscription_renewed', new_id, k_actor_type, k_actor_id,
                        k_event_id, k_key, k_start, k_end,
                        jsonb_build_object('before', k_state, 'paidAmountMinor', k_amount,
                                           'currency', k_currency));
                INSERT INTO public.subscription_outbox (event_type, subscription_id,
                                                       billing_period_id, payload)
                VALUES ('subscription_renewed', s.id, new_id, jsonb_build_object(
                    'type', 'subscription_renewed', 'subscriptionId', s.id,
                    'providerKey', p_provider_key,
                    'providerSubscriptionId', p_provider_subscription_id,
                    'billingPeriodId', new_id, 'providerRenewalKey', k_key,
                    'period', public.rd_period_json(k_start, k_end),
                    'paidAmountMinor', k_amount, 'currency', k_currency,
                    'paidAt', public.rd_rfc3339(k_paid_at)));
                k_result := 'applied'; k_bp := new_id;
            END IF;
        END IF;

        IF NOT healing THEN
            result := k_result; billing_period_id := k_bp; error_code := k_error;
            local_state := k_state;
            EXIT WHEN k_result <> 'applied';
        ELSE
            PERFORM public.rd_settle_waiting_case(c.id, k_result, k_bp, k_error, k_state,
                                                  unblocked_by);
        END IF;
        IF k_result = 'applied' THEN
            unblocked_by := k_key;
            tried_after := 0; -- the period moved: any case may now start at its new end
        ELSE
            tried_after := c.id; -- the same end: the next candidate, if any
        END IF;

        -- 9. A renewal that arrived before this one and waits for it: one probe of the
        --    partial index reconciliation_cases_waiting_for_predecessor. A case another
        --    session holds locked (ingest linking it to its payload, an operator acting on it)
        --    is waited for, not skipped: skipped, it would wait for a predecessor that already
        --    came. (An operator's re-apply locks the case, then the subscription; this is the
        --    other way round: the rare deadlock is detected by PostgreSQL, and both retry.)
        SELECT * INTO c FROM public.reconciliation_cases oc
         WHERE oc.subscription_id = s.id AND oc.status = 'open'
           AND oc.error_code = 'renewal_period_is_not_contiguous'
           AND oc.renewal_period_start = s.current_period_end AND oc.id > tried_after
         ORDER BY oc.id LIMIT 1
           FOR UPDATE;
        EXIT WHEN NOT FOUND;
        healing := true;
        k_event_id := c.event->>'providerEventId';
        k_key := c.event->>'providerRenewalKey';
        k_version := c.event->>'providerVersion';
        k_start := (c.event->'period'->>'start')::timestamptz;
        k_end := (c.event->'period'->>'end')::timestamptz;
        k_amount := (c.event->>'paidAmountMinor')::bigint;
        k_currency := c.event->>'currency';
        k_paid_at := (c.event->>'paidAt')::timestamptz;
        k_actor_type := 'system';
        k_actor_id := 'auto-reapply';
        k_id := NULL;
    END LOOP;
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

-- Called by attach_provider_snapshot (0007) after it moved the subscription (its lock held):
-- the first waiting case that starts at the new end goes through the core, which heals what
-- follows it; one still rejected gives way to the next candidate at the same end.
CREATE OR REPLACE FUNCTION public.rd_after_reanchor(p_subscription_id uuid, p_snapshot_id bigint)
    RETURNS integer
    LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    r record;
    tried_after bigint := 0;
BEGIN
    LOOP
        SELECT oc.* INTO c FROM public.reconciliation_cases oc
          JOIN public.subscriptions s ON s.id = oc.subscription_id
         WHERE s.id = p_subscription_id AND oc.status = 'open'
           AND oc.error_code = 'renewal_period_is_not_contiguous'
           AND oc.renewal_period_start = s.current_period_end AND oc.id > tried_after
         ORDER BY oc.id LIMIT 1
           FOR UPDATE OF oc;
        EXIT WHEN NOT FOUND;
        SELECT * INTO r FROM public.rd_apply_case_event(c.event, 'system', 'auto-reapply');
        PERFORM public.rd_settle_waiting_case(c.id, r.result, r.billing_period_id,
                                              r.error_code, r.local_state,
                                              'snapshot ' || p_snapshot_id);
        EXIT WHEN r.result = 'applied';
        tried_after := c.id;
    END LOOP;
    RETURN 0;
END;
$$;

REVOKE EXECUTE ON FUNCTION
    public.rd_settle_waiting_case(bigint, text, uuid, text, jsonb, text)
    FROM PUBLIC;
