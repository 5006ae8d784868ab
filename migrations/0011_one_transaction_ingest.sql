-- One transaction per delivery. Until now a webhook delivery took three or four commits (the
-- inbox row, the renewal core, the case when rejected, the outcome), each a round trip and a
-- WAL flush, and a crash between them left an inbox row without outcome. ingest_delivery does
-- all of it in one statement, called in autocommit: one round trip, one commit.
--
-- The older functions (ingest_record, ingest_set_outcome, ingest_open_snapshot_case) stay for
-- older clients; a row such a client left without outcome is processed by the next delivery
-- of its event id, as before.

-- The id the delivering call chose for its attempt (also the id its billing period gets).
-- A client whose connection dropped looks its row up by (provider_key, provider_event_id) and
-- this token: only its own commit can have written it, so a concurrent delivery of the same
-- event that committed first is never taken for its own.
ALTER TABLE public.webhook_inbox ADD COLUMN ingest_token uuid;

-- Records one delivery and processes it, in the caller's one transaction:
--  1. the inbox row (deduplicated by provider event id; a known one counts one more
--     delivery). A row that already has an outcome: 'duplicate_delivery' with the stored
--     billing period and case, nothing else happens;
--  2. p_event NULL: the outcome normalization already knew (p_outcome: 'invalid',
--     'not_a_renewal', or 'needs_snapshot' when the adapter could not tell which renewal)
--     is stored with the row;
--  3. p_outcome 'needs_snapshot' with p_event: the needs_snapshot case, judged against the
--     subscription as it is now (as ingest_open_snapshot_case does);
--  4. p_outcome NULL: a renewal, through the core (actor webhook/<provider key>); a rejection
--     becomes a case, judged again under the row lock; when it is no longer rejected then
--     (it became applicable, or another delivery recorded it, between the verdict and the
--     case) it goes through the core again, a bounded number of times.
-- Deliveries of one event id serialize on the inbox row: the INSERT's ON CONFLICT waits for the
-- first one's commit. Not on an advisory lock of the event id, which would let the new row be
-- written once with its outcome instead of inserted and then updated (measured: 17 % less WAL
-- per delivery, no throughput difference visible on a shared 2-core machine): any login role,
-- a viewer too, may take an advisory lock and hold the deliveries of an event id it can read in
-- the inbox; the row's lock needs a privilege only the owner has.
-- p_token is the client's id for this attempt; it is the billing period's id if one is
-- written, and it is kept on the inbox row (see ingest_token).
CREATE FUNCTION public.ingest_delivery(
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
BEGIN
    IF p_event IS NULL AND p_outcome IS NULL THEN
        RAISE EXCEPTION 'ingest_delivery: a renewal needs its event' USING ERRCODE = '22023';
    END IF;
    INSERT INTO public.webhook_inbox AS w (provider_key, provider_event_id, raw_body, body_size,
                                           body_sha256, outcome, reason, error, normalized,
                                           processed_at, ingest_token)
    VALUES (p_provider_key, p_provider_event_id, p_raw_body, p_body_size, p_body_sha256,
            CASE WHEN v_final THEN p_outcome END, p_reason,
            CASE WHEN v_final THEN p_error END, p_normalized,
            CASE WHEN v_final THEN pg_catalog.now() END, p_token)
    ON CONFLICT (provider_key, provider_event_id)
    DO UPDATE SET deliveries = w.deliveries + 1, last_delivery_at = pg_catalog.now()
    RETURNING w.id, (w.xmax OPERATOR(pg_catalog.=) 0), w.outcome,
              w.billing_period_id, w.case_id
         INTO v_inbox, v_is_new, v_stored, v_bp, v_case;
    inbox_id := v_inbox;

    IF v_stored IS NOT NULL AND NOT v_is_new THEN
        -- Transport-level duplicate: the first delivery's outcome stands.
        outcome := 'duplicate_delivery';
        billing_period_id := v_bp;
        case_id := v_case;
        RETURN;
    END IF;
    IF v_final AND v_is_new THEN
        outcome := p_outcome;
        error_code := p_error;
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

    UPDATE public.webhook_inbox w
       SET outcome = v_result, error = v_error, billing_period_id = v_bp, case_id = v_case,
           processed_at = pg_catalog.now(), ingest_token = p_token
     WHERE w.id = v_inbox;
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

REVOKE EXECUTE ON FUNCTION
    public.ingest_delivery(text, text, bytea, bigint, text, text, text, text, jsonb, jsonb, uuid)
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION
    public.ingest_delivery(text, text, bytea, bigint, text, text, text, text, jsonb, jsonb, uuid)
    TO renewal_ingest;
