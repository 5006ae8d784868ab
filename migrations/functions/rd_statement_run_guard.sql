REVOKE ALL ON FUNCTION public.rd_statement_run_guard()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- Lines never change; a run changes once, from begun to finished, in the transaction that
-- began it (the functions below), and never after.
CREATE OR REPLACE FUNCTION public.rd_statement_run_guard()
    RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'statement_runs' THEN
        IF OLD.finished_at IS NULL AND NEW.finished_at IS NOT NULL
           AND OLD.begun_in = pg_catalog.pg_current_xact_id() AND NEW.id = OLD.id
           AND NEW.provider_key = OLD.provider_key AND NEW.covers_from = OLD.covers_from
           AND NEW.covers_to = OLD.covers_to AND NEW.statement_sha256 = OLD.statement_sha256
           AND NEW.files = OLD.files AND NEW.objects = OLD.objects
           AND NEW.imported_by = OLD.imported_by AND NEW.started_at = OLD.started_at
           AND NEW.begun_in = OLD.begun_in
           AND NEW.completeness IS NOT DISTINCT FROM OLD.completeness
           AND NEW.repeats_run IS NOT DISTINCT FROM OLD.repeats_run THEN
            RETURN NEW;
        END IF;
    END IF;
    RAISE EXCEPTION '% rows are written once (% refused)', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'RD014';
END;
$$;
