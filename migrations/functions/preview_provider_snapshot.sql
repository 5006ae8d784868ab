REVOKE ALL ON FUNCTION public.preview_provider_snapshot(jsonb,bigint)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.preview_provider_snapshot(jsonb,bigint) TO renewal_operator;

-- What attaching would do, without doing it: the attach runs in a subtransaction that is
-- rolled back, so the preview is the real function's own judgment (refusals included).
-- Holds the subscription's and the case's row locks for the moment it runs, like the attach.
CREATE OR REPLACE FUNCTION public.preview_provider_snapshot(p_snapshot jsonb, p_case_id bigint)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    outcome text;
    state text;
    message text;
BEGIN
    BEGIN
        -- A preview's rows take no number users cite (rd_new_id, #42, 12); the setting goes
        -- with the subtransaction.
        PERFORM pg_catalog.set_config('renewal_desk.preview', 'on', true);
        -- The attach is always rolled back: its reason is never kept, but it must be one
        -- the list of operator reason codes accepts (0010).
        outcome := public.attach_provider_snapshot(p_snapshot, p_case_id, 'other', NULL)::text;
        RAISE EXCEPTION USING ERRCODE = 'RDPRV', MESSAGE = 'preview', DETAIL = outcome;
    EXCEPTION
        WHEN SQLSTATE 'RDPRV' THEN
            GET STACKED DIAGNOSTICS outcome = PG_EXCEPTION_DETAIL;
            RETURN jsonb_build_object('wouldBe', outcome::jsonb);
        WHEN SQLSTATE 'RD000' THEN -- the class of every refusal
            GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
            RETURN jsonb_build_object('refused', jsonb_build_object('sqlstate', state,
                                                                    'message', message));
    END;
END;
$$;
