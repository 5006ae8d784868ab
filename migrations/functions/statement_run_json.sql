REVOKE ALL ON FUNCTION public.statement_run_json(bigint)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.statement_run_json(bigint) TO renewal_viewer;

-- A run's summary as JSON (the CLI's --json, the desk's Statements view).
CREATE OR REPLACE FUNCTION public.statement_run_json(p_run bigint)
    RETURNS jsonb
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
    RETURN (SELECT pg_catalog.jsonb_build_object(
                'runId', r.id, 'providerKey', r.provider_key,
                'from', r.covers_from, 'to', r.covers_to, 'statementSha256', r.statement_sha256,
                'files', r.files, 'objects', r.objects, 'importedBy', r.imported_by,
                'startedAt', public.rd_rfc3339(r.started_at),
                'finishedAt', public.rd_rfc3339(r.finished_at),
                'renewals', r.renewals, 'matched', r.matched, 'backfilled', r.backfilled,
                'unapplied', r.unapplied, 'differing', r.differing,
                'notInStatement', r.not_in_statement, 'cases', r.open_cases,
                'statementTotals', r.statement_totals, 'ledgerTotals', r.ledger_totals)
              FROM public.statement_runs r WHERE r.id = p_run);
