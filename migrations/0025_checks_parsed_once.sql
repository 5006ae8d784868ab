-- Single-column checks move into domains, so that a renewal stops re-reading them (#15).
-- PostgreSQL keeps a table's CHECK constraints as stored node trees and reads them back
-- (stringToNode) every time an INSERT or UPDATE statement runs, cached plan or not: the
-- executor's per-statement state holds them. A renewal writes three tables with twelve checks
-- between them, and reading those back cost 245,000 of its 2.5 million instructions, measured
-- with callgrind (bench/pgbench/count-instructions.sh; docs/desk.md). A domain's constraints
-- are read once per session (the type cache) and checked wherever a value becomes the domain,
-- so the same rules cost a renewal nearly nothing. The rules are unchanged, only their home:
-- each domain holds exactly the check its column had, with NULL passing as it did.
--
-- The checks that relate two columns (a period's end after its start, a renewal audit naming
-- its period) cannot be domains and stay on their tables.
--
-- No table is rewritten: a column moves to a domain without constraints (same storage, its
-- indexes kept), then the domain gets its constraint, which scans the columns once to prove
-- what the old checks already guaranteed. The four SQL-bodied helpers that read these columns
-- hold dependencies on them, so they are dropped and created again, unchanged (they take their
-- row types as arguments, so nothing else changes for their callers).

CREATE DOMAIN public.rd_key AS text;
CREATE DOMAIN public.rd_subscription_status AS text;
CREATE DOMAIN public.rd_currency_code AS text;
CREATE DOMAIN public.rd_recorded_by AS text;
CREATE DOMAIN public.rd_amount_minor AS bigint;
CREATE DOMAIN public.rd_audit_transition AS text;
CREATE DOMAIN public.rd_actor_type AS text;

DROP FUNCTION public.rd_billing_period_json(public.subscription_billing_periods);
DROP FUNCTION public.rd_subscription_state_json(public.subscriptions);
DROP FUNCTION public.rd_audit_canonical(public.subscription_transition_audits);
DROP FUNCTION public.rd_case_is_applicable(public.reconciliation_cases);

ALTER TABLE public.subscriptions
    ALTER COLUMN provider_key TYPE public.rd_key,
    ALTER COLUMN provider_subscription_id TYPE public.rd_key,
    ALTER COLUMN status TYPE public.rd_subscription_status;
ALTER TABLE public.subscription_billing_periods
    ALTER COLUMN provider_renewal_key TYPE public.rd_key,
    ALTER COLUMN currency TYPE public.rd_currency_code,
    ALTER COLUMN recorded_by TYPE public.rd_recorded_by,
    ALTER COLUMN paid_amount_minor TYPE public.rd_amount_minor;
ALTER TABLE public.subscription_transition_audits
    ALTER COLUMN transition TYPE public.rd_audit_transition,
    ALTER COLUMN actor_type TYPE public.rd_actor_type;

ALTER DOMAIN public.rd_key ADD CONSTRAINT rd_key_not_empty CHECK (VALUE <> '');
ALTER DOMAIN public.rd_subscription_status ADD CONSTRAINT rd_subscription_status_known
    CHECK (VALUE IN ('trialing', 'active', 'past_due', 'paused', 'unpaid', 'incomplete',
                     'canceled'));
ALTER DOMAIN public.rd_currency_code ADD CONSTRAINT rd_currency_code_iso
    CHECK (VALUE ~ '^[A-Z]{3}$');
ALTER DOMAIN public.rd_recorded_by ADD CONSTRAINT rd_recorded_by_known
    CHECK (VALUE IN ('webhook', 'operator', 'snapshot', 'import'));
ALTER DOMAIN public.rd_amount_minor ADD CONSTRAINT rd_amount_minor_non_negative
    CHECK (VALUE >= 0);
ALTER DOMAIN public.rd_audit_transition ADD CONSTRAINT rd_audit_transition_known
    CHECK (VALUE IN ('subscription_imported', 'subscription_renewed',
                     'subscription_reconciled'));
ALTER DOMAIN public.rd_actor_type ADD CONSTRAINT rd_actor_type_known
    CHECK (VALUE IN ('webhook', 'operator', 'import', 'system'));

ALTER TABLE public.subscriptions
    DROP CONSTRAINT subscriptions_provider_key_check,
    DROP CONSTRAINT subscriptions_provider_subscription_id_check,
    DROP CONSTRAINT subscriptions_status_check;
ALTER TABLE public.subscription_billing_periods
    DROP CONSTRAINT subscription_billing_periods_provider_renewal_key_check,
    DROP CONSTRAINT subscription_billing_periods_currency_check,
    DROP CONSTRAINT subscription_billing_periods_recorded_by_check,
    DROP CONSTRAINT billing_period_non_negative_payment;
ALTER TABLE public.subscription_transition_audits
    DROP CONSTRAINT subscription_transition_audits_transition_check,
    DROP CONSTRAINT subscription_transition_audits_actor_type_check;

-- As 0002, 0003 (0006's STABLE) and 0007 wrote them.
CREATE FUNCTION public.rd_billing_period_json(bp public.subscription_billing_periods)
    RETURNS jsonb
    LANGUAGE sql STABLE
    RETURN pg_catalog.jsonb_build_object(
        'id', bp.id, 'subscriptionId', bp.subscription_id, 'providerKey', bp.provider_key,
        'providerRenewalKey', bp.provider_renewal_key, 'providerEventId', bp.provider_event_id,
        'period', public.rd_period_json(bp.period_start, bp.period_end),
        'paidAmountMinor', bp.paid_amount_minor, 'currency', bp.currency,
        'paidAt', public.rd_rfc3339(bp.paid_at), 'recordedBy', bp.recorded_by);

CREATE FUNCTION public.rd_subscription_state_json(s public.subscriptions)
    RETURNS jsonb
    LANGUAGE sql STABLE
    RETURN pg_catalog.jsonb_build_object(
        'subscriptionId', s.id, 'status', s.status,
        'currentPeriod', public.rd_period_json(s.current_period_start, s.current_period_end),
        'cancelAtPeriodEnd', s.cancel_at_period_end, 'providerVersion', s.provider_version,
        'revision', s.revision);

CREATE FUNCTION public.rd_audit_canonical(a public.subscription_transition_audits)
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

CREATE FUNCTION public.rd_case_is_applicable(c public.reconciliation_cases)
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
