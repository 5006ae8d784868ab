REVOKE ALL ON FUNCTION public.rd_month_close_lines(text,date)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_month_close_lines(text,date) TO renewal_viewer;

-- The lines of every finished run covering the whole month whose renewal was paid in it (the
-- statement's paidAt; for not_in_statement, the recorded renewal's), or whose money back
-- happened in it (0052: the movement's own date, never its renewal's), with their run; and its
-- unreadable objects, which say no day: each holds every month its run covers (0048).
CREATE OR REPLACE FUNCTION public.rd_month_close_lines(p_provider_key text, p_month date)
    RETURNS TABLE (run_id bigint, finding text, event jsonb, case_id bigint)
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
AS $$
    SELECT l.run_id, l.finding, l.event, l.case_id
      FROM public.statement_runs r
      JOIN public.statement_lines l ON l.run_id = r.id
      LEFT JOIN public.subscription_billing_periods b ON b.id = l.billing_period_id
     WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
       AND r.covers_from <= p_month
       AND r.covers_to >= (p_month + interval '1 month')::date - 1
       AND (l.finding = 'unreadable'
            OR (CASE WHEN l.money_back THEN l.occurred_at
                     ELSE coalesce((l.event->>'paidAt')::timestamptz, b.paid_at) END
                    >= p_month::timestamp AT TIME ZONE 'UTC'
                AND CASE WHEN l.money_back THEN l.occurred_at
                         ELSE coalesce((l.event->>'paidAt')::timestamptz, b.paid_at) END
                    < (p_month + interval '1 month')::timestamp AT TIME ZONE 'UTC'));
$$;
