-- Previews take no number from the sequences users cite (#42, 12). A snapshot's preview and a
-- statement's dry run run the real functions and roll them back, and each case, snapshot and
-- statement run they inserted took its number from its identity's sequence, which a rollback
-- does not give back: the numbers users cite had gaps. In a preview (renewal_desk.preview set
-- in its transaction) those rows are numbered by rd_new_id from this sequence instead,
-- negative, so no real number is used; and a row so numbered can never be committed, whoever
-- set the setting.
CREATE SEQUENCE public.rd_preview_ids;

-- As functions/rd_refuse_preview_row.sql (the current definition): here for the triggers below.
CREATE FUNCTION public.rd_refuse_preview_row()
    RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION 'preview_kept: a preview''s % row (%) cannot be committed', TG_TABLE_NAME,
        NEW.id USING ERRCODE = 'check_violation';
END;
$$;
REVOKE ALL ON FUNCTION public.rd_refuse_preview_row()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- Deferred to the commit: a preview's rows live until its rollback; a commit refuses them.
CREATE CONSTRAINT TRIGGER reconciliation_cases_no_preview_kept
    AFTER INSERT ON public.reconciliation_cases DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.id < 0) EXECUTE FUNCTION public.rd_refuse_preview_row();
CREATE CONSTRAINT TRIGGER provider_snapshots_no_preview_kept
    AFTER INSERT ON public.provider_snapshots DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.id < 0) EXECUTE FUNCTION public.rd_refuse_preview_row();
CREATE CONSTRAINT TRIGGER statement_runs_no_preview_kept
    AFTER INSERT ON public.statement_runs DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.id < 0) EXECUTE FUNCTION public.rd_refuse_preview_row();
