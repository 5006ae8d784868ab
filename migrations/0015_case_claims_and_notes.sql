-- Support works the queue as a team: an operator claims a case ("assigned to me"), releases it,
-- and writes notes that are not actions. Each goes into the case's tamper-evident history
-- (the chain trigger of 0003 links it like every other entry), and only through these
-- SECURITY DEFINER functions: operators have no write privilege on the tables.

ALTER TABLE public.reconciliation_cases
    ADD COLUMN assigned_to text,
    ADD COLUMN assigned_at timestamptz,
    ADD CONSTRAINT reconciliation_cases_assignment_consistent
        CHECK ((assigned_to IS NULL) = (assigned_at IS NULL));

ALTER TABLE public.reconciliation_case_history
    DROP CONSTRAINT reconciliation_case_history_action_check,
    ADD CONSTRAINT reconciliation_case_history_action_check
        CHECK (action IN ('opened', 'occurrence', 'reapply', 'snapshot_attached', 'dismissed',
                          'reopened', 'claimed', 'released', 'noted'));

-- The queue's "mine" and "unassigned" views of the open cases, newest activity first.
CREATE INDEX reconciliation_cases_open_by_assignee
    ON public.reconciliation_cases (assigned_to, last_seen_at DESC, id) WHERE status = 'open';

-- Claims an open case for the calling login role. Taking over a case someone else holds needs
-- a note saying why; the history keeps whom it was taken from. Claiming one's own case again
-- changes nothing.
CREATE FUNCTION public.claim_case(p_case_id bigint, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    v_note text := nullif(btrim(p_comment), '');
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

-- Gives a claimed case back to the queue. Releasing someone else's claim needs a note.
CREATE FUNCTION public.release_case(p_case_id bigint, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    v_note text := nullif(btrim(p_comment), '');
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

-- A note on a case, open or closed: what support learned ("customer says the card was
-- charged twice"), not an action. It needs text.
CREATE FUNCTION public.note_case(p_case_id bigint, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_note text := nullif(btrim(p_comment), '');
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

REVOKE EXECUTE ON FUNCTION public.claim_case(bigint, text), public.release_case(bigint, text),
    public.note_case(bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.claim_case(bigint, text), public.release_case(bigint, text),
    public.note_case(bigint, text) TO renewal_operator;
