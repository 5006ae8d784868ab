REVOKE ALL ON FUNCTION public.review_invalid_delivery(bigint,text,bigint)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.review_invalid_delivery(bigint,text,bigint) TO renewal_operator;

CREATE OR REPLACE FUNCTION public.review_invalid_delivery(
    p_inbox_id bigint, p_note text, p_rerun_inbox_id bigint DEFAULT NULL)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_outcome text;
    v_by text;
    v_at timestamptz;
    -- Stored as every operator note is (0027): rd_note_text's form of it.
    v_note text := public.rd_note_text(p_note);
BEGIN
    IF v_note IS NULL THEN
        RAISE EXCEPTION 'marking a delivery reviewed needs a note saying why nothing more is to be done'
            USING ERRCODE = 'RD004';
    END IF;
    -- The row lock orders two reviews of one delivery: the second sees the first.
    SELECT w.outcome INTO v_outcome FROM public.webhook_inbox w WHERE w.id = p_inbox_id
       FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'there is no delivery %', p_inbox_id USING ERRCODE = 'RD017';
    END IF;
    IF v_outcome IS DISTINCT FROM 'invalid' THEN
        RAISE EXCEPTION 'delivery % is not invalid (its outcome is %): only invalid deliveries are reviewed',
            p_inbox_id, coalesce(v_outcome, 'not processed yet') USING ERRCODE = 'RD018';
    END IF;
    SELECT r.reviewed_by, r.reviewed_at INTO v_by, v_at
      FROM public.webhook_inbox_reviews r WHERE r.inbox_id = p_inbox_id;
    IF FOUND THEN
        RAISE EXCEPTION 'delivery % was already reviewed by % at %', p_inbox_id, v_by,
            public.rd_rfc3339(v_at) USING ERRCODE = 'RD019';
    END IF;
    IF p_rerun_inbox_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM public.webhook_inbox w WHERE w.id = p_rerun_inbox_id
           AND w.id <> p_inbox_id) THEN
        RAISE EXCEPTION 'there is no delivery % that re-ran delivery %', p_rerun_inbox_id,
            p_inbox_id USING ERRCODE = 'RD017';
    END IF;
    INSERT INTO public.webhook_inbox_reviews (inbox_id, note, rerun_inbox_id)
    VALUES (p_inbox_id, v_note, p_rerun_inbox_id);
    RETURN pg_catalog.jsonb_build_object('inboxId', p_inbox_id, 'result', 'reviewed',
        'reviewedBy', session_user::text);
END;
$$;
