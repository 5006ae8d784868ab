-- The chain triggers read the provider from the row before, not from the owner (#15).
-- 0022 copied each audit row's and case history entry's provider from its subscription or
-- case with a query of its own: on the renewal path that second query cost 26,000 of the
-- renewal's 2.7 million instructions (bench/pgbench/count-instructions.sh; docs/desk.md). The
-- trigger already reads the chain's last row for its sequence and hash; that row carries the
-- same provider, so it is read in the same probe. Only a chain's first row (a subscription's
-- import, a case's opening) still looks the owner up.
--
-- The provider stays the owner's own: every row was written by this trigger or by 0022's
-- backfill, both from the owner; a writer's value is still overwritten; the append-only
-- triggers refuse changing it; and a subscription's or a case's provider never changes.

CREATE OR REPLACE FUNCTION public.rd_audit_chain_link() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    last_seq bigint;
    last_hash text;
    chain_provider text;
BEGIN
    SELECT a.chain_seq, a.row_hash, a.provider_key INTO last_seq, last_hash, chain_provider
      FROM public.subscription_transition_audits a
     WHERE a.subscription_id OPERATOR(pg_catalog.=) NEW.subscription_id
     ORDER BY a.chain_seq DESC LIMIT 1;
    IF chain_provider IS NULL THEN
        SELECT s.provider_key INTO chain_provider
          FROM public.subscriptions s WHERE s.id OPERATOR(pg_catalog.=) NEW.subscription_id;
    END IF;
    NEW.chain_seq := coalesce(last_seq, 0) OPERATOR(pg_catalog.+) 1;
    NEW.prev_hash := coalesce(last_hash, '');
    NEW.row_hash := public.rd_sha256_hex(public.rd_audit_canonical(NEW));
    NEW.provider_key := chain_provider;
    RETURN NEW;
END;
$$;

CREATE OR REPLACE FUNCTION public.rd_case_history_chain_link() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    last_seq bigint;
    last_hash text;
    chain_provider text;
BEGIN
    SELECT h.chain_seq, h.row_hash, h.provider_key INTO last_seq, last_hash, chain_provider
      FROM public.reconciliation_case_history h
     WHERE h.case_id OPERATOR(pg_catalog.=) NEW.case_id
     ORDER BY h.chain_seq DESC LIMIT 1;
    IF chain_provider IS NULL THEN
        SELECT c.provider_key INTO chain_provider
          FROM public.reconciliation_cases c WHERE c.id OPERATOR(pg_catalog.=) NEW.case_id;
    END IF;
    NEW.chain_seq := coalesce(last_seq, 0) OPERATOR(pg_catalog.+) 1;
    NEW.prev_hash := coalesce(last_hash, '');
    NEW.row_hash := public.rd_sha256_hex(public.rd_case_history_canonical(NEW));
    NEW.provider_key := chain_provider;
    RETURN NEW;
END;
$$;
