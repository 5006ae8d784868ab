REVOKE ALL ON FUNCTION public.rd_case_step_recorded_by(public.reconciliation_cases,public.reconciliation_case_history)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_case_step_recorded_by(public.reconciliation_cases,public.reconciliation_case_history) TO renewal_viewer;

CREATE OR REPLACE FUNCTION public.rd_case_step_recorded_by(p_case public.reconciliation_cases,
                                                p_step public.reconciliation_case_history)
    RETURNS text
    LANGUAGE sql STABLE
    SET search_path = pg_catalog, public, pg_temp
AS $$
    SELECT CASE
        WHEN p_step.action NOT IN ('opened', 'occurrence') THEN p_step.details->>'recordedBy'
        WHEN p_step.details ? 'recordedBy' THEN p_step.details->>'recordedBy'
        WHEN p_step.details ? 'statementRunId' THEN 'statement'
        WHEN EXISTS (SELECT 1 FROM public.statement_runs r
                      WHERE r.id = p_case.statement_run_id
                        AND r.started_at = p_step.created_at) THEN 'statement'
        ELSE 'webhook' END
$$;
