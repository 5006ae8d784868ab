REVOKE ALL ON FUNCTION public.audit_case_history_heads()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.audit_case_history_heads() TO renewal_viewer;

CREATE OR REPLACE FUNCTION public.audit_case_history_heads()
 RETURNS TABLE(chain text, chain_id text, chain_seq bigint, row_hash text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT DISTINCT ON (case_id) 'reconciliation_case_history', case_id::text, chain_seq, row_hash
      FROM reconciliation_case_history ORDER BY case_id, chain_seq DESC;
$function$;
