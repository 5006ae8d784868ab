REVOKE ALL ON FUNCTION public.close_month(text,date)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.close_month(text,date) TO renewal_operator;

-- Closes the month, or refuses with RD015 and month_close_refusal's sentence. Returns the
-- close as JSON (what `renewalctl close --json` prints).
CREATE OR REPLACE FUNCTION public.close_month(p_provider_key text, p_month date)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_why text;
    v_lo timestamptz := p_month::timestamp AT TIME ZONE 'UTC';
    v_hi timestamptz := (p_month + interval '1 month')::timestamp AT TIME ZONE 'UTC';
    v_runs bigint[];
    v_shas text[];
    v_newest bigint;
    v_after uuid[];
    c public.month_closes%ROWTYPE;
BEGIN
    -- The provider's statement imports' lock (statement_begin): an import commits wholly
    -- before the close reads, or begins after it; two closes of one provider queue here too.
    PERFORM public.rd_lock_provider_statements(p_provider_key);
    v_why := public.month_close_refusal(p_provider_key, p_month);
    IF v_why IS NOT NULL THEN
        RAISE EXCEPTION '%', v_why USING ERRCODE = 'RD015';
    END IF;
    -- Money back (0051): the table's SHARE lock waits for the movements being recorded and
    -- holds new ones until this close commits (record_money_movements takes ROW EXCLUSIVE
    -- before it asks whether the month is closed): a movement of the month is counted here or
    -- sees the close and is after close, never neither. Every provider's movements wait, for
    -- the moment a close takes.
    LOCK TABLE public.money_movements IN SHARE MODE;
    -- The movements recorded after their own month's close that no close has counted: this
    -- one counts and lists them.
    v_after := ARRAY(SELECT m.id FROM public.money_movements m
                      WHERE m.provider_key = p_provider_key AND m.after_close
                        AND NOT EXISTS (SELECT 1 FROM public.month_closes o
                                         WHERE o.provider_key = p_provider_key
                                           AND m.id = ANY (o.after_close_movement_ids))
                      ORDER BY m.occurred_at, m.id);

    SELECT pg_catalog.array_agg(r.id ORDER BY r.id),
           pg_catalog.array_agg(r.statement_sha256 ORDER BY r.id), pg_catalog.max(r.id)
      INTO v_runs, v_shas, v_newest
      FROM public.statement_runs r
     WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
       AND r.covers_from <= p_month AND r.covers_to >= (p_month + interval '1 month')::date - 1
       -- The runs that may speak for the month (month_close_refusal): an unproven one's open
       -- cases still hold the month open, but it is not the close's statement.
       AND r.completeness IS DISTINCT FROM 'unproven';

    INSERT INTO public.month_closes AS mc
        (provider_key, month, statement_run_ids, statement_sha256s, statement_totals,
         ledger_totals, matched, backfilled, unapplied, differing, not_in_statement,
         cases_resolved, cases_dismissed, audit_anchor_digest, audit_anchor_heads,
         money_back_totals, after_close_totals, after_close_movement_ids)
    SELECT p_provider_key, p_month, v_runs, v_shas,
           coalesce((SELECT pg_catalog.jsonb_object_agg(t.currency, pg_catalog.jsonb_build_object(
                         'renewals', t.n, 'amountMinor', t.amount))
                       FROM (SELECT l.event->>'currency' AS currency, pg_catalog.count(*) AS n,
                                    pg_catalog.sum((l.event->>'paidAmountMinor')::numeric)
                                        AS amount
                               FROM public.rd_month_close_lines(p_provider_key, p_month) l
                              WHERE l.run_id = v_newest AND l.event IS NOT NULL
                                AND l.finding <> 'unreadable'
                                AND l.event->'movements' IS NULL -- money back: not paid
                              GROUP BY 1) t), '{}'),
           public.rd_ledger_totals(p_provider_key, v_lo, v_hi),
           f.matched, f.backfilled, f.unapplied, f.differing, f.not_in_statement,
           k.resolved, k.dismissed, a.digest, a.heads,
           -- By each movement's own date (occurred_at, UTC), never its renewal's.
           public.rd_money_back_by_currency(ARRAY(
               SELECT m.id FROM public.money_movements m
                WHERE m.provider_key = p_provider_key
                  AND m.occurred_at >= v_lo AND m.occurred_at < v_hi)),
           public.rd_money_back_by_currency(v_after), v_after
      FROM (SELECT pg_catalog.count(*) FILTER (WHERE l.finding = 'matched') AS matched,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'backfilled') AS backfilled,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'unapplied') AS unapplied,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'differing') AS differing,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'not_in_statement')
                       AS not_in_statement
              FROM public.rd_month_close_lines(p_provider_key, p_month) l
             WHERE l.run_id = v_newest) f,
           (SELECT pg_catalog.count(*) FILTER (WHERE x.status = 'resolved') AS resolved,
                   pg_catalog.count(*) FILTER (WHERE x.status = 'dismissed') AS dismissed
              FROM (SELECT DISTINCT oc.id, oc.status
                      FROM public.rd_month_close_lines(p_provider_key, p_month) l
                      JOIN public.reconciliation_cases oc ON oc.id = l.case_id) x) k,
           public.rd_audit_anchor_digest() a
    RETURNING * INTO c;

    -- The report's head (month_close_report, below) without its findings; the movements after
    -- close it counted are listed.
    RETURN pg_catalog.jsonb_build_object('result', 'closed')
           || (public.month_close_report(c.provider_key, c.month) - 'findings');
END;
$$;
