REVOKE ALL ON FUNCTION public.rd_heal_money_back(text,uuid,jsonb)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- After a renewal is recorded: from a delivery (ingest_delivery), a statement's backfill
-- (statement_add_lines), `renewalctl apply` (apply_cli_renewal), a snapshot's latest renewal
-- (attach_provider_snapshot), or a case's renewal applied (rd_apply_case_event: re-apply, a
-- snapshot's judgment, a gap healed). Keeps the payment refs its
-- event carries (Stripe's charge and payment intent: a later refund names the renewal by them),
-- then records the movements that waited for it (refund_without_renewal cases naming its
-- renewal key or one of those refs) and resolves their cases; one refused now for another
-- reason stays that one case, with the new reason (never a second case). The refs' locks first
-- (rd_lock_payment_refs): a movement that could not find this renewal before it committed has
-- its case committed by then, and one that comes later finds the renewal.
CREATE OR REPLACE FUNCTION public.rd_heal_money_back(p_provider_key text,
                                                     p_billing_period_id uuid, p_event jsonb)
    RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_refs text[];
    c public.reconciliation_cases%ROWTYPE;
    r record;
BEGIN
    v_refs := ARRAY(SELECT pg_catalog.jsonb_array_elements_text(
                               coalesce(p_event->'paymentRefs', '[]'::jsonb)));
    IF pg_catalog.cardinality(v_refs) > 0 THEN
        INSERT INTO public.billing_period_payment_refs (provider_key, payment_ref,
                                                        billing_period_id)
        SELECT p_provider_key, u.ref, p_billing_period_id
          FROM (SELECT DISTINCT x.ref FROM pg_catalog.unnest(v_refs) AS x(ref)) u
        ON CONFLICT DO NOTHING;
    END IF;
    v_refs := v_refs || (p_event->>'providerRenewalKey');
    PERFORM public.rd_lock_payment_refs(p_provider_key, v_refs);
    FOR c IN SELECT * FROM public.reconciliation_cases k
              WHERE k.status = 'open' AND k.error_code = 'refund_without_renewal'
                AND k.provider_key = p_provider_key
                AND EXISTS (SELECT 1
                              FROM pg_catalog.jsonb_array_elements(k.event->'movements') mv,
                                   pg_catalog.jsonb_array_elements_text(mv->'renewalRefs') rf
                             WHERE rf = ANY (v_refs))
              ORDER BY k.id FOR UPDATE LOOP
        BEGIN
            SELECT * INTO r FROM public.record_money_movements(c.event, 'system', 'money-back');
            IF r.result = 'rejected' AND r.case_id IS DISTINCT FROM c.id THEN
                -- Refused now for another reason (more back than was paid, a conflict): that
                -- opened a second case about the same movement. It is undone; this case says
                -- the new reason (rd_keep_case_open), one case a movement. RX001 is this
                -- block's own signal, caught below: no refusal the programs see (class RD).
                RAISE EXCEPTION 'refused for another reason' USING ERRCODE = 'RX001';
            END IF;
        EXCEPTION WHEN SQLSTATE 'RX001' THEN
            PERFORM public.rd_keep_case_open(c.id, r.error_code, r.local_state);
            -- It waited under 'unknown': its renewal, and so its subscription, is known now.
            UPDATE public.reconciliation_cases k
               SET subscription_id = s.id, provider_subscription_id = s.provider_subscription_id
              FROM public.subscription_billing_periods b
              JOIN public.subscriptions s ON s.id = b.subscription_id
             WHERE k.id = c.id AND k.subscription_id IS NULL AND b.id = p_billing_period_id;
        END;
        IF r.result IN ('recorded', 'duplicate') THEN
            UPDATE public.reconciliation_cases
               SET status = 'resolved',
                   resolution = CASE r.result WHEN 'recorded' THEN 'reapplied'
                                              ELSE 'already_applied' END,
                   resolved_at = pg_catalog.now(), resolved_by = 'system',
                   resolution_comment = 'recorded automatically after renewal '
                       || (p_event->>'providerRenewalKey') || ' arrived',
                   billing_period_id = r.billing_period_id
             WHERE id = c.id;
        END IF;
        INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code,
            actor, comment, details, chain_seq, prev_hash, row_hash)
        VALUES (c.id, 'reapply', CASE r.result WHEN 'recorded' THEN 'applied'
                                                WHEN 'duplicate' THEN 'duplicate'
                                                ELSE 'rejected' END,
                r.error_code, 'system',
                CASE WHEN r.result IN ('recorded', 'duplicate')
                     THEN 'recorded automatically after renewal '
                     ELSE 'tried automatically after renewal ' END
                    || (p_event->>'providerRenewalKey') || ' arrived',
                pg_catalog.jsonb_build_object('automatic', true,
                    'unblockedBy', p_event->>'providerEventId',
                    'billingPeriodId', r.billing_period_id, 'localState', r.local_state),
                0, '', '');
    END LOOP;
END;
$$;
