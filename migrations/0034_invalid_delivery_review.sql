-- Invalid deliveries get a workflow (#28, item 23). A delivery whose payload cannot be read
-- opens no case: before this, nothing asked anybody to look at it. Now the Overview counts the
-- invalid deliveries nobody has reviewed, and an operator either marks one reviewed with a
-- note saying why nothing more is to be done (a test payload, a provider's bug they were told
-- about), or re-runs it through the ingest path after an adapter fix (`renewalctl replay
-- --delivery N`, the desk's Re-run), which marks it reviewed with what the re-run made of it.
--
-- The review is a row written once in webhook_inbox_reviews: who (the connection's login
-- role, never a typed name), when, and the note. The inbox row itself stays as it was
-- received: its bytes, outcome and error are the evidence of what the adapter did then.
-- Nobody but the owner writes the table; review_invalid_delivery is the one way in.

CREATE TABLE public.webhook_inbox_reviews (
    inbox_id    bigint PRIMARY KEY REFERENCES public.webhook_inbox (id),
    reviewed_by text NOT NULL DEFAULT session_user,
    reviewed_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
    note        text NOT NULL CHECK (public.rd_note_text(note) IS NOT NULL),
    -- The delivery a re-run made of it, when the re-run wrote a new inbox row.
    rerun_inbox_id bigint REFERENCES public.webhook_inbox (id)
);
REVOKE ALL ON public.webhook_inbox_reviews FROM PUBLIC;
GRANT SELECT ON public.webhook_inbox_reviews TO renewal_viewer;

-- The Overview's count and the Inbox's "invalid, to review" filter read the invalid rows
-- through webhook_inbox_by_outcome and probe this table's primary key for each.

CREATE FUNCTION public.review_invalid_delivery(
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
REVOKE ALL ON FUNCTION public.review_invalid_delivery(bigint, text, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.review_invalid_delivery(bigint, text, bigint)
    TO renewal_operator;

-- Whether a publisher is running (#28, item 11): the desk says "publisher running" when a
-- session named 'renewalctl outbox publish' (the publisher sets its application_name) is
-- connected, and otherwise how long ago an intent was last published: max(published_at),
-- one probe of this index instead of a scan of every intent ever published. The publish
-- update was not HOT before (it leaves subscription_outbox_pending): one more entry.
CREATE INDEX subscription_outbox_published
    ON public.subscription_outbox (published_at) WHERE published_at IS NOT NULL;
