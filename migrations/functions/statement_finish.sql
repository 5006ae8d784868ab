REVOKE ALL ON FUNCTION public.statement_finish(bigint)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.statement_finish(bigint) TO renewal_operator;

-- Finishes a run: the recorded renewals of the covered days that the statement lacks become
-- not_in_statement findings; the counts and both sides' totals per currency are stored. A run
-- whose completeness is unproven looks for none: a page it lacks would make each renewal
-- listed there such a finding, false. So for money back (#40): a refund or chargeback recorded
-- for a day it covers that it does not list is not_in_statement only when the run holds every
-- page of the kind's money back lists (lists_money_back); a reversal is listed with the
-- refund or dispute it reverses. The run's money back findings and sums are in money_back.
-- Returns the run's summary (its JSON is what `renewalctl statement import --json` prints).
CREATE OR REPLACE FUNCTION public.statement_finish(p_run bigint)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    r public.statement_runs%ROWTYPE := public.rd_open_statement_run(p_run);
    v_lo timestamptz := r.covers_from::timestamp AT TIME ZONE 'UTC';
    v_hi timestamptz := (r.covers_to + 1)::timestamp AT TIME ZONE 'UTC';
    v_line integer;
    m public.subscription_billing_periods%ROWTYPE;
    s public.subscriptions%ROWTYPE;
    e jsonb;
    x record;
    mm public.money_movements%ROWTYPE;
BEGIN
    SELECT coalesce(pg_catalog.max(l.line_no), 0) INTO v_line
      FROM public.statement_lines l WHERE l.run_id = p_run;
    -- A probe of the run's lines per recorded renewal, not an anti-join: the lines were
    -- written by this very transaction, so no statistics know them, and a join planned without
    -- them read every line for every renewal (8 s for 5,000 of each, measured).
    FOR m IN
        SELECT b.* FROM public.subscription_billing_periods b
         WHERE b.provider_key = r.provider_key AND b.paid_at >= v_lo AND b.paid_at < v_hi
           AND r.completeness IS DISTINCT FROM 'unproven'
         ORDER BY b.paid_at, b.id
    LOOP
        CONTINUE WHEN EXISTS (SELECT 1 FROM public.statement_lines l
                               WHERE l.run_id = p_run AND NOT l.money_back
                                 AND l.provider_renewal_key = m.provider_renewal_key);
        SELECT * INTO s FROM public.subscriptions sx WHERE sx.id = m.subscription_id FOR UPDATE;
        e := pg_catalog.jsonb_build_object(
            'providerKey', m.provider_key, 'providerEventId', m.provider_event_id,
            'providerSubscriptionId', s.provider_subscription_id,
            'providerRenewalKey', m.provider_renewal_key, 'providerVersion', NULL,
            'period', public.rd_period_json(m.period_start, m.period_end),
            'paidAmountMinor', m.paid_amount_minor, 'currency', m.currency,
            'paidAt', public.rd_rfc3339(m.paid_at));
        SELECT * INTO x FROM public.rd_statement_case(p_run, e, 'not_in_statement',
            public.rd_subscription_state_json(s)
            || pg_catalog.jsonb_build_object('recordedBillingPeriod',
                                             public.rd_billing_period_json(m))) c;
        UPDATE public.reconciliation_cases c SET statement_run_id = p_run
         WHERE c.id = x.case_id AND c.statement_run_id IS NULL AND c.inbox_id IS NULL;
        v_line := v_line + 1;
        INSERT INTO public.statement_lines (run_id, line_no, provider_renewal_key, finding,
                                            billing_period_id, case_id)
        VALUES (p_run, v_line, m.provider_renewal_key, 'not_in_statement', m.id, x.case_id);
    END LOOP;
    -- The same for the money back it lists, by each movement's own date. Its case is keyed on
    -- the movement, as record_money_movements' are; its event is the recorded movement.
    FOR mm IN
        SELECT v.* FROM public.money_movements v
         WHERE v.provider_key = r.provider_key AND v.kind IN ('refund', 'chargeback')
           AND v.occurred_at >= v_lo AND v.occurred_at < v_hi
           AND r.lists_money_back AND r.completeness IS DISTINCT FROM 'unproven'
         ORDER BY v.occurred_at, v.id
    LOOP
        CONTINUE WHEN EXISTS (SELECT 1 FROM public.statement_lines l
                               WHERE l.run_id = p_run AND l.money_back
                                 AND l.provider_renewal_key = mm.movement_key);
        SELECT * INTO s FROM public.subscriptions sx WHERE sx.id = mm.subscription_id FOR UPDATE;
        SELECT * INTO m FROM public.subscription_billing_periods b
         WHERE b.id = mm.billing_period_id;
        e := pg_catalog.jsonb_build_object(
            'providerKey', mm.provider_key, 'providerEventId', mm.provider_event_id,
            'providerSubscriptionId', s.provider_subscription_id,
            'providerRenewalKey', mm.movement_key,
            'movements', pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object(
                'movementKey', mm.movement_key, 'kind', mm.kind,
                'amountMinor', mm.amount_minor, 'currency', mm.currency,
                'occurredAt', public.rd_rfc3339(mm.occurred_at),
                'renewalRefs', pg_catalog.jsonb_build_array(m.provider_renewal_key))));
        SELECT * INTO x FROM public.rd_statement_case(p_run, e, 'not_in_statement',
            public.rd_subscription_state_json(s)
            || pg_catalog.jsonb_build_object('billingPeriod', public.rd_billing_period_json(m),
                                             'recordedMovement', pg_catalog.to_jsonb(mm))) c;
        UPDATE public.reconciliation_cases c SET statement_run_id = p_run
         WHERE c.id = x.case_id AND c.statement_run_id IS NULL AND c.inbox_id IS NULL;
        v_line := v_line + 1;
        INSERT INTO public.statement_lines (run_id, line_no, provider_renewal_key, finding,
                                            billing_period_id, case_id, money_back, occurred_at,
                                            money_movement_id)
        VALUES (p_run, v_line, mm.movement_key, 'not_in_statement', m.id, x.case_id, true,
                mm.occurred_at, mm.id);
    END LOOP;

    UPDATE public.statement_runs sr SET
        finished_at = pg_catalog.clock_timestamp(),
        renewals = c.renewals, matched = c.matched, backfilled = c.backfilled,
        unapplied = c.unapplied, differing = c.differing, not_in_statement = c.not_in_statement,
        open_cases = c.open_cases,
        statement_totals = coalesce((
            SELECT pg_catalog.jsonb_object_agg(t.currency, pg_catalog.jsonb_build_object(
                       'renewals', t.n, 'amountMinor', t.amount))
              FROM (SELECT l.event->>'currency' AS currency, pg_catalog.count(*) AS n,
                           pg_catalog.sum((l.event->>'paidAmountMinor')::numeric) AS amount
                      FROM public.statement_lines l
                     WHERE l.run_id = p_run AND l.event IS NOT NULL
                       AND (l.event->>'paidAt')::timestamptz >= v_lo
                       AND (l.event->>'paidAt')::timestamptz < v_hi
                     GROUP BY 1) t), '{}'),
        ledger_totals = public.rd_ledger_totals(r.provider_key, v_lo, v_hi),
        money_back = (
            SELECT pg_catalog.jsonb_build_object(
                       'listed', r.lists_money_back,
                       'lines', pg_catalog.count(*) FILTER (WHERE l.event IS NOT NULL),
                       'matched', pg_catalog.count(*) FILTER (WHERE l.finding = 'matched'),
                       'backfilled', pg_catalog.count(*) FILTER (WHERE l.finding = 'backfilled'),
                       'unapplied', pg_catalog.count(*) FILTER (WHERE l.finding = 'unapplied'),
                       'differing', pg_catalog.count(*) FILTER (WHERE l.finding = 'differing'),
                       'notInStatement', pg_catalog.count(*)
                                             FILTER (WHERE l.finding = 'not_in_statement'),
                       -- Both sides per currency, by each movement's own day: the statement's
                       -- movements as listed (a running total as its total), the ledger's as
                       -- recorded.
                       'statementTotals', coalesce((
                           SELECT pg_catalog.jsonb_object_agg(t.currency,
                                      pg_catalog.jsonb_build_object('movements', t.n,
                                          'refundedMinor', t.refunded,
                                          'disputedMinor', t.disputed))
                             FROM (SELECT v->>'currency' AS currency, pg_catalog.count(*) AS n,
                                          pg_catalog.sum(CASE v->>'kind'
                                              WHEN 'refund' THEN (v->>'amountMinor')::numeric
                                              WHEN 'refund_reversal'
                                                  THEN -(v->>'amountMinor')::numeric
                                              ELSE 0 END) AS refunded,
                                          pg_catalog.sum(CASE v->>'kind'
                                              WHEN 'chargeback' THEN (v->>'amountMinor')::numeric
                                              WHEN 'chargeback_reversal'
                                                  THEN -(v->>'amountMinor')::numeric
                                              ELSE 0 END) AS disputed
                                     FROM public.statement_lines ml,
                                          pg_catalog.jsonb_array_elements(ml.event->'movements') v
                                    WHERE ml.run_id = p_run AND ml.money_back
                                      AND (v->>'occurredAt')::timestamptz >= v_lo
                                      AND (v->>'occurredAt')::timestamptz < v_hi
                                    GROUP BY 1) t), '{}'),
                       'ledgerTotals', public.rd_money_back_by_currency(ARRAY(
                           SELECT v.id FROM public.money_movements v
                            WHERE v.provider_key = r.provider_key
                              AND v.occurred_at >= v_lo AND v.occurred_at < v_hi)))
              FROM public.statement_lines l WHERE l.run_id = p_run AND l.money_back)
      FROM (SELECT pg_catalog.count(*) FILTER (WHERE l.event IS NOT NULL
                                                   AND l.finding <> 'unreadable') AS renewals,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'matched') AS matched,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'backfilled') AS backfilled,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'unapplied') AS unapplied,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'differing') AS differing,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'not_in_statement')
                       AS not_in_statement,
                   (SELECT pg_catalog.count(DISTINCT oc.id)
                      FROM public.statement_lines ol
                      JOIN public.reconciliation_cases oc ON oc.id = ol.case_id
                     WHERE ol.run_id = p_run AND oc.status = 'open') AS open_cases
              FROM public.statement_lines l WHERE l.run_id = p_run AND NOT l.money_back) c
     WHERE sr.id = p_run;
    RETURN public.statement_run_json(p_run);
END;
$$;
