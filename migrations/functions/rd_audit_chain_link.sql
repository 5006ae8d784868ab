REVOKE ALL ON FUNCTION public.rd_audit_chain_link()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

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
