REVOKE ALL ON FUNCTION public.set_inbox_retention(integer)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- The owner's: the retention is the organisation's policy, not an operator's choice.
CREATE OR REPLACE FUNCTION public.set_inbox_retention(p_days integer) RETURNS jsonb
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    IF p_days IS NOT NULL AND (p_days < 0 OR p_days > 36500) THEN
        RAISE EXCEPTION 'a retention is 0 to 36500 days, not %', p_days USING ERRCODE = '22023';
    END IF;
    UPDATE public.inbox_retention
       SET days = p_days, set_by = session_user, set_at = pg_catalog.now();
    RETURN pg_catalog.jsonb_build_object('retentionDays', p_days, 'setBy', session_user::text);
END;
$$;
