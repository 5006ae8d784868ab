REVOKE ALL ON FUNCTION public.record_reconciliation_case(jsonb,text,jsonb,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.record_reconciliation_case(jsonb,text,jsonb,text) TO renewal_ingest;

CREATE OR REPLACE FUNCTION public.record_reconciliation_case(p_event jsonb, p_error_code text,
                                                  p_local_state jsonb,
                                                  p_recorded_by text DEFAULT 'webhook')
    RETURNS bigint
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
    IF p_recorded_by IS NULL OR p_recorded_by NOT IN ('webhook', 'cli') THEN
        RAISE EXCEPTION 'a case is recorded by ''webhook'' or ''cli'', not %',
            coalesce(p_recorded_by, 'NULL') USING ERRCODE = '22023';
    END IF;
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

    -- Numbered by rd_new_id: none of the numbers users cite for a preview (#42, 12).
    INSERT INTO public.reconciliation_cases AS c
        (id, provider_key, provider_subscription_id, subscription_id, provider_renewal_key,
         first_provider_event_id, last_provider_event_id, error_code, event, event_fingerprint,
         local_state, renewal_period_start)
    OVERRIDING SYSTEM VALUE
    VALUES (public.rd_new_id('public.reconciliation_cases_id_seq'), p_event->>'providerKey', p_event->>'providerSubscriptionId',
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
                               'localState', v_state)
            || CASE WHEN p_recorded_by = 'webhook' THEN '{}'::jsonb
                    ELSE jsonb_build_object('recordedBy', p_recorded_by) END,
            0, '', '');
    RETURN case_id;
END;
$$;
