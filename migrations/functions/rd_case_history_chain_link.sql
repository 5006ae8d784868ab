REVOKE ALL ON FUNCTION public.rd_case_history_chain_link()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

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
