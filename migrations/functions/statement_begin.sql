REVOKE ALL ON FUNCTION public.statement_begin(text,date,date,text,jsonb,integer)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.statement_begin(text,date,date,text,jsonb,integer) TO renewal_operator;

-- Begins a run, or finds that this very statement (provider, days, files' digests) was
-- imported already: then run_id is NULL and earlier_run names it, and nothing is written.
-- Imports of one provider queue behind each other (rd_lock_provider_statements), so two
-- imports of one statement cannot both begin.
CREATE OR REPLACE FUNCTION public.statement_begin(p_provider_key text, p_from date, p_to date,
                                       p_statement_sha256 text, p_files jsonb,
                                       p_objects integer,
                                       OUT run_id bigint, OUT earlier_run bigint)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    PERFORM public.rd_lock_provider_statements(p_provider_key);
    SELECT r.id INTO earlier_run FROM public.statement_runs r
     WHERE r.provider_key = p_provider_key AND r.covers_from = p_from AND r.covers_to = p_to
       AND r.statement_sha256 = p_statement_sha256 AND r.finished_at IS NOT NULL
     ORDER BY r.id LIMIT 1;
    IF FOUND THEN
        RETURN;
    END IF;
    INSERT INTO public.statement_runs (provider_key, covers_from, covers_to, statement_sha256,
                                       files, objects)
    VALUES (p_provider_key, p_from, p_to, p_statement_sha256, p_files, p_objects)
    RETURNING id INTO run_id;
END;
$$;
