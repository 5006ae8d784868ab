REVOKE ALL ON FUNCTION public.release_case(bigint,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.release_case(bigint,text) TO renewal_operator;

CREATE OR REPLACE FUNCTION public.release_case(p_case_id bigint, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    v_note text := public.rd_note_text(p_comment);
BEGIN
    c := public.rd_lock_open_case(p_case_id);
    IF c.assigned_to IS NULL THEN
        RETURN jsonb_build_object('caseId', p_case_id, 'result', 'not_claimed');
    END IF;
    IF c.assigned_to <> session_user AND v_note IS NULL THEN
        RAISE EXCEPTION 'case % is claimed by %: releasing it needs a note saying why',
            p_case_id, c.assigned_to USING ERRCODE = 'RD004';
    END IF;
    UPDATE public.reconciliation_cases
       SET assigned_to = NULL, assigned_at = NULL
     WHERE id = p_case_id;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, comment, details,
                                                    chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'released', 'released', v_note,
            jsonb_build_object('releasedFrom', c.assigned_to), 0, '', '');
    RETURN jsonb_build_object('caseId', p_case_id, 'result', 'released',
                              'releasedFrom', c.assigned_to);
END;
$$;
