REVOKE ALL ON FUNCTION public.rd_refuse_preview_row()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- The deferred triggers of migration 0056: a row numbered for a preview (rd_new_id, a negative
-- id) is refused at the commit; a preview is always rolled back before.
CREATE OR REPLACE FUNCTION public.rd_refuse_preview_row()
    RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION 'preview_kept: a preview''s % row (%) cannot be committed', TG_TABLE_NAME,
        NEW.id USING ERRCODE = 'check_violation';
END;
$$;
