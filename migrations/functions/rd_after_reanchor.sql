REVOKE ALL ON FUNCTION public.rd_after_reanchor(uuid,bigint)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- Called by attach_provider_snapshot (0007) after it moved the subscription (its lock held):
-- the first waiting case that starts at the new end goes through the core, which heals what
-- follows it; one still rejected gives way to the next candidate at the same end.
CREATE OR REPLACE FUNCTION public.rd_after_reanchor(p_subscription_id uuid, p_snapshot_id bigint)
    RETURNS integer
    LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    r record;
    tried_after bigint := 0;
BEGIN
    LOOP
        SELECT oc.* INTO c FROM public.reconciliation_cases oc
          JOIN public.subscriptions s ON s.id = oc.subscription_id
         WHERE s.id = p_subscription_id AND oc.status = 'open'
           AND oc.error_code = 'renewal_period_is_not_contiguous'
           AND oc.renewal_period_start = s.current_period_end AND oc.id > tried_after
         ORDER BY oc.id LIMIT 1
           FOR UPDATE OF oc;
        EXIT WHEN NOT FOUND;
        SELECT * INTO r FROM public.rd_apply_case_event(c.event, 'system', 'auto-reapply');
        PERFORM public.rd_settle_waiting_case(c.id, r.result, r.billing_period_id,
                                              r.error_code, r.local_state,
                                              'snapshot ' || p_snapshot_id);
        EXIT WHEN r.result = 'applied';
        tried_after := c.id;
    END LOOP;
    RETURN 0;
END;
$$;
