REVOKE ALL ON FUNCTION public.note_case(bigint,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.note_case(bigint,text) TO renewal_operator;

CREATE OR REPLACE FUNCTION public.note_case(p_case_id bigint, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_note text := public.rd_note_text(p_comment);
BEGIN
    IF v_note IS NULL THEN
        RAISE EXCEPTION 'a note needs text' USING ERRCODE = 'RD004';
    END IF;
    -- The row lock orders the note among the case's other history entries.
    PERFORM 1 FROM public.reconciliation_cases WHERE id = p_case_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'there is no case %', p_case_id USING ERRCODE = 'RD001';
    END IF;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, comment,
                                                    chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'noted', 'noted', v_note, 0, '', '');
    RETURN jsonb_build_object('caseId', p_case_id, 'result', 'noted');
END;
$$;
