REVOKE ALL ON FUNCTION public.rd_new_id(regclass)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- The id of a new case, snapshot or statement run (#42, 12): the next of its identity's
-- sequence, as its default would give; in a preview (renewal_desk.preview 'on' in the
-- transaction: preview_provider_snapshot, a statement's dry run), a negative number of
-- rd_preview_ids instead, so that a preview rolled back leaves no gap in the numbers users
-- cite. Such a row is refused at a commit (rd_refuse_preview_row). The owner's: the functions
-- that insert those rows run as the owner.
CREATE OR REPLACE FUNCTION public.rd_new_id(p_sequence regclass)
    RETURNS bigint
    LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    IF pg_catalog.current_setting('renewal_desk.preview', true) = 'on' THEN
        RETURN -pg_catalog.nextval('public.rd_preview_ids');
    END IF;
    RETURN pg_catalog.nextval(p_sequence);
END;
$$;
