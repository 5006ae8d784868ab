REVOKE ALL ON FUNCTION public.rd_statement_case(bigint,jsonb,text,jsonb)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- A statement finding's case: the earlier case of the same renewal, facts and reason (open:
-- linked; dismissed: linked, not reopened), else a new one naming the run. Returns the case
-- and whether it is open. The caller holds the subscription's lock when there is one.
CREATE OR REPLACE FUNCTION public.rd_statement_case(p_run bigint, p_event jsonb, p_code text,
                                         p_state jsonb, OUT case_id bigint, OUT is_open boolean)
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_fp text := public.rd_renewal_fingerprint(p_event);
BEGIN
    SELECT c.id, c.status = 'open' INTO case_id, is_open
      FROM public.reconciliation_cases c
     WHERE c.provider_key = p_event->>'providerKey'
       AND c.provider_renewal_key = p_event->>'providerRenewalKey'
       AND c.error_code = p_code AND c.event_fingerprint = v_fp
       AND c.status IN ('open', 'dismissed')
     ORDER BY c.status = 'open' DESC, c.id DESC
     LIMIT 1;
    IF FOUND THEN
        RETURN;
    END IF;
    -- Numbered by rd_new_id: none of the numbers users cite for a dry run (#42, 12).
    INSERT INTO public.reconciliation_cases AS c
        (id, provider_key, provider_subscription_id, subscription_id, provider_renewal_key,
         first_provider_event_id, last_provider_event_id, error_code, event, event_fingerprint,
         local_state, renewal_period_start, statement_run_id)
    OVERRIDING SYSTEM VALUE
    VALUES (public.rd_new_id('public.reconciliation_cases_id_seq'), p_event->>'providerKey', p_event->>'providerSubscriptionId',
            (SELECT s.id FROM public.subscriptions s
              WHERE s.provider_key = p_event->>'providerKey'
                AND s.provider_subscription_id = p_event->>'providerSubscriptionId'),
            p_event->>'providerRenewalKey', p_event->>'providerEventId',
            p_event->>'providerEventId', p_code, p_event, v_fp, p_state,
            (p_event->'period'->>'start')::timestamptz, p_run)
    RETURNING c.id INTO case_id;
    is_open := true;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code,
                                                   details, chain_seq, prev_hash, row_hash)
    VALUES (case_id, 'opened', 'open', p_code,
            pg_catalog.jsonb_build_object('statementRunId', p_run, 'localState', p_state),
            0, '', '');
END;
$$;
