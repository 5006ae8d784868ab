REVOKE ALL ON FUNCTION public.rd_statement_run_finished()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- A run that began is finished before its transaction commits, or nothing of it commits.
CREATE OR REPLACE FUNCTION public.rd_statement_run_finished()
    RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.statement_runs r
                    WHERE r.id = NEW.id AND r.finished_at IS NOT NULL) THEN
        RAISE EXCEPTION 'statement run % was begun but not finished', NEW.id
            USING ERRCODE = 'RD014';
    END IF;
    RETURN NULL;
END;
$$;
