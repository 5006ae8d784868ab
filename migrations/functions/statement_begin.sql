REVOKE ALL ON FUNCTION public.statement_begin(text,date,date,text,jsonb,integer,text,boolean)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.statement_begin(text,date,date,text,jsonb,integer,text,boolean) TO renewal_operator;

-- Begins a run. When this very statement (provider, days, files' digests) was imported before,
-- earlier_run names that run: the new run compares it again with today's ledger (a renewal
-- recorded since is a finding now) and says which run it repeats. p_completeness is how the
-- statement's completeness is known (statement_runs.completeness, migration 0041);
-- p_lists_money_back, that it holds every page of the kind's money back lists (0052).
-- Imports of one provider queue behind each other (rd_lock_provider_statements).
CREATE OR REPLACE FUNCTION public.statement_begin(p_provider_key text, p_from date, p_to date,
                                       p_statement_sha256 text, p_files jsonb,
                                       p_objects integer, p_completeness text DEFAULT NULL,
                                       p_lists_money_back boolean DEFAULT false,
                                       OUT run_id bigint, OUT earlier_run bigint)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    PERFORM public.rd_lock_provider_statements(p_provider_key);
    SELECT r.id INTO earlier_run FROM public.statement_runs r
     WHERE r.provider_key = p_provider_key AND r.covers_from = p_from AND r.covers_to = p_to
       AND r.statement_sha256 = p_statement_sha256 AND r.finished_at IS NOT NULL
     ORDER BY r.id DESC LIMIT 1;
    -- Numbered by rd_new_id: a dry run takes none of the run numbers users cite (#42, 12).
    INSERT INTO public.statement_runs (id, provider_key, covers_from, covers_to,
                                       statement_sha256, files, objects, completeness,
                                       repeats_run, lists_money_back)
    OVERRIDING SYSTEM VALUE
    VALUES (public.rd_new_id('public.statement_runs_id_seq'), p_provider_key, p_from, p_to, p_statement_sha256, p_files, p_objects,
            p_completeness, earlier_run, coalesce(p_lists_money_back, false))
    RETURNING id INTO run_id;
END;
$$;
