REVOKE ALL ON FUNCTION public.month_close_report(text,date)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.month_close_report(text,date) TO renewal_viewer;

-- A close with its findings, for the close report (`renewalctl close --csv`, the desk's PDF and
-- CSV): the close's row as close_month returns it, plus "findings": every line of the newest
-- covering run paid in the month, and the lines of older covering runs that carry a case,
-- each with its case's status, resolution, who and note; "statementCompleteness" says how each
-- run knew it had every page (migration 0041: fetched, manifest, stated by the operator with
-- --pages-complete, null before 0041). Money back (0051): "moneyBackTotals", the month's by each
-- movement's own date; "afterCloseTotals" and "afterClose", the movements recorded after their
-- own month's close that this close counted, each with its renewal; all null for a close made
-- before 0051. NULL when the month is not closed.
CREATE OR REPLACE FUNCTION public.month_close_report(p_provider_key text, p_month date)
    RETURNS jsonb
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
    RETURN (
        SELECT pg_catalog.jsonb_build_object(
            'closeId', c.id, 'providerKey', c.provider_key,
            'month', pg_catalog.to_char(c.month, 'YYYY-MM'), 'closedBy', c.closed_by,
            'closedAt', public.rd_rfc3339(c.closed_at),
            'statementRunIds', pg_catalog.to_jsonb(c.statement_run_ids),
            'statementSha256s', pg_catalog.to_jsonb(c.statement_sha256s),
            'statementCompleteness', (
                SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                           'runId', r.id, 'completeness', r.completeness) ORDER BY r.id)
                  FROM public.statement_runs r WHERE r.id = ANY (c.statement_run_ids)),
            'statementTotals', c.statement_totals, 'ledgerTotals', c.ledger_totals,
            'matched', c.matched, 'backfilled', c.backfilled, 'unapplied', c.unapplied,
            'differing', c.differing, 'notInStatement', c.not_in_statement,
            'casesResolved', c.cases_resolved, 'casesDismissed', c.cases_dismissed,
            'auditAnchorDigest', c.audit_anchor_digest,
            'auditAnchorHeads', c.audit_anchor_heads,
            'moneyBackTotals', c.money_back_totals, 'afterCloseTotals', c.after_close_totals,
            'afterClose', CASE WHEN c.after_close_movement_ids IS NOT NULL THEN (
                SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                           'movementKey', m.movement_key, 'kind', m.kind,
                           'amountMinor', m.amount_minor, 'currency', m.currency,
                           'occurredAt', public.rd_rfc3339(m.occurred_at),
                           'recordedAt', public.rd_rfc3339(m.created_at),
                           'renewalKey', b.provider_renewal_key,
                           'subscription', s.provider_subscription_id)
                           ORDER BY m.occurred_at, m.id), '[]'::jsonb)
                  FROM public.money_movements m
                  JOIN public.subscription_billing_periods b ON b.id = m.billing_period_id
                  JOIN public.subscriptions s ON s.id = m.subscription_id
                 WHERE m.id = ANY (c.after_close_movement_ids)) END,
            'findings', coalesce((
                SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                           'runId', l.run_id, 'line', l.line_no,
                           'renewalKey', l.provider_renewal_key, 'finding', l.finding,
                           'subscription', coalesce(l.event->>'providerSubscriptionId',
                                                    s.provider_subscription_id),
                           -- A money back line (0052): its movement's amount and own date.
                           'amountMinor', CASE WHEN l.money_back
                               THEN coalesce((l.event->'movements'->0->>'amountMinor')::bigint,
                                             mv.amount_minor)
                               ELSE coalesce((l.event->>'paidAmountMinor')::bigint,
                                             b.paid_amount_minor) END,
                           'currency', CASE WHEN l.money_back
                               THEN coalesce(l.event->'movements'->0->>'currency', mv.currency)
                               ELSE coalesce(l.event->>'currency', b.currency) END,
                           'paidAt', CASE WHEN l.money_back THEN public.rd_rfc3339(l.occurred_at)
                               ELSE coalesce(l.event->>'paidAt',
                                             public.rd_rfc3339(b.paid_at)) END,
                           'moneyBack', CASE WHEN l.money_back
                               THEN coalesce(l.event->'movements'->0->>'kind', mv.kind) END,
                           'caseId', l.case_id, 'caseStatus', k.status,
                           'caseReason', k.error_code, 'resolution', k.resolution,
                           'resolvedBy', k.resolved_by,
                           'resolvedAt', public.rd_rfc3339(k.resolved_at),
                           'note', k.resolution_comment)
                           ORDER BY l.run_id DESC, l.line_no)
                  FROM public.statement_runs r
                  JOIN public.statement_lines l ON l.run_id = r.id
                  LEFT JOIN public.subscription_billing_periods b ON b.id = l.billing_period_id
                  LEFT JOIN public.subscriptions s ON s.id = b.subscription_id
                  LEFT JOIN public.reconciliation_cases k ON k.id = l.case_id
                  LEFT JOIN public.money_movements mv ON mv.id = l.money_movement_id
                 WHERE r.id = ANY (c.statement_run_ids)
                   AND (r.id = c.statement_run_ids[pg_catalog.cardinality(c.statement_run_ids)]
                        OR l.case_id IS NOT NULL)
                   AND (l.finding = 'unreadable'
                        OR (CASE WHEN l.money_back THEN l.occurred_at
                                 ELSE coalesce((l.event->>'paidAt')::timestamptz, b.paid_at) END
                                >= c.month::timestamp AT TIME ZONE 'UTC'
                            AND CASE WHEN l.money_back THEN l.occurred_at
                                     ELSE coalesce((l.event->>'paidAt')::timestamptz,
                                                   b.paid_at) END
                                < (c.month + interval '1 month')::timestamp AT TIME ZONE 'UTC'))),
                '[]'::jsonb))
          FROM public.month_closes c
         WHERE c.provider_key = p_provider_key AND c.month = p_month);
