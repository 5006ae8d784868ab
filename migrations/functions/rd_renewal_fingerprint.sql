REVOKE ALL ON FUNCTION public.rd_renewal_fingerprint(jsonb)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_renewal_fingerprint(jsonb) TO renewal_viewer;

-- A renewal's identity: what assertMatchingRenewal compares under one renewal key. Two
-- deliveries of one renewal (invoice.paid and invoice.payment_succeeded, one with the event's
-- own timestamp as paidAt) are one case with two occurrences.
CREATE OR REPLACE FUNCTION public.rd_renewal_fingerprint(e jsonb) RETURNS text
    LANGUAGE sql STABLE
    RETURN md5(jsonb_build_object(
        'providerSubscriptionId', e->>'providerSubscriptionId',
        'periodStart', public.rd_rfc3339((e->'period'->>'start')::timestamptz),
        'periodEnd', public.rd_rfc3339((e->'period'->>'end')::timestamptz),
        'paidAmountMinor', e->'paidAmountMinor', 'currency', e->>'currency')::text);
