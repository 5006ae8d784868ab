REVOKE ALL ON FUNCTION public.statement_add_lines(bigint,jsonb)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.statement_add_lines(bigint,jsonb) TO renewal_operator;

-- Judges a batch of the statement's renewals: [{"line", "objectId", "objectSha256",
-- "outcome": "renewal"|"needs_snapshot"|"unreadable", "event": SuccessfulRenewalEvent JSON (no
-- "period" when needs_snapshot; for unreadable only the ids, the object as providerRenewalKey,
-- and "unreadable": {file, index, where, problem})}], and of its money back (#40): outcome
-- "money_back", "event" record_money_movements' (providerKey, providerEventId,
-- providerSubscriptionId, movements), recorded through it as a delivery's would be: matched
-- (recorded before), backfilled, differing (money_movement_conflict) or unapplied (its case).
-- Returns how many lines it wrote.
CREATE OR REPLACE FUNCTION public.statement_add_lines(p_run bigint, p_lines jsonb)
    RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    r public.statement_runs%ROWTYPE := public.rd_open_statement_run(p_run);
    l jsonb;
    e jsonb;
    s public.subscriptions%ROWTYPE;
    bp public.subscription_billing_periods%ROWTYPE;
    v_has_period boolean;
    v_recorded boolean;
    v_finding text;
    v_bp uuid;
    v_case bigint;
    v_open boolean;
    v_state jsonb;
    a record;
    v_attempt integer;
    v_count integer := 0;
    mv record;
    v_first jsonb;
BEGIN
    FOR l IN SELECT * FROM pg_catalog.jsonb_array_elements(p_lines) LOOP
        e := l->'event';
        IF e->>'providerKey' IS DISTINCT FROM r.provider_key THEN
            RAISE EXCEPTION 'line %: the renewal is of provider %, the statement of %',
                l->>'line', e->>'providerKey', r.provider_key USING ERRCODE = '22023';
        END IF;
        IF l->>'outcome' = 'money_back' THEN
            IF pg_catalog.jsonb_typeof(e->'movements') IS DISTINCT FROM 'array'
               OR pg_catalog.jsonb_array_length(e->'movements') = 0 THEN
                RAISE EXCEPTION 'line %: money back without movements', l->>'line'
                    USING ERRCODE = '22023';
            END IF;
            v_first := e->'movements'->0;
            SELECT * INTO mv
              FROM public.record_money_movements(e, 'statement', 'statement run ' || p_run);
            v_finding := CASE WHEN mv.result = 'recorded' THEN 'backfilled'
                              WHEN mv.result = 'duplicate' THEN 'matched'
                              WHEN mv.error_code = 'money_movement_conflict' THEN 'differing'
                              ELSE 'unapplied' END;
            -- The renewal it pays back, when one is recorded (a conflict's, too).
            v_bp := coalesce(mv.billing_period_id, (public.rd_renewal_named_by(r.provider_key,
                ARRAY(SELECT pg_catalog.jsonb_array_elements_text(v_first->'renewalRefs')))).id);
            IF mv.case_id IS NOT NULL THEN
                UPDATE public.reconciliation_cases c SET statement_run_id = p_run
                 WHERE c.id = mv.case_id AND c.statement_run_id IS NULL AND c.inbox_id IS NULL;
            END IF;
            INSERT INTO public.statement_lines (run_id, line_no, provider_renewal_key, finding,
                                                object_id, object_sha256, event,
                                                billing_period_id, case_id, money_back,
                                                occurred_at, money_movement_id)
            VALUES (p_run, (l->>'line')::integer, v_first->>'movementKey', v_finding,
                    l->>'objectId', l->>'objectSha256', e, v_bp, mv.case_id, true,
                    (v_first->>'occurredAt')::timestamptz,
                    (SELECT mm.id FROM public.money_movements mm
                      WHERE mm.provider_key = r.provider_key
                        AND mm.movement_key = v_first->>'movementKey'
                        AND mm.kind = v_first->>'kind'));
            v_count := v_count + 1;
            CONTINUE;
        END IF;
        v_has_period := coalesce(pg_catalog.jsonb_typeof(e->'period') = 'object', false);
        IF l->>'outcome' IS NULL
           OR l->>'outcome' NOT IN ('renewal', 'needs_snapshot', 'unreadable')
           OR (l->>'outcome' = 'renewal') IS DISTINCT FROM v_has_period
           OR (l->>'outcome' = 'unreadable')
              IS DISTINCT FROM coalesce(pg_catalog.jsonb_typeof(e->'unreadable') = 'object',
                                        false) THEN
            RAISE EXCEPTION 'line %: outcome % does not fit its event', l->>'line', l->>'outcome'
                USING ERRCODE = '22023';
        END IF;
        v_bp := NULL;
        v_case := NULL;
        -- The lock a delivery of this subscription takes first: from here this renewal is
        -- judged by this run alone.
        SELECT * INTO s FROM public.subscriptions x
         WHERE x.provider_key = r.provider_key
           AND x.provider_subscription_id = e->>'providerSubscriptionId'
           FOR UPDATE;
        SELECT * INTO bp FROM public.subscription_billing_periods b
         WHERE b.provider_key = r.provider_key
           AND b.provider_renewal_key = e->>'providerRenewalKey';
        v_recorded := FOUND;
        IF l->>'outcome' = 'unreadable' THEN
            -- The statement lists an object nobody could read: a person looks at it. What is
            -- recorded under its id (if anything) is shown beside it, never changed.
            v_finding := 'unreadable';
            v_bp := CASE WHEN v_recorded THEN bp.id END;
            v_state := CASE WHEN s.id IS NULL
                            THEN pg_catalog.jsonb_build_object('subscriptionId', NULL)
                            ELSE public.rd_subscription_state_json(s) END
                       || CASE WHEN v_recorded
                               THEN pg_catalog.jsonb_build_object('recordedBillingPeriod',
                                        public.rd_billing_period_json(bp))
                               ELSE '{}'::jsonb END;
            SELECT x.case_id, x.is_open INTO v_case, v_open
              FROM public.rd_statement_case(p_run, e, 'statement_object_unreadable', v_state) x;
        ELSIF v_recorded THEN
            v_bp := bp.id;
            IF bp.subscription_id IS NOT DISTINCT FROM s.id
               AND bp.paid_amount_minor = (e->>'paidAmountMinor')::bigint
               AND bp.currency = e->>'currency'
               AND (NOT v_has_period
                    OR (bp.period_start = (e->'period'->>'start')::timestamptz
                        AND bp.period_end = (e->'period'->>'end')::timestamptz)) THEN
                v_finding := 'matched';
                -- The payments the statement names it by (#40), for a renewal recorded
                -- without them (before 0049, or by a path that carried none); a refund that
                -- waits for one of them is recorded now. Only when one of them is not kept
                -- yet: refs are kept by the heal alone, which healed their waiting refunds then
                -- (a primary-key probe a ref, not a heal a matched line).
                IF EXISTS (SELECT 1
                             FROM pg_catalog.jsonb_array_elements_text(
                                      coalesce(e->'paymentRefs', '[]'::jsonb)) x(ref)
                            WHERE NOT EXISTS (SELECT 1 FROM public.billing_period_payment_refs p
                                               WHERE p.provider_key = r.provider_key
                                                 AND p.payment_ref = x.ref)) THEN
                    PERFORM public.rd_heal_money_back(r.provider_key, bp.id, e);
                END IF;
            ELSE
                v_finding := 'differing';
                v_state := CASE WHEN s.id IS NULL
                                THEN pg_catalog.jsonb_build_object('subscriptionId', NULL)
                                ELSE public.rd_subscription_state_json(s) END
                           || pg_catalog.jsonb_build_object(
                                  'conflictingBillingPeriod', public.rd_billing_period_json(bp));
                SELECT x.case_id, x.is_open INTO v_case, v_open
                  FROM public.rd_statement_case(p_run, e, 'statement_disagrees', v_state) x;
            END IF;
        ELSIF NOT v_has_period THEN
            -- Paid, but the statement does not say its period either (Lemon Squeezy): the
            -- case a delivery of it opens.
            v_finding := 'unapplied';
            v_case := public.record_reconciliation_case(e, 'needs_snapshot',
                CASE WHEN s.id IS NULL THEN pg_catalog.jsonb_build_object('subscriptionId', NULL)
                     ELSE public.rd_subscription_state_json(s) END);
        ELSE
            -- Missing here: the core decides, as for a delivery (ingest_delivery).
            v_attempt := 0;
            LOOP
                v_attempt := v_attempt + 1;
                a := public.apply_successful_renewal(
                         r.provider_key, e->>'providerEventId', e->>'providerSubscriptionId',
                         e->>'providerRenewalKey', e->>'providerVersion',
                         (e->'period'->>'start')::timestamptz,
                         (e->'period'->>'end')::timestamptz,
                         (e->>'paidAmountMinor')::bigint, e->>'currency',
                         (e->>'paidAt')::timestamptz, 'statement', 'statement run ' || p_run,
                         NULL);
                IF a.result = 'applied' THEN
                    v_finding := 'backfilled';
                    v_bp := a.billing_period_id;
                    -- The money back that waited for it (#40), as a delivery's renewal does.
                    PERFORM public.rd_heal_money_back(r.provider_key, v_bp, e);
                    EXIT;
                ELSIF a.result = 'duplicate' THEN
                    v_finding := 'matched';
                    v_bp := a.billing_period_id;
                    EXIT;
                END IF;
                v_case := public.record_reconciliation_case(e, a.error_code, a.local_state);
                IF v_case IS NOT NULL THEN
                    v_finding := 'unapplied';
                    EXIT;
                END IF;
                IF v_attempt >= 5 THEN
                    RAISE EXCEPTION 'renewal % kept changing between its rejection and its case',
                        e->>'providerRenewalKey' USING ERRCODE = '40001';
                END IF;
            END LOOP;
        END IF;
        IF v_case IS NOT NULL THEN
            UPDATE public.reconciliation_cases c SET statement_run_id = p_run
             WHERE c.id = v_case AND c.statement_run_id IS NULL AND c.inbox_id IS NULL;
        END IF;
        INSERT INTO public.statement_lines (run_id, line_no, provider_renewal_key, finding,
                                            object_id, object_sha256, event, billing_period_id,
                                            case_id)
        VALUES (p_run, (l->>'line')::integer, e->>'providerRenewalKey', v_finding,
                l->>'objectId', l->>'objectSha256', e, v_bp, v_case);
        v_count := v_count + 1;
    END LOOP;
    RETURN v_count;
END;
$$;
