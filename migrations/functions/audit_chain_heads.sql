REVOKE ALL ON FUNCTION public.audit_chain_heads()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.audit_chain_heads() TO renewal_viewer;

-- The current head of every chain, for anchoring outside the database.
CREATE OR REPLACE FUNCTION public.audit_chain_heads()
 RETURNS TABLE(chain text, chain_id text, chain_seq bigint, row_hash text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT DISTINCT ON (subscription_id) 'subscription_transition_audits', subscription_id::text,
           chain_seq, row_hash
      FROM subscription_transition_audits ORDER BY subscription_id, chain_seq DESC;
$function$;
