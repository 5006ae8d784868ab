REVOKE ALL ON FUNCTION public.claim_case(bigint,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.claim_case(bigint,text) TO renewal_operator;

-- As 0015's, with rd_note_text for nullif(btrim(...)).
CREATE OR REPLACE FUNCTION public.claim_case(p_case_id bigint, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    v_note text := public.rd_note_text(p_comment);
BEGIN
    c := public.rd_lock_open_case(p_case_id);
    IF c.assigned_to = session_user THEN
        RETURN jsonb_build_object('caseId', p_case_id, 'result', 'already_yours',
                                  'assignedTo', c.assigned_to);
    END IF;
    IF c.assigned_to IS NOT NULL AND v_note IS NULL THEN
        RAISE EXCEPTION 'case % is claimed by %: taking it over needs a note saying why',
            p_case_id, c.assigned_to USING ERRCODE = 'RD004';
    END IF;
    UPDATE public.reconciliation_cases
       SET assigned_to = session_user, assigned_at = now()
     WHERE id = p_case_id;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, comment, details,
                                                    chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'claimed', 'claimed', v_note,
            jsonb_strip_nulls(jsonb_build_object('takenFrom', c.assigned_to)), 0, '', '');
    RETURN jsonb_strip_nulls(jsonb_build_object('caseId', p_case_id, 'result', 'claimed',
                                                'assignedTo', session_user,
                                                'takenFrom', c.assigned_to));
END;
$$;
