REVOKE ALL ON FUNCTION public.access_verdict_json(text,text,timestamptz)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.access_verdict_json(text,text,timestamptz) TO renewal_viewer;

-- Payment trouble (#41): what `renewalctl access show` and the desk print of one
-- subscription at p_now: its verdict (rd_access_verdict: from the facts as they stand, before
-- any sweep), the failed attempts of its trouble (since its last payment, oldest first), the
-- provider's newest standing, the verdict recorded last and the history of recorded changes.
-- NULL for a subscription not known here. SECURITY INVOKER: the viewer's own reads.
CREATE OR REPLACE FUNCTION public.access_verdict_json(p_provider_key text,
    p_provider_subscription_id text, p_now timestamptz)
    RETURNS jsonb
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
RETURN (
    SELECT pg_catalog.jsonb_build_object(
        'subscriptionId', s.id, 'providerKey', s.provider_key,
        'providerSubscriptionId', s.provider_subscription_id,
        'verdict', v.verdict, 'since', public.rd_rfc3339(v.since),
        'until', public.rd_rfc3339(v.until), 'source', v.source, 'reason', v.reason,
        'evaluatedAt', public.rd_rfc3339(p_now),
        'attempts', coalesce((
            SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                       'invoiceKey', a.invoice_key, 'attempt', a.attempt,
                       'at', public.rd_rfc3339(a.failed_at),
                       'nextAttemptAt', public.rd_rfc3339(a.next_attempt_at),
                       'declineCode', a.decline_code,
                       'recovered', EXISTS (SELECT 1 FROM public.subscription_billing_periods b
                                             WHERE b.provider_key = a.provider_key
                                               AND b.provider_renewal_key = a.invoice_key))
                       ORDER BY a.failed_at, a.attempt)
              FROM public.payment_attempts a
             WHERE a.subscription_id = s.id AND a.failed_at <= p_now
               AND a.failed_at > coalesce((SELECT pg_catalog.max(b.paid_at)
                                             FROM public.subscription_billing_periods b
                                            WHERE b.subscription_id = s.id
                                              AND b.paid_at <= p_now
                                              AND NOT EXISTS (
                                                  SELECT 1 FROM public.payment_attempts r
                                                   WHERE r.provider_key = b.provider_key
                                                     AND r.invoice_key = b.provider_renewal_key)),
                                          '-infinity')), '[]'),
        'standing', (SELECT pg_catalog.jsonb_build_object('standing', f.standing,
                                'observedAt', public.rd_rfc3339(f.observed_at),
                                'reason', f.reason)
                       FROM public.provider_standing_facts f
                      WHERE f.subscription_id = s.id AND f.observed_at <= p_now
                      ORDER BY f.observed_at DESC, f.id DESC LIMIT 1),
        'recorded', (SELECT pg_catalog.jsonb_build_object('verdict', r.verdict,
                                'since', public.rd_rfc3339(r.since),
                                'until', public.rd_rfc3339(r.until), 'source', r.source,
                                'seq', r.seq, 'changedAt', public.rd_rfc3339(r.changed_at))
                       FROM public.access_verdicts r WHERE r.subscription_id = s.id),
        'history', coalesce((
            SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                       'seq', t.seq, 'verdict', t.verdict, 'previousVerdict', t.previous_verdict,
                       'since', public.rd_rfc3339(t.since), 'until', public.rd_rfc3339(t.until),
                       'source', t.source, 'reason', t.reason,
                       'recordedBy', t.recorded_by, 'recordedAt', public.rd_rfc3339(t.created_at))
                       ORDER BY t.seq)
              FROM public.access_transitions t WHERE t.subscription_id = s.id), '[]'))
      FROM public.subscriptions s
     CROSS JOIN LATERAL public.rd_access_verdict(s.id, p_now) v
     WHERE s.provider_key = p_provider_key
       AND s.provider_subscription_id = p_provider_subscription_id);
