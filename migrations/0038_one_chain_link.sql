-- One hash-chain trigger function for both chained tables (#38): subscription_transition_audits
-- (a subscription's chain) and reconciliation_case_history (a case's) were linked by
-- rd_audit_chain_link and rd_case_history_chain_link, which differed only in their table, their
-- owner and their canonical text. Both triggers now call rd_chain_link, and the two go. The
-- rows, their hashes and the chains are what the two made: the canonical texts leave the
-- provider out, and every chain's last link has one (provider_key is NOT NULL), so "no link
-- yet" and "a link without a provider" are one case.
--
-- Its current definition is functions/rd_chain_link.sql, which replaces this one in the same
-- transaction; it is written out here because a later numbered file that inserts a chained
-- row runs before the definitions (docs/migrations.md, "Adding a function").
CREATE FUNCTION public.rd_chain_link() RETURNS trigger
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

DROP TRIGGER subscription_audits_chain_link ON public.subscription_transition_audits;
CREATE TRIGGER subscription_audits_chain_link
    BEFORE INSERT ON public.subscription_transition_audits
    FOR EACH ROW EXECUTE FUNCTION public.rd_chain_link();
DROP TRIGGER reconciliation_case_history_chain_link ON public.reconciliation_case_history;
CREATE TRIGGER reconciliation_case_history_chain_link
    BEFORE INSERT ON public.reconciliation_case_history
    FOR EACH ROW EXECUTE FUNCTION public.rd_chain_link();

DROP FUNCTION public.rd_audit_chain_link();
DROP FUNCTION public.rd_case_history_chain_link();
