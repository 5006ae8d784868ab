REVOKE ALL ON FUNCTION public.rd_chain_link()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- One link of a hash chain (0038), for both chained tables: a subscription's chain in
-- subscription_transition_audits and a case's in reconciliation_case_history. The new row
-- gets the next sequence number of its chain, the previous link's hash, the chain's provider
-- (the first link takes it from the subscription or the case, whatever the writer named) and
-- its own hash over its canonical text (rd_audit_canonical, rd_case_history_canonical), which
-- leaves the provider out.
--
-- One branch a table, of static SQL: plpgsql compiles a trigger function once for each table
-- it fires on and prepares a statement when it first runs, so each table's session plans only
-- its own branch (an EXECUTE of SQL built from trigger arguments would plan at every insert).
-- The table is told by TG_RELID, an oid, against a constant: TG_TABLE_NAME, a name built for
-- the purpose, counted about 2,000 instructions a renewal more (docs/benchmarks.md).
CREATE OR REPLACE FUNCTION public.rd_chain_link() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF TG_RELID OPERATOR(pg_catalog.=) 'public.subscription_transition_audits'::pg_catalog.regclass THEN
        SELECT a.chain_seq OPERATOR(pg_catalog.+) 1, a.row_hash, a.provider_key
          INTO NEW.chain_seq, NEW.prev_hash, NEW.provider_key
          FROM public.subscription_transition_audits a
         WHERE a.subscription_id OPERATOR(pg_catalog.=) NEW.subscription_id
         ORDER BY a.chain_seq DESC LIMIT 1;
        IF NOT FOUND THEN
            NEW.chain_seq := 1;
            NEW.prev_hash := '';
            SELECT s.provider_key INTO NEW.provider_key
              FROM public.subscriptions s WHERE s.id OPERATOR(pg_catalog.=) NEW.subscription_id;
        END IF;
        NEW.row_hash := public.rd_sha256_hex(public.rd_audit_canonical(NEW));
    ELSE
        SELECT h.chain_seq OPERATOR(pg_catalog.+) 1, h.row_hash, h.provider_key
          INTO NEW.chain_seq, NEW.prev_hash, NEW.provider_key
          FROM public.reconciliation_case_history h
         WHERE h.case_id OPERATOR(pg_catalog.=) NEW.case_id
         ORDER BY h.chain_seq DESC LIMIT 1;
        IF NOT FOUND THEN
            NEW.chain_seq := 1;
            NEW.prev_hash := '';
            SELECT c.provider_key INTO NEW.provider_key
              FROM public.reconciliation_cases c WHERE c.id OPERATOR(pg_catalog.=) NEW.case_id;
        END IF;
        NEW.row_hash := public.rd_sha256_hex(public.rd_case_history_canonical(NEW));
    END IF;
    RETURN NEW;
END;
$$;
