-- The audit log filtered by provider (#15). An audit row names its subscription, not the
-- subscription's provider, so the filter walked the time order joining every row to its
-- subscription until a page of that provider's rows was found: 1.5 s for paddle-eu on 13 M
-- audit rows, whose newest 72,000 rows belonged to other providers (the budget is 50 ms).
--
-- Each audit row and each case history entry now carries its provider, copied by the chain
-- trigger that already runs on every insert (from the subscription, or from the case), so no
-- writer can name another; one index (provider_key, created_at, id) per table serves the
-- filter as one range read newest first. A subscription's or a case's provider never changes,
-- so the copy never goes stale. It is an index aid, not evidence: the row hash does not cover
-- it (the chains stay verifiable as they were), and the audit log still shows the
-- subscription's or the case's own provider in its Provider column, so a tampered copy would
-- show as a row filtered under one provider and named with another.
--
-- The cost on the renewal path: one probe of the subscription's primary key (its row is
-- locked, so it is in the buffers) and one more index entry per renewal; `renewalctl bench`
-- before and after: docs/desk.md.

ALTER TABLE public.subscription_transition_audits ADD COLUMN provider_key text;
ALTER TABLE public.reconciliation_case_history ADD COLUMN provider_key text;

CREATE OR REPLACE FUNCTION public.rd_audit_chain_link() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    last_seq bigint;
    last_hash text;
BEGIN
    SELECT a.chain_seq, a.row_hash INTO last_seq, last_hash
      FROM public.subscription_transition_audits a
     WHERE a.subscription_id OPERATOR(pg_catalog.=) NEW.subscription_id
     ORDER BY a.chain_seq DESC LIMIT 1;
    NEW.chain_seq := coalesce(last_seq, 0) OPERATOR(pg_catalog.+) 1;
    NEW.prev_hash := coalesce(last_hash, '');
    NEW.row_hash := public.rd_sha256_hex(public.rd_audit_canonical(NEW));
    NEW.provider_key := (SELECT s.provider_key FROM public.subscriptions s
                          WHERE s.id OPERATOR(pg_catalog.=) NEW.subscription_id);
    RETURN NEW;
END;
$$;

CREATE OR REPLACE FUNCTION public.rd_case_history_chain_link() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    last_seq bigint;
    last_hash text;
BEGIN
    SELECT h.chain_seq, h.row_hash INTO last_seq, last_hash
      FROM public.reconciliation_case_history h
     WHERE h.case_id OPERATOR(pg_catalog.=) NEW.case_id
     ORDER BY h.chain_seq DESC LIMIT 1;
    NEW.chain_seq := coalesce(last_seq, 0) OPERATOR(pg_catalog.+) 1;
    NEW.prev_hash := coalesce(last_hash, '');
    NEW.row_hash := public.rd_sha256_hex(public.rd_case_history_canonical(NEW));
    NEW.provider_key := (SELECT c.provider_key FROM public.reconciliation_cases c
                          WHERE c.id OPERATOR(pg_catalog.=) NEW.case_id);
    RETURN NEW;
END;
$$;

-- The rows written before: copied in one rewrite of each table (an UPDATE would leave a dead
-- copy of every row behind, doubling the audit table on disk). The append-only triggers fire
-- on UPDATE and DELETE only, so a rewrite needs no exception to them. The look-up functions
-- live for this migration only (in public: PUBLIC has no TEMP here, 0007).
CREATE FUNCTION public.rd_migrate_subscription_provider(p_id uuid) RETURNS text
    LANGUAGE sql STABLE
    RETURN (SELECT s.provider_key FROM public.subscriptions s WHERE s.id = p_id);
CREATE FUNCTION public.rd_migrate_case_provider(p_id bigint) RETURNS text
    LANGUAGE sql STABLE
    RETURN (SELECT c.provider_key FROM public.reconciliation_cases c WHERE c.id = p_id);

ALTER TABLE public.subscription_transition_audits
    ALTER COLUMN provider_key TYPE text USING public.rd_migrate_subscription_provider(subscription_id),
    ALTER COLUMN provider_key SET NOT NULL;
ALTER TABLE public.reconciliation_case_history
    ALTER COLUMN provider_key TYPE text USING public.rd_migrate_case_provider(case_id),
    ALTER COLUMN provider_key SET NOT NULL;

DROP FUNCTION public.rd_migrate_subscription_provider(uuid);
DROP FUNCTION public.rd_migrate_case_provider(bigint);

CREATE INDEX subscription_audits_by_provider
    ON public.subscription_transition_audits (provider_key, created_at, id);
CREATE INDEX reconciliation_case_history_by_provider
    ON public.reconciliation_case_history (provider_key, created_at, id);

-- The rewrite left the new column without statistics; the filter's plans need them now.
ANALYZE public.subscription_transition_audits (provider_key);
ANALYZE public.reconciliation_case_history (provider_key);
