REVOKE ALL ON FUNCTION public.audit_chain_hash_at(text,text,bigint)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.audit_chain_hash_at(text,text,bigint) TO renewal_viewer;

-- The stored hash at a position of a chain (to check an exported anchor).
CREATE OR REPLACE FUNCTION public.audit_chain_hash_at(p_chain text, p_chain_id text, p_seq bigint)
 RETURNS text
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT row_hash FROM subscription_transition_audits
     WHERE p_chain = 'subscription_transition_audits'
       AND subscription_id = p_chain_id::uuid AND chain_seq = p_seq
    UNION ALL
    SELECT row_hash FROM reconciliation_case_history
     WHERE p_chain = 'reconciliation_case_history'
       AND case_id = p_chain_id::bigint AND chain_seq = p_seq;
$function$;
