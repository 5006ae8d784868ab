REVOKE ALL ON FUNCTION public.reopen_case(bigint,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.reopen_case(bigint,text) TO renewal_operator;

CREATE OR REPLACE FUNCTION public.reopen_case(p_case_id bigint, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    v_note text := public.rd_note_text(p_comment);
    v_period uuid;
    v_other bigint;
    v_month date;
    v_closed_by text;
BEGIN
    IF v_note IS NULL THEN
        RAISE EXCEPTION 'reopening a case needs a note saying why' USING ERRCODE = 'RD004';
    END IF;
    SELECT * INTO c FROM public.reconciliation_cases WHERE id = p_case_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'there is no case %', p_case_id USING ERRCODE = 'RD001';
    END IF;
    IF c.status = 'open' THEN
        RAISE EXCEPTION 'case % is open: there is nothing to reopen', p_case_id
            USING ERRCODE = 'RD016';
    END IF;
    IF c.status = 'resolved' THEN
        RAISE EXCEPTION 'case % was resolved (%)%: its renewal is recorded, and only a dismissed case can be reopened',
            p_case_id, c.resolution,
            coalesce(' by ' || c.resolved_by, '')
            USING ERRCODE = 'RD016';
    END IF;
    -- A closed month stays as it was closed: its close counted this case as dismissed.
    SELECT m.month, m.closed_by INTO v_month, v_closed_by FROM public.month_closes m
     WHERE m.provider_key = c.provider_key
       AND m.month = pg_catalog.date_trunc('month',
               (c.event->>'paidAt')::timestamptz AT TIME ZONE 'UTC')::date;
    IF FOUND THEN
        RAISE EXCEPTION 'case %''s renewal was paid in %, a month of % closed by %: a closed month''s cases stay as they were closed; add a note instead',
            p_case_id, pg_catalog.to_char(v_month, 'YYYY-MM'), c.provider_key, v_closed_by
            USING ERRCODE = 'RD016';
    END IF;
    -- One reopen of a renewal at a time: the checks below and the update then see the same
    -- open cases (a second reopen of the same renewal waits here, then finds this one open).
    PERFORM public.rd_take_work_lock(
        'reopen ' OPERATOR(pg_catalog.||) c.provider_key OPERATOR(pg_catalog.||) ' '
            OPERATOR(pg_catalog.||) c.provider_renewal_key,
        'another reopen of renewal ' OPERATOR(pg_catalog.||) c.provider_renewal_key);
    SELECT b.id INTO v_period FROM public.subscription_billing_periods b
     WHERE b.provider_key = c.provider_key AND b.provider_renewal_key = c.provider_renewal_key;
    IF FOUND THEN
        RAISE EXCEPTION 'case %''s renewal % has been recorded since it was dismissed (billing period %): there is nothing left to reconcile',
            p_case_id, c.provider_renewal_key, v_period USING ERRCODE = 'RD016';
    END IF;
    SELECT o.id INTO v_other FROM public.reconciliation_cases o
     WHERE o.status = 'open' AND o.provider_key = c.provider_key
       AND o.provider_renewal_key = c.provider_renewal_key AND o.id <> c.id
     ORDER BY o.id LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'case % is open for the same renewal (%): work that case instead of reopening case %',
            v_other, c.provider_renewal_key, p_case_id USING ERRCODE = 'RD016';
    END IF;
    BEGIN
        UPDATE public.reconciliation_cases
           SET status = 'open', resolution = NULL, resolved_at = NULL, resolved_by = NULL,
               resolution_comment = NULL
         WHERE id = p_case_id;
    EXCEPTION WHEN unique_violation THEN
        -- reconciliation_cases_open_once: the core opened a case for the same rejection of the
        -- same renewal after the check above.
        RAISE EXCEPTION 'another case is open for the same renewal (%): work that case instead of reopening case %',
            c.provider_renewal_key, p_case_id USING ERRCODE = 'RD016';
    END;
    -- The dismissal undone stays in the history (its own row, and here who and why).
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code, comment,
                                                   details, chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'reopened', 'open', c.error_code, v_note,
            pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                'dismissedBy', c.resolved_by,
                'dismissedAt', public.rd_rfc3339(c.resolved_at),
                'dismissalNote', c.resolution_comment)),
            0, '', '');
    RETURN pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
        'caseId', p_case_id, 'result', 'reopened', 'errorCode', c.error_code,
        'dismissedBy', c.resolved_by));
END;
$$;
