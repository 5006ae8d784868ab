REVOKE ALL ON FUNCTION public.reopen_case(bigint,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.reopen_case(bigint,text) TO renewal_operator;

CREATE OR REPLACE FUNCTION public.reopen_case(p_case_id bigint, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    v_note text := public.rd_note_text(p_comment);
    v_refusal text;
BEGIN
    IF v_note IS NULL THEN
        RAISE EXCEPTION 'reopening a case needs a note saying why' USING ERRCODE = 'RD004';
    END IF;
    SELECT * INTO c FROM public.reconciliation_cases WHERE id = p_case_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'there is no case %', p_case_id USING ERRCODE = 'RD001';
    END IF;
    -- The refusals are rd_case_reopen_refusal's, which case_detail shows too (#42, 5).
    v_refusal := public.rd_case_reopen_refusal(c);
    IF v_refusal IS NOT NULL THEN
        RAISE EXCEPTION '%', v_refusal USING ERRCODE = 'RD016';
    END IF;
    -- One reopen of a renewal at a time: the checks again and the update then see the same
    -- open cases (a second reopen of the same renewal waits here, then finds this one open).
    PERFORM public.rd_take_work_lock(
        'reopen ' OPERATOR(pg_catalog.||) c.provider_key OPERATOR(pg_catalog.||) ' '
            OPERATOR(pg_catalog.||) c.provider_renewal_key,
        'another reopen of renewal ' OPERATOR(pg_catalog.||) c.provider_renewal_key);
    v_refusal := public.rd_case_reopen_refusal(c);
    IF v_refusal IS NOT NULL THEN
        RAISE EXCEPTION '%', v_refusal USING ERRCODE = 'RD016';
    END IF;
    BEGIN
        UPDATE public.reconciliation_cases
           SET status = 'open', resolution = NULL, resolved_at = NULL, resolved_by = NULL,
               resolution_comment = NULL
         WHERE id = p_case_id;
    EXCEPTION WHEN unique_violation THEN
        -- reconciliation_cases_open_once: the core opened a case for the same rejection of the
        -- same renewal after the check above.
        RAISE EXCEPTION 'another case is open for the same renewal (%): work that case instead of reopening case %',
            c.provider_renewal_key, p_case_id USING ERRCODE = 'RD016';
    END;
    -- The dismissal undone stays in the history (its own row, and here who and why).
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code, comment,
                                                   details, chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'reopened', 'open', c.error_code, v_note,
            pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                'dismissedBy', c.resolved_by,
                'dismissedAt', public.rd_rfc3339(c.resolved_at),
                'dismissalNote', c.resolution_comment)),
            0, '', '');
    RETURN pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
        'caseId', p_case_id, 'result', 'reopened', 'errorCode', c.error_code,
        'dismissedBy', c.resolved_by));
END;
$$;
