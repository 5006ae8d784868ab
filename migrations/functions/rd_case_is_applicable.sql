REVOKE ALL ON FUNCTION public.rd_case_is_applicable(public.reconciliation_cases)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_case_is_applicable(public.reconciliation_cases) TO renewal_viewer;

CREATE OR REPLACE FUNCTION public.rd_case_is_applicable(c public.reconciliation_cases)
    RETURNS boolean
    LANGUAGE sql STABLE
    RETURN c.status = 'open' AND pg_catalog.jsonb_typeof(c.event->'period') = 'object'
       AND coalesce((
           SELECT v.verdict = 'applicable'
                  AND NOT EXISTS (SELECT 1 FROM public.subscription_billing_periods b
                                   WHERE b.subscription_id = s.id
                                     AND b.period_start = (c.event->'period'->>'start')::timestamptz
                                     AND b.period_end = (c.event->'period'->>'end')::timestamptz)
             FROM public.subscriptions s,
                  LATERAL public.rd_renewal_verdict(s, c.provider_key, c.provider_renewal_key,
                      (c.event->'period'->>'start')::timestamptz,
                      (c.event->'period'->>'end')::timestamptz,
                      (c.event->>'paidAmountMinor')::bigint, c.event->>'currency') v
            WHERE s.provider_key = c.provider_key
              AND s.provider_subscription_id = c.provider_subscription_id), false);
