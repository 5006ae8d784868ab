-- As 0029 wrote it, except that an actor 'cli' records its renewal as 'cli' (the two CASE
-- expressions of steps 6 and 8).
--
-- Grants first, then the definition: CREATE OR REPLACE keeps them. A GRANT or REVOKE after
-- the definition would rewrite this pg_proc row from the catalog cache's copy, whose body is
-- inline and compressed; PostgreSQL's toaster then compresses the argument arrays as well, and
-- every call decompresses them (for apply_successful_renewal, +1.1 % of a renewal's
-- instructions in bench/pgbench/count-instructions.sh; docs/migrations.md). The function
-- exists: the numbered migrations created it.
REVOKE ALL ON FUNCTION public.apply_successful_renewal(text,text,text,text,text,timestamp with time zone,timestamp with time zone,bigint,text,timestamp with time zone,text,text,uuid)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

CREATE OR REPLACE FUNCTION public.apply_successful_renewal(
    p_provider_key text, p_provider_event_id text, p_provider_subscription_id text,
    p_provider_renewal_key text, p_provider_version text,
    p_period_start timestamptz, p_period_end timestamptz,
    p_paid_amount_minor bigint, p_currency text, p_paid_at timestamptz,
    p_actor_type text, p_actor_id text, p_billing_period_id uuid DEFAULT NULL,
    OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
    SET renewal_desk.core_counts = 'on'
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
                    CASE WHEN k_actor_type IN ('operator', 'statement', 'cli') THEN k_actor_type
                         ELSE 'webhook' END)
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
                -- The ledger's totals (0016, 0020): this renewal's delta row, one insert.
                INSERT INTO public.renewal_total_deltas (day, period_start_day, provider_key,
                                                         currency, recorded_by, renewals,
                                                         amount_minor)
                VALUES ((k_paid_at AT TIME ZONE 'UTC')::date, (k_start AT TIME ZONE 'UTC')::date,
                        p_provider_key, k_currency,
                        CASE WHEN k_actor_type IN ('operator', 'statement', 'cli') THEN k_actor_type
                             ELSE 'webhook' END,
                        1, k_amount);
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
