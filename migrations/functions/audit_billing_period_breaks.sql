REVOKE ALL ON FUNCTION public.audit_billing_period_breaks()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.audit_billing_period_breaks() TO renewal_viewer;

-- Every billing period against the audit row that recorded it (#39, item 3): a re-forged
-- backup changed a billing period's amount, and every chain still held, because the chains
-- hash the audit rows, not the billing periods. The audit row of a renewal has always hashed
-- the amount and currency it recorded (details.paidAmountMinor, details.currency) and its
-- period (period_start, period_end); a snapshot's audit row hashes the billing period it
-- recorded as details.billingPeriod (written from this version on; an older one is not
-- compared, only found). So a billing period that differs from its hashed record, or that no
-- audit row recorded, is a break: the chains, checked alongside, prove the record itself.
--
-- One hash join over both tables (no index serves the snapshot's rows), in the caller's
-- snapshot: audit_chain_breaks() and the streamed verification call it last. Invoker's
-- rights: a viewer may read both tables, and verifies.
CREATE OR REPLACE FUNCTION public.audit_billing_period_breaks()
 RETURNS TABLE(chain text, chain_id text, row_id bigint, chain_seq bigint, problem text)
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    WITH recorded AS (
        SELECT t.billing_period_id, t.id, t.chain_seq,
               (t.transition = 'subscription_renewed' AND t.details ? 'paidAmountMinor')
                   OR t.details ? 'billingPeriod' AS kept,
               CASE WHEN t.transition = 'subscription_renewed' THEN t.details->>'paidAmountMinor'
                    ELSE t.details->'billingPeriod'->>'paidAmountMinor' END AS amount,
               CASE WHEN t.transition = 'subscription_renewed' THEN t.details->>'currency'
                    ELSE t.details->'billingPeriod'->>'currency' END AS currency,
               CASE WHEN t.transition = 'subscription_renewed' THEN t.period_start
                    ELSE (t.details->'billingPeriod'->'period'->>'start')::timestamptz
               END AS period_start,
               CASE WHEN t.transition = 'subscription_renewed' THEN t.period_end
                    ELSE (t.details->'billingPeriod'->'period'->>'end')::timestamptz
               END AS period_end
          FROM public.subscription_transition_audits t
         WHERE t.billing_period_id IS NOT NULL
           AND t.transition IN ('subscription_renewed', 'subscription_reconciled'))
    SELECT 'subscription_transition_audits'::text, b.subscription_id::text,
           coalesce(a.id, 0), coalesce(a.chain_seq, 0),
           CASE WHEN a.id IS NULL
                THEN 'billing period of renewal ' || b.provider_renewal_key
                     || ' has no audit row recording it (added, or its record removed)'
                ELSE 'billing period of renewal ' || b.provider_renewal_key || ' holds '
                     || b.paid_amount_minor || ' ' || b.currency || ' for '
                     || public.rd_rfc3339(b.period_start) || ' to '
                     || public.rd_rfc3339(b.period_end) || ', its audit row recorded '
                     || coalesce(a.amount, '?') || ' ' || coalesce(a.currency, '?') || ' for '
                     || coalesce(public.rd_rfc3339(a.period_start), '?') || ' to '
                     || coalesce(public.rd_rfc3339(a.period_end), '?') || ' (altered)' END
      FROM public.subscription_billing_periods b
      LEFT JOIN recorded a ON a.billing_period_id = b.id
     WHERE a.id IS NULL
        OR (a.kept AND (a.amount IS DISTINCT FROM b.paid_amount_minor::text
                        OR a.currency IS DISTINCT FROM b.currency
                        OR a.period_start IS DISTINCT FROM b.period_start
                        OR a.period_end IS DISTINCT FROM b.period_end))
     ORDER BY 2, 4, 5;
$function$;
