REVOKE ALL ON FUNCTION public.record_money_movements(jsonb,text,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- Money back (#40): records a delivery's refunds, chargebacks and their reversals, each exactly
-- once, with one audit row in its subscription's chain and one outbox intent, or opens a case.
-- p_event: {providerKey, providerEventId, providerSubscriptionId (or null), movements: [{
-- movementKey, kind, amountMinor, currency, occurredAt, renewalRefs: [...], cumulativeMinor
-- (optional)}]}, a reversal after the movement it reverses. A refund with cumulativeMinor is a
-- running total refunded of its renewal, keyed on the renewal and the total (Lemon Squeezy has
-- no refund id): it records what the total adds to the refunds recorded, and nothing (a
-- duplicate) when a larger total came first. result: 'recorded' (one or more recorded now), 'duplicate' (all of
-- them recorded before) or 'rejected' (a case: case_id and error_code are the first one's).
-- Refused, never forced:
-- - refund_without_renewal: no recorded renewal has one of its renewalRefs (its renewal key, or
--   a payment ref the renewal's delivery carried); heals when the renewal arrives
--   (rd_heal_money_back);
-- - money_movement_conflict: the same movement recorded with another amount, currency or
--   renewal, a currency other than the renewal's, or a reversal of nothing recorded;
-- - refund_exceeds_payment: it would take the renewal's money back past what was paid.
-- A refused movement's reversals in the same event wait in its case with it.
CREATE OR REPLACE FUNCTION public.record_money_movements(p_event jsonb, p_actor_type text,
    p_actor_id text,
    OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT case_id bigint,
    OUT local_state jsonb)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_provider text := p_event->>'providerKey';
    m jsonb;
    v_key text;
    v_kind text;
    v_amount bigint;
    v_currency text;
    v_at timestamptz;
    v_refs text[];
    v_cumulative bigint;
    bp public.subscription_billing_periods%ROWTYPE;
    s public.subscriptions%ROWTYPE;
    v_existing public.money_movements%ROWTYPE;
    v_found boolean;
    v_new uuid;
    v_after_close boolean;
    v_error text;
    v_state jsonb;
    v_back bigint;
    v_case bigint;
    v_recorded integer := 0;
    v_refused text[] := '{}';
    v_recorded_by text := CASE WHEN p_actor_type IN ('operator', 'statement', 'cli')
                               THEN p_actor_type ELSE 'webhook' END;
BEGIN
    IF pg_catalog.jsonb_typeof(p_event->'movements') IS DISTINCT FROM 'array'
       OR pg_catalog.jsonb_array_length(p_event->'movements') = 0 THEN
        RAISE EXCEPTION 'record_money_movements: the event has no movements'
            USING ERRCODE = '22023';
    END IF;
    FOR m IN SELECT e.value FROM pg_catalog.jsonb_array_elements(p_event->'movements') e LOOP
        v_key := m->>'movementKey';
        v_kind := m->>'kind';
        v_amount := (m->>'amountMinor')::bigint;
        v_currency := m->>'currency';
        v_at := (m->>'occurredAt')::timestamptz;
        v_refs := ARRAY(SELECT pg_catalog.jsonb_array_elements_text(m->'renewalRefs'));
        -- A running total refunded (Lemon Squeezy): the movement is what it adds (below).
        v_cumulative := (m->>'cumulativeMinor')::bigint;
        IF v_cumulative IS NOT NULL AND (v_kind <> 'refund' OR v_cumulative <> v_amount) THEN
            RAISE EXCEPTION 'record_money_movements: a running total is a refund''s, and its '
                            'amount is the total' USING ERRCODE = '22023';
        END IF;
        IF v_key = ANY (v_refused) THEN
            CONTINUE; -- in the case of the movement it reverses
        END IF;
        v_error := NULL;
        s := NULL;

        -- 1. The renewal it pays back: by its renewal key, else by a payment ref. Not there,
        --    the refs' locks are taken and it is looked for again: a renewal that records one of
        --    them takes the same locks before it looks for the movements waiting for it
        --    (rd_heal_money_back), so that the one that commits second sees the other.
        bp := public.rd_renewal_named_by(v_provider, v_refs);
        IF bp.id IS NULL THEN
            PERFORM public.rd_lock_payment_refs(v_provider, v_refs);
            bp := public.rd_renewal_named_by(v_provider, v_refs);
        END IF;
        v_found := bp.id IS NOT NULL;

        IF NOT v_found THEN
            v_error := 'refund_without_renewal';
            v_state := pg_catalog.jsonb_build_object('subscriptionId', NULL);
        ELSE
            -- 2. Its subscription's row lock, as a renewal takes it: two deliveries of one
            --    refund, two refunds of one renewal, and a refund and a renewal queue here.
            SELECT * INTO s FROM public.subscriptions WHERE id = bp.subscription_id FOR UPDATE;
            -- The state a case would show is built only for a case (below): a recorded
            -- movement never needs it.
            v_state := '{}';
            SELECT * INTO v_existing FROM public.money_movements mm
             WHERE mm.provider_key = v_provider AND mm.movement_key = v_key
               AND mm.kind = v_kind;
            IF FOUND THEN
                -- A running total recorded before: its amount was what it added then.
                IF (v_existing.amount_minor = v_amount OR v_cumulative IS NOT NULL)
                   AND v_existing.currency = v_currency
                   AND v_existing.billing_period_id = bp.id THEN
                    billing_period_id := coalesce(billing_period_id, bp.id);
                    CONTINUE; -- recorded before: another event of the same movement
                END IF;
                v_error := 'money_movement_conflict';
                v_state := v_state || pg_catalog.jsonb_build_object('conflictingMovement',
                                                                    pg_catalog.to_jsonb(v_existing));
            ELSIF v_currency IS DISTINCT FROM bp.currency THEN
                v_error := 'money_movement_conflict';
            ELSIF v_kind IN ('refund_reversal', 'chargeback_reversal') AND NOT EXISTS (
                      SELECT 1 FROM public.money_movements mm
                       WHERE mm.provider_key = v_provider AND mm.movement_key = v_key
                         AND mm.kind = CASE v_kind WHEN 'refund_reversal' THEN 'refund'
                                                   ELSE 'chargeback' END) THEN
                v_error := 'money_movement_conflict';
            ELSE
                -- 3. A running total adds what it holds beyond the refunds recorded for the
                --    renewal (net of reversals), read under the subscription's lock: nothing
                --    when a larger total was recorded first.
                IF v_cumulative IS NOT NULL THEN
                    SELECT v_cumulative - coalesce(pg_catalog.sum(CASE mm.kind
                                                       WHEN 'refund' THEN mm.amount_minor
                                                       ELSE -mm.amount_minor END), 0)
                      INTO v_amount FROM public.money_movements mm
                     WHERE mm.billing_period_id = bp.id
                       AND mm.kind IN ('refund', 'refund_reversal');
                    IF v_amount <= 0 THEN
                        billing_period_id := coalesce(billing_period_id, bp.id);
                        CONTINUE;
                    END IF;
                END IF;
                --    Never past what was paid: the renewal's money back so far, net of
                --    reversals, read under the subscription's lock.
                SELECT coalesce(pg_catalog.sum(CASE WHEN mm.kind IN ('refund', 'chargeback')
                                                    THEN mm.amount_minor
                                                    ELSE -mm.amount_minor END), 0)
                  INTO v_back FROM public.money_movements mm WHERE mm.billing_period_id = bp.id;
                IF v_kind IN ('refund', 'chargeback')
                   AND v_back + v_amount > bp.paid_amount_minor THEN
                    v_error := 'refund_exceeds_payment';
                    v_state := v_state || pg_catalog.jsonb_build_object('moneyBackMinor', v_back);
                END IF;
            END IF;
        END IF;

        IF v_error IS NULL THEN
            -- 4. After close: its month's close and this movement queue on the table's lock
            --    (close_month takes it in SHARE mode), taken before the question is asked in a
            --    statement of its own: a close counts the movement, or the movement sees the
            --    close (0051).
            LOCK TABLE public.money_movements IN ROW EXCLUSIVE MODE;
            v_after_close := EXISTS (SELECT 1 FROM public.month_closes c
                                      WHERE c.provider_key = v_provider
                                        AND c.month = pg_catalog.date_trunc('month',
                                                          v_at AT TIME ZONE 'UTC')::date);
            -- 5. The movement, its audit row and its outbox intent: all or nothing.
            INSERT INTO public.money_movements AS mm
                (provider_key, movement_key, kind, subscription_id, billing_period_id,
                 amount_minor, currency, occurred_at, provider_event_id, recorded_by,
                 after_close)
            VALUES (v_provider, v_key, v_kind, s.id, bp.id, v_amount, v_currency, v_at,
                    p_event->>'providerEventId', v_recorded_by, v_after_close)
            RETURNING mm.id INTO v_new;
            INSERT INTO public.subscription_transition_audits
                (subscription_id, transition, billing_period_id, actor_type, actor_id,
                 provider_event_id, provider_renewal_key, details)
            VALUES (s.id, 'money_movement_recorded', bp.id,
                    p_actor_type,
                    p_actor_id, p_event->>'providerEventId', bp.provider_renewal_key,
                    pg_catalog.jsonb_build_object('movementId', v_new, 'movementKey', v_key,
                        'kind', v_kind, 'amountMinor', v_amount, 'currency', v_currency,
                        'occurredAt', public.rd_rfc3339(v_at)));
            INSERT INTO public.subscription_outbox (event_type, subscription_id,
                                                   billing_period_id, payload)
            VALUES (CASE v_kind WHEN 'refund' THEN 'refund.recorded'
                                WHEN 'refund_reversal' THEN 'refund.reversed'
                                WHEN 'chargeback' THEN 'dispute.funds_withdrawn'
                                ELSE 'dispute.funds_reinstated' END,
                    s.id, bp.id, pg_catalog.jsonb_build_object(
                        'type', v_kind, 'movementId', v_new, 'subscriptionId', s.id,
                        'providerKey', v_provider,
                        'providerSubscriptionId', s.provider_subscription_id,
                        'billingPeriodId', bp.id, 'providerRenewalKey', bp.provider_renewal_key,
                        'movementKey', v_key, 'amountMinor', v_amount, 'currency', v_currency,
                        'occurredAt', public.rd_rfc3339(v_at)));
            -- Its day's delta for the ledger's totals (0050): an insert, never an update.
            INSERT INTO public.money_back_deltas (day, provider_key, currency, kind, movements,
                                                  amount_minor)
            VALUES ((v_at AT TIME ZONE 'UTC')::date, v_provider, v_currency, v_kind, 1,
                    v_amount);
            v_recorded := v_recorded + 1;
            billing_period_id := coalesce(billing_period_id, bp.id);
        ELSE
            -- 6. A case about this movement (and its reversals in this event).
            v_refused := v_refused || v_key;
            IF v_found THEN
                v_state := public.rd_subscription_state_json(s)
                    || pg_catalog.jsonb_build_object('billingPeriod',
                                                     public.rd_billing_period_json(bp))
                    || v_state;
            END IF;
            v_case := public.rd_money_movement_case(
                p_event || pg_catalog.jsonb_build_object('movements', (
                    SELECT pg_catalog.jsonb_agg(e.value ORDER BY e.ordinality)
                      FROM pg_catalog.jsonb_array_elements(p_event->'movements')
                           WITH ORDINALITY e
                     WHERE e.value->>'movementKey' = v_key)),
                v_key, v_error, v_state, s);
            IF case_id IS NULL THEN
                case_id := v_case;
                error_code := v_error;
                local_state := v_state;
            END IF;
        END IF;
    END LOOP;
    result := CASE WHEN v_recorded > 0 THEN 'recorded'
                   WHEN case_id IS NOT NULL THEN 'rejected'
                   ELSE 'duplicate' END;
END;
$$;
