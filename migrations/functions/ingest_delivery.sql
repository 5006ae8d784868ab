-- Grants first, then the definition: CREATE OR REPLACE keeps them. A GRANT or REVOKE after
-- the definition would rewrite this pg_proc row from the catalog cache's copy, whose body is
-- inline and compressed; PostgreSQL's toaster then compresses the argument arrays as well, and
-- every call decompresses them (for apply_successful_renewal, +1.1 % of a renewal's
-- instructions in bench/pgbench/count-instructions.sh; docs/migrations.md). The function
-- exists: the numbered migrations created it.
REVOKE ALL ON FUNCTION public.ingest_delivery(text,text,bytea,bigint,text,text,text,text,jsonb,jsonb,uuid)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.ingest_delivery(text,text,bytea,bigint,text,text,text,text,jsonb,jsonb,uuid) TO renewal_ingest;

CREATE OR REPLACE FUNCTION public.ingest_delivery(
    p_provider_key text, p_provider_event_id text, p_raw_body bytea, p_body_size bigint,
    p_body_sha256 text, p_outcome text, p_reason text, p_error text, p_normalized jsonb,
    p_event jsonb, p_token uuid,
    OUT outcome text, OUT inbox_id bigint, OUT billing_period_id uuid, OUT error_code text,
    OUT case_id bigint, OUT local_state jsonb)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_inbox bigint;
    v_is_new boolean;
    v_stored text;
    v_bp uuid;
    v_case bigint;
    v_error text;
    v_state jsonb;
    v_result text;
    v_final boolean := p_event IS NULL;
    v_attempt integer := 0;
    v_normalized jsonb := p_normalized;
    v_email_hmac text;
BEGIN
    -- Where this body is stored matters to every call. Compressed, it is a little over the
    -- 2,000 bytes PostgreSQL keeps in a pg_proc row, so it moves out of the row; compressed to
    -- less, it stayed in the row, and the toaster then compressed the argument arrays as well,
    -- which every call decompresses again (docs/migrations.md, "Why grants first").
    IF p_event IS NULL AND p_outcome IS NULL THEN
        RAISE EXCEPTION 'ingest_delivery: a renewal needs its event' USING ERRCODE = '22023';
    END IF;
    UPDATE public.webhook_inbox w
       SET deliveries = w.deliveries + 1, last_delivery_at = pg_catalog.now()
     WHERE w.provider_key = p_provider_key AND w.provider_event_id = p_provider_event_id
    RETURNING w.id, w.outcome, w.billing_period_id, w.case_id
         INTO v_inbox, v_stored, v_bp, v_case;
    -- Not found: a new event id, whose row is written once, with its outcome, at the end.
    v_is_new := NOT FOUND;
    inbox_id := v_inbox;

    IF v_stored IS NOT NULL AND NOT v_is_new THEN
        -- Transport-level duplicate: the first delivery's outcome stands.
        outcome := 'duplicate_delivery';
        billing_period_id := v_bp;
        case_id := v_case;
        RETURN;
    END IF;
    -- A new renewal or snapshot case, or a row an earlier delivery left without outcome.
    v_bp := NULL;
    v_case := NULL;
    IF v_final THEN
        v_result := p_outcome;
        v_error := p_error;
    ELSIF p_outcome = 'needs_snapshot' THEN
        SELECT public.rd_subscription_state_json(s) INTO v_state FROM public.subscriptions s
         WHERE s.provider_key = p_event->>'providerKey'
           AND s.provider_subscription_id = p_event->>'providerSubscriptionId';
        v_case := public.record_reconciliation_case(
            p_event, 'needs_snapshot',
            coalesce(v_state, pg_catalog.jsonb_build_object('subscriptionId', NULL)));
        v_result := 'needs_snapshot';
        v_state := NULL;
    ELSIF p_outcome = 'payment_trouble' THEN
        -- Failed attempts and the provider's standing (#41): recorded, duplicate, or
        -- not_a_renewal for a subscription not known here.
        SELECT r.result, r.error_code INTO v_result, v_error
          FROM public.record_payment_trouble(p_event, 'webhook', p_provider_key) r;
    ELSIF p_outcome = 'money_movement' THEN
        -- Refunds, chargebacks and their reversals (#40): recorded, duplicate, or a case.
        SELECT r.result, r.billing_period_id, r.error_code, r.case_id, r.local_state
          INTO v_result, v_bp, v_error, v_case, v_state
          FROM public.record_money_movements(p_event, 'webhook', p_provider_key) r;
    ELSE
        LOOP
            v_attempt := v_attempt + 1;
            SELECT a.result, a.billing_period_id, a.error_code, a.local_state
              INTO v_result, v_bp, v_error, v_state
              FROM public.apply_successful_renewal(
                       p_event->>'providerKey', p_event->>'providerEventId',
                       p_event->>'providerSubscriptionId', p_event->>'providerRenewalKey',
                       p_event->>'providerVersion',
                       (p_event->'period'->>'start')::timestamptz,
                       (p_event->'period'->>'end')::timestamptz,
                       (p_event->>'paidAmountMinor')::bigint, p_event->>'currency',
                       (p_event->>'paidAt')::timestamptz, 'webhook', p_provider_key,
                       p_token) a;
            IF v_result = 'applied' THEN
                -- Its payment refs kept, and the money back that waited for it recorded.
                PERFORM public.rd_heal_money_back(p_provider_key, v_bp, p_event);
                -- A paid renewal ends a payment trouble (#41): its recorded verdict moves now,
                -- under the row lock the renewal holds, not at the next sweep.
                PERFORM public.rd_access_settle(a.subscription_id, pg_catalog.now(), 'webhook',
                                                p_provider_key)
                   FROM public.subscription_billing_periods b
                   JOIN public.access_verdicts a ON a.subscription_id = b.subscription_id
                  WHERE b.id = v_bp AND a.verdict IN ('in_grace', 'blocked');
            END IF;
            EXIT WHEN v_result <> 'rejected';
            v_case := public.record_reconciliation_case(p_event, v_error, v_state);
            EXIT WHEN v_case IS NOT NULL;
            IF v_attempt >= 5 THEN
                -- Retried as a whole by the client (nothing of this call is kept).
                RAISE EXCEPTION 'renewal % kept changing between its rejection and its case',
                    p_event->>'providerRenewalKey' USING ERRCODE = '40001';
            END IF;
        END LOOP;
    END IF;

    IF v_is_new THEN
        -- The customer's e-mail (#42) is never stored in clear outside the body: its keyed hash
        -- replaces it, for Find anything after the body has gone (one HMAC, two sha256 calls).
        IF p_normalized ? 'customerEmail' THEN
            v_email_hmac := public.rd_customer_email_hmac(p_normalized ->> 'customerEmail');
            v_normalized := p_normalized - 'customerEmail';
            IF v_email_hmac IS NOT NULL THEN
                v_normalized := v_normalized
                    || pg_catalog.jsonb_build_object('customerEmailHmac', v_email_hmac);
            END IF;
        END IF;
        INSERT INTO public.webhook_inbox AS w (
            provider_key, provider_event_id, raw_body, body_size, body_sha256, outcome, reason,
            error, normalized, billing_period_id, case_id, processed_at, ingest_token)
        VALUES (p_provider_key, p_provider_event_id, p_raw_body, p_body_size, p_body_sha256,
                v_result, p_reason, v_error, v_normalized, v_bp, v_case, pg_catalog.now(),
                p_token)
        ON CONFLICT (provider_key, provider_event_id) DO NOTHING
        RETURNING w.id INTO v_inbox;
        IF v_inbox IS NULL THEN
            -- A concurrent delivery of this event id committed its row first. Nothing of
            -- this call is kept; the client runs it again and gets duplicate_delivery.
            RAISE EXCEPTION 'event % was delivered concurrently', p_provider_event_id
                USING ERRCODE = '40001';
        END IF;
        inbox_id := v_inbox;
    ELSE
        UPDATE public.webhook_inbox w
           SET outcome = v_result, error = v_error, billing_period_id = v_bp, case_id = v_case,
               processed_at = pg_catalog.now(), ingest_token = p_token
         WHERE w.id = v_inbox;
    END IF;
    IF v_case IS NOT NULL THEN
        -- The first payload that opened (or re-occurred in) the case is its evidence.
        UPDATE public.reconciliation_cases c SET inbox_id = v_inbox
         WHERE c.id = v_case AND c.inbox_id IS NULL;
    END IF;
    outcome := v_result;
    billing_period_id := v_bp;
    error_code := v_error;
    case_id := v_case;
    local_state := v_state;
END;
$$;
