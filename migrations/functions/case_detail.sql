-- A reconciliation case as every program reads it: `renewalctl cases show` prints it, the
-- desk's case panel shows its history (ui/models/casedetail.cpp), so that what a case is and
-- what its history says is written once. Its facts, whether its renewal may be re-applied now,
-- whether it may be reopened (if not, reopen_case's own refusal says why), and its history,
-- oldest step first, each with who handed its renewal in (recordedBy). NULL when there is no
-- such case. SECURITY INVOKER: it reads with the caller's privileges.
REVOKE ALL ON FUNCTION public.case_detail(bigint)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.case_detail(bigint) TO renewal_viewer;

CREATE OR REPLACE FUNCTION public.case_detail(p_case_id bigint)
    RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path = pg_catalog, public, pg_temp
AS $$
    SELECT jsonb_build_object(
        'id', c.id, 'status', c.status, 'resolution', c.resolution,
        'errorCode', c.error_code, 'providerKey', c.provider_key,
        'providerSubscriptionId', c.provider_subscription_id,
        'subscriptionId', c.subscription_id,
        'providerRenewalKey', c.provider_renewal_key, 'occurrences', c.occurrences,
        'firstSeenAt', public.rd_rfc3339(c.first_seen_at),
        'lastSeenAt', public.rd_rfc3339(c.last_seen_at),
        'resolvedBy', c.resolved_by, 'resolvedAt', public.rd_rfc3339(c.resolved_at),
        'resolutionComment', c.resolution_comment, 'snapshotId', c.snapshot_id,
        'assignedTo', c.assigned_to, 'assignedAt', public.rd_rfc3339(c.assigned_at),
        'event', c.event, 'localState', c.local_state,
        'applicableNow', public.rd_case_is_applicable(c),
        'reopenable', public.rd_case_reopen_refusal(c) IS NULL,
        'reopenRefusal', public.rd_case_reopen_refusal(c),
        'history', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                'seq', h.chain_seq, 'action', h.action, 'outcome', h.outcome,
                'error', h.error_code, 'actor', h.actor, 'reason', h.reason,
                'comment', h.comment, 'at', public.rd_rfc3339(h.created_at),
                'details', h.details,
                'recordedBy', public.rd_case_step_recorded_by(c, h)) ORDER BY h.chain_seq), '[]')
             FROM public.reconciliation_case_history h WHERE h.case_id = c.id))
      FROM public.reconciliation_cases c WHERE c.id = p_case_id
$$;
