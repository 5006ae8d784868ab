REVOKE ALL ON FUNCTION public.rd_money_movement_case(jsonb,text,text,jsonb,public.subscriptions)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- The case of a movement record_money_movements refused: keyed on the movement (its key in
-- provider_renewal_key) and what it says (the fingerprint of its movements), so that another
-- delivery of it is an occurrence of the same open case. Its subscription is the renewal's when
-- the renewal was found, the event's when it names one, else 'unknown' (a Stripe refund names
-- only its charge).
CREATE OR REPLACE FUNCTION public.rd_money_movement_case(p_event jsonb, p_movement_key text,
                                                         p_error_code text, p_local_state jsonb,
                                                         s public.subscriptions)
    RETURNS bigint
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_case bigint;
    v_inserted boolean;
BEGIN
    -- Numbered by rd_new_id: none of the numbers users cite for a preview (#42, 12).
    INSERT INTO public.reconciliation_cases AS c
        (id, provider_key, provider_subscription_id, subscription_id, provider_renewal_key,
         first_provider_event_id, last_provider_event_id, error_code, event, event_fingerprint,
         local_state)
    OVERRIDING SYSTEM VALUE
    VALUES (public.rd_new_id('public.reconciliation_cases_id_seq'), p_event->>'providerKey',
            coalesce(s.provider_subscription_id, p_event->>'providerSubscriptionId', 'unknown'),
            s.id, p_movement_key, p_event->>'providerEventId', p_event->>'providerEventId',
            p_error_code, p_event, pg_catalog.md5((p_event->'movements')::text), p_local_state)
    ON CONFLICT (provider_key, provider_renewal_key, event_fingerprint, error_code)
        WHERE status = 'open'
    DO UPDATE SET occurrences = c.occurrences + 1, last_seen_at = pg_catalog.now(),
                  last_provider_event_id = excluded.last_provider_event_id,
                  local_state = excluded.local_state
    RETURNING c.id, (c.xmax = 0) INTO v_case, v_inserted;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code,
                                                   details, chain_seq, prev_hash, row_hash)
    VALUES (v_case, CASE WHEN v_inserted THEN 'opened' ELSE 'occurrence' END, 'open',
            p_error_code,
            pg_catalog.jsonb_build_object('providerEventId', p_event->>'providerEventId',
                                          'localState', p_local_state),
            0, '', '');
    RETURN v_case;
END;
$$;
