REVOKE ALL ON FUNCTION public.extend_access(text,text,timestamptz,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.extend_access(text,text,timestamptz,text) TO renewal_operator;

-- Payment trouble (#41): an operator extends a subscription's grace until p_until, with a
-- note (RD004 without one). It is in the audit chain (access_extended, the note as its
-- comment), settles the verdict at once (access.changed when it moves it), and ends by itself.
-- Refused (RD024): an end not after now or more than 90 days ahead, or a subscription whose
-- access has ended. RD023 for a subscription not known here. Returns the verdict now.
CREATE OR REPLACE FUNCTION public.extend_access(p_provider_key text,
    p_provider_subscription_id text, p_until timestamptz, p_note text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_note text := public.rd_note_text(p_note);
    s public.subscriptions%ROWTYPE;
    v record;
    v_override bigint;
BEGIN
    IF v_note IS NULL THEN
        RAISE EXCEPTION 'an extension of grace needs a note' USING ERRCODE = 'RD004';
    END IF;
    SELECT * INTO s FROM public.subscriptions x
     WHERE x.provider_key = p_provider_key AND x.provider_subscription_id = p_provider_subscription_id
       FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'subscription % of provider % is not known here',
            p_provider_subscription_id, p_provider_key USING ERRCODE = 'RD023';
    END IF;
    IF p_until IS NULL OR p_until <= pg_catalog.now()
       OR p_until > pg_catalog.now() + interval '90 days' THEN
        RAISE EXCEPTION 'grace can be extended to an instant after now and at most 90 days ahead'
            USING ERRCODE = 'RD024';
    END IF;
    v := public.rd_access_verdict(s.id, pg_catalog.now());
    IF v.verdict = 'ended' THEN
        RAISE EXCEPTION 'the access of subscription % has ended (%): there is no grace to extend',
            p_provider_subscription_id, v.reason USING ERRCODE = 'RD024';
    END IF;
    INSERT INTO public.access_overrides AS o (subscription_id, until, note)
    VALUES (s.id, p_until, v_note) RETURNING o.id INTO v_override;
    INSERT INTO public.subscription_transition_audits
        (subscription_id, transition, actor_type, actor_id, comment, details)
    VALUES (s.id, 'access_extended', 'operator', SESSION_USER, v_note,
            pg_catalog.jsonb_build_object('accessOverrideId', v_override,
                'until', public.rd_rfc3339(p_until)));
    PERFORM public.rd_access_settle(s.id, pg_catalog.now(), 'operator', SESSION_USER);
    RETURN public.access_verdict_json(p_provider_key, p_provider_subscription_id,
                                      pg_catalog.now());
END;
$$;
