REVOKE ALL ON FUNCTION public.rd_resolve_case(bigint,text,uuid,text,bigint)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- Closes a locked open case as resolved by the billing period that records its renewal.
CREATE OR REPLACE FUNCTION public.rd_resolve_case(p_case_id bigint, p_resolution text,
                                       p_billing_period_id uuid, p_comment text,
                                       p_snapshot_id bigint) RETURNS void
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    UPDATE public.reconciliation_cases
       SET status = 'resolved', resolution = p_resolution, resolved_at = now(),
           resolved_by = session_user, resolution_comment = p_comment,
           billing_period_id = p_billing_period_id,
           snapshot_id = coalesce(p_snapshot_id, snapshot_id)
     WHERE id = p_case_id;
END;
