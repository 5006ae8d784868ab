REVOKE ALL ON FUNCTION public.rd_settle_waiting_case(bigint,text,uuid,text,jsonb,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- Closes (or keeps open) a waiting case whose renewal step 9 just judged, with its history.
CREATE OR REPLACE FUNCTION public.rd_settle_waiting_case(p_case_id bigint, p_result text,
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
