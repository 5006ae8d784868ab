REVOKE ALL ON FUNCTION public.rd_open_statement_run(bigint)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- The run this transaction began and has not finished; RD014 otherwise.
CREATE OR REPLACE FUNCTION public.rd_open_statement_run(p_run bigint)
    RETURNS public.statement_runs
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    r public.statement_runs%ROWTYPE;
BEGIN
    SELECT * INTO r FROM public.statement_runs sr WHERE sr.id = p_run FOR UPDATE;
    IF NOT FOUND OR r.finished_at IS NOT NULL
       OR r.begun_in <> pg_catalog.pg_current_xact_id() THEN
        RAISE EXCEPTION 'statement run % is not open in this transaction', p_run
            USING ERRCODE = 'RD014';
    END IF;
    RETURN r;
END;
$$;
