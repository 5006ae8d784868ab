REVOKE ALL ON FUNCTION public.rd_lock_open_case(bigint)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

CREATE OR REPLACE FUNCTION public.rd_lock_open_case(p_case_id bigint)
    RETURNS public.reconciliation_cases
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    v_text text;
BEGIN
    SELECT * INTO c FROM public.reconciliation_cases WHERE id = p_case_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'there is no case %', p_case_id USING ERRCODE = 'RD001';
    END IF;
    IF c.status <> 'open' THEN
        -- Built first: RAISE's format has no way to put two placeholders side by side.
        v_text := pg_catalog.format('case %s was already %s', p_case_id, c.status)
            || CASE WHEN c.resolution IS DISTINCT FROM c.status
                    THEN ' (' || c.resolution || ')' ELSE '' END
            || coalesce(' by ' || c.resolved_by, '')
            || coalesce(' at ' || public.rd_rfc3339(c.resolved_at), '')
            || CASE WHEN c.status = 'dismissed'
                    THEN '; reopen it (with a note saying why) to work it again' ELSE '' END;
        RAISE EXCEPTION '%', v_text
            USING ERRCODE = 'RD002';
    END IF;
    RETURN c;
END;
$$;
