-- Grants first, then the definition: CREATE OR REPLACE keeps them (docs/migrations.md).
REVOKE ALL ON FUNCTION public.reapply_case(bigint,text,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.reapply_case(bigint,text,text) TO renewal_operator;

-- The answer carries the subscription's state after the apply (and the healing it set off),
-- read in the same transaction, so that the desk says "period now ..." without a second query
-- that could see a later change.
CREATE OR REPLACE FUNCTION public.reapply_case(p_case_id bigint, p_reason text, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    r record;
    v_resolution text;
BEGIN
    PERFORM public.rd_require_reason(p_reason);
    c := public.rd_lock_open_case(p_case_id);
    IF jsonb_typeof(c.event->'movements') = 'array' THEN
        -- Money back (#40): the movement through the same function its delivery went through,
        -- as this operator: recorded (or found recorded), the case resolves; refused for the
        -- same reason, the case stays open with this occurrence. Refused for another reason,
        -- record_money_movements has opened a second case about it: nothing is kept, and the
        -- operator is told the new reason.
        SELECT CASE m.result WHEN 'recorded' THEN 'applied' ELSE m.result END AS result,
               m.billing_period_id, m.error_code, m.local_state, m.case_id
          INTO r FROM public.record_money_movements(c.event, 'operator', session_user) m;
        IF r.result = 'rejected' AND r.case_id IS DISTINCT FROM p_case_id THEN
            RAISE EXCEPTION 'case %''s money movement is refused now as %, not as %: nothing was changed',
                p_case_id, r.error_code, c.error_code USING ERRCODE = 'RD003';
        END IF;
    ELSIF jsonb_typeof(c.event->'period') IS DISTINCT FROM 'object' THEN
        RAISE EXCEPTION 'case % has no complete renewal to apply (%); attach a provider snapshot instead',
            p_case_id, c.error_code USING ERRCODE = 'RD003';
    ELSE
        -- The very same core the webhooks use, as this operator.
        SELECT * INTO r FROM public.rd_apply_case_event(c.event, 'operator', session_user);
    END IF;
    v_resolution := CASE r.result WHEN 'applied' THEN 'reapplied'
                                  WHEN 'duplicate' THEN 'already_applied' END;
    IF v_resolution IS NOT NULL THEN
        PERFORM public.rd_resolve_case(p_case_id, v_resolution, r.billing_period_id, p_comment,
                                       NULL);
    ELSE
        PERFORM public.rd_keep_case_open(p_case_id, r.error_code, r.local_state);
    END IF;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code,
        reason, comment, details, chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'reapply', r.result, r.error_code, p_reason, p_comment,
            jsonb_build_object('billingPeriodId', r.billing_period_id,
                               'localState', r.local_state),
            0, '', '');
    RETURN jsonb_build_object('caseId', p_case_id, 'result', r.result,
                              'resolution', v_resolution, 'error', r.error_code,
                              'billingPeriodId', r.billing_period_id,
                              'localState', r.local_state,
                              'subscriptionAfter', (
                                  SELECT public.rd_subscription_state_json(s)
                                    FROM public.subscriptions s
                                   WHERE s.provider_key = c.provider_key
                                     AND s.provider_subscription_id = c.provider_subscription_id));
END;
$$;
