-- The core applied to a case's stored event, as `actor`.
--
-- Grants first, then the definition: CREATE OR REPLACE keeps them. A GRANT or REVOKE after
-- the definition would rewrite this pg_proc row from the catalog cache's copy, whose body is
-- inline and compressed; PostgreSQL's toaster then compresses the argument arrays as well, and
-- every call decompresses them (for apply_successful_renewal, +1.1 % of a renewal's
-- instructions in bench/pgbench/count-instructions.sh; docs/migrations.md). The function
-- exists: the numbered migrations created it.
REVOKE ALL ON FUNCTION public.rd_apply_case_event(jsonb,text,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- A renewal recorded here (a re-apply, a snapshot's judgment of its case, the healing of a gap)
-- records the money back that waited for it, as a delivery's does (rd_heal_money_back, #40).
CREATE OR REPLACE FUNCTION public.rd_apply_case_event(e jsonb, p_actor_type text, p_actor_id text,
    OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb)
    LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    SELECT a.result, a.billing_period_id, a.error_code, a.local_state
      INTO result, billing_period_id, error_code, local_state
      FROM public.apply_successful_renewal(
        e->>'providerKey', e->>'providerEventId', e->>'providerSubscriptionId',
        e->>'providerRenewalKey', e->>'providerVersion',
        (e->'period'->>'start')::timestamptz, (e->'period'->>'end')::timestamptz,
        (e->>'paidAmountMinor')::bigint, e->>'currency', (e->>'paidAt')::timestamptz,
        p_actor_type, p_actor_id) a;
    IF result = 'applied' THEN
        PERFORM public.rd_heal_money_back(e->>'providerKey', billing_period_id, e);
    END IF;
END;
$$;
