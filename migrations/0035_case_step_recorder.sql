-- Who handed a case's renewal in, said once for the desk and the CLI (#28, item 3).
--
-- 0032 records 'cli' in the history of a case `renewalctl apply` opens. A statement import
-- (0029) opens cases two ways and neither names its recorder in the step it writes: a finding
-- of its own (statement_disagrees, not_in_statement) carries the run in its details; a renewal
-- the core refused goes through record_reconciliation_case like a delivery. Such a case is
-- linked to its run in the same transaction, and the run and the step both carry that
-- transaction's now(): a step written when its case's run started was written by that run.
-- Derived when read, so that the stored steps and their hashes stay as they are.

CREATE FUNCTION public.rd_case_step_recorded_by(p_case public.reconciliation_cases,
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
REVOKE ALL ON FUNCTION public.rd_case_step_recorded_by(public.reconciliation_cases,
                                                       public.reconciliation_case_history)
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.rd_case_step_recorded_by(public.reconciliation_cases,
                                                          public.reconciliation_case_history)
    TO renewal_viewer;
