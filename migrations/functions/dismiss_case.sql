REVOKE ALL ON FUNCTION public.dismiss_case(bigint,text,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.dismiss_case(bigint,text,text) TO renewal_operator;

-- As 0009's; the note stored is the one given, as before, once it has something to read.
CREATE OR REPLACE FUNCTION public.dismiss_case(p_case_id bigint, p_reason text, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    PERFORM public.rd_require_reason(p_reason);
    IF public.rd_note_text(p_comment) IS NULL THEN
        RAISE EXCEPTION 'dismissing a case needs a note saying why'
            USING ERRCODE = 'RD004';
    END IF;
    PERFORM public.rd_lock_open_case(p_case_id);
    UPDATE public.reconciliation_cases
       SET status = 'dismissed', resolution = 'dismissed', resolved_at = now(),
           resolved_by = session_user, resolution_comment = p_comment
     WHERE id = p_case_id;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, reason, comment,
                                             chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'dismissed', 'dismissed', p_reason, p_comment, 0, '', '');
    RETURN jsonb_build_object('caseId', p_case_id, 'result', 'dismissed');
END;
$$;
