REVOKE ALL ON FUNCTION public.rd_audit_anchor_digest()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- The digest `renewalctl audit anchor` writes (domain/store/audit_anchor.cpp), computed on the
-- server from the same heads in the same order, so that the close stores the anchor of its
-- own moment and nobody can hand it another. The whole input is one string: about 140 bytes a
-- head, 140 MB at a million chains, within PostgreSQL's 1 GB value limit to about 7 million.
CREATE OR REPLACE FUNCTION public.rd_audit_anchor_digest(OUT digest text, OUT heads bigint)
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
AS $$
    SELECT pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(coalesce(
               pg_catalog.string_agg(h.chain || ':' || h.chain_id || ':' || h.chain_seq::text
                                     || ':' || h.row_hash || E'\n', '' ORDER BY h.chain,
                                     h.chain_id), ''), 'UTF8')), 'hex'),
           pg_catalog.count(*)
      FROM (SELECT * FROM public.audit_chain_heads()
            UNION ALL SELECT * FROM public.audit_case_history_heads()) h;
$$;
