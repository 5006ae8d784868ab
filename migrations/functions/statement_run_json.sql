REVOKE ALL ON FUNCTION public.statement_run_json(bigint)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.statement_run_json(bigint) TO renewal_viewer;

-- A run's summary as JSON (the CLI's --json, the desk's Statements view). "completeness" is how
-- the run knows it has every page (migration 0041; null before it); "repeats" the earlier run
-- of the same statement it compared again; "closedMonths" the months of its days that were
-- closed for the provider before it began, and "backfilledAfterClose" how many of its
-- backfills were paid in such a month: the Ledger marks each "after close" by the same rule
-- (the month's close is older than the billing period). "unreadable" counts the objects the
-- reader could not read, each a finding with its case (migration 0048). "listsMoneyBack" and
-- "moneyBack" (0052): whether it holds every money back list, and its money back findings and
-- both sides' sums per currency (null before 0052); the renewal counts leave money back out.
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
                'unreadable', (SELECT pg_catalog.count(*) FROM public.statement_lines l
                                WHERE l.run_id = r.id AND l.finding = 'unreadable'),
                'statementTotals', r.statement_totals, 'ledgerTotals', r.ledger_totals,
                'completeness', r.completeness,
                'listsMoneyBack', r.lists_money_back, 'moneyBack', r.money_back,
                'repeats', (SELECT pg_catalog.jsonb_build_object(
                                'runId', e.id, 'importedBy', e.imported_by,
                                'finishedAt', public.rd_rfc3339(e.finished_at))
                              FROM public.statement_runs e WHERE e.id = r.repeats_run),
                'closedMonths', coalesce((
                    SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                               'month', pg_catalog.to_char(mc.month, 'YYYY-MM'),
                               'closedBy', mc.closed_by,
                               'closedAt', public.rd_rfc3339(mc.closed_at)) ORDER BY mc.month)
                      FROM public.month_closes mc
                     WHERE mc.provider_key = r.provider_key
                       AND mc.month >= pg_catalog.date_trunc('month', r.covers_from::timestamp)::date
                       AND mc.month <= r.covers_to AND mc.closed_at < r.started_at), '[]'),
                'backfilledAfterClose', (
                    SELECT pg_catalog.count(*)
                      FROM public.statement_lines l
                      JOIN public.subscription_billing_periods b ON b.id = l.billing_period_id
                     WHERE l.run_id = r.id AND l.finding = 'backfilled'
                       AND EXISTS (SELECT 1 FROM public.month_closes mc
                                    WHERE mc.provider_key = b.provider_key
                                      AND mc.month = pg_catalog.date_trunc('month',
                                                         b.paid_at AT TIME ZONE 'UTC')::date
                                      AND mc.closed_at < b.created_at)))
              FROM public.statement_runs r WHERE r.id = p_run);
