REVOKE ALL ON FUNCTION public.rd_audit_canonical(public.subscription_transition_audits)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_audit_canonical(public.subscription_transition_audits) TO renewal_viewer;

CREATE OR REPLACE FUNCTION public.rd_audit_canonical(a public.subscription_transition_audits)
    RETURNS text
    LANGUAGE sql STABLE
    RETURN pg_catalog.jsonb_build_object(
        'subscriptionId', a.subscription_id, 'transition', a.transition,
        'billingPeriodId', a.billing_period_id, 'actorType', a.actor_type,
        'actorId', a.actor_id, 'dbRole', a.db_role, 'providerEventId', a.provider_event_id,
        'providerRenewalKey', a.provider_renewal_key,
        'periodStart', public.rd_rfc3339(a.period_start),
        'periodEnd', public.rd_rfc3339(a.period_end),
        'reason', a.reason, 'comment', a.comment, 'details', a.details,
        'createdAt', public.rd_rfc3339(a.created_at), 'chainSeq', a.chain_seq,
        'prevHash', a.prev_hash)::text;
