REVOKE ALL ON FUNCTION public.audit_chain_breaks()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

CREATE OR REPLACE FUNCTION public.audit_chain_breaks()
 RETURNS TABLE(chain text, chain_id text, row_id bigint, chain_seq bigint, problem text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    WITH a AS (
        SELECT t.id, t.subscription_id::text AS cid, t.chain_seq, t.prev_hash, t.row_hash,
               rd_sha256_hex(rd_audit_canonical(t)) AS expected,
               lag(t.row_hash) OVER w AS prev_row_hash, lag(t.chain_seq) OVER w AS prev_seq
          FROM subscription_transition_audits t
        WINDOW w AS (PARTITION BY t.subscription_id ORDER BY t.chain_seq)),
    h AS (
        SELECT t.id, t.case_id::text AS cid, t.chain_seq, t.prev_hash, t.row_hash,
               rd_sha256_hex(rd_case_history_canonical(t)) AS expected,
               lag(t.row_hash) OVER w AS prev_row_hash, lag(t.chain_seq) OVER w AS prev_seq
          FROM reconciliation_case_history t
        WINDOW w AS (PARTITION BY t.case_id ORDER BY t.chain_seq)),
    checked AS (
        SELECT 'subscription_transition_audits' AS chain, * FROM a
        UNION ALL
        SELECT 'reconciliation_case_history', * FROM h),
    found AS (
        SELECT 0 AS part, chain, cid, id, chain_seq,
               CASE WHEN expected <> row_hash THEN 'row content does not match its hash (altered)'
                    WHEN prev_seq IS NULL AND chain_seq <> 1
                        THEN 'rows before this one are missing (removed)'
                    WHEN prev_seq IS NOT NULL AND chain_seq <> prev_seq + 1
                        THEN 'the row before this one is missing (removed)'
                    ELSE 'the previous row''s hash does not match (altered or removed)'
               END AS problem
          FROM checked
         WHERE expected <> row_hash
            OR (prev_seq IS NULL AND (chain_seq <> 1 OR prev_hash <> ''))
            OR (prev_seq IS NOT NULL AND (chain_seq <> prev_seq + 1 OR prev_hash <> prev_row_hash))
        -- Then every billing period against the hashed audit row that recorded it (#39).
        UNION ALL
        SELECT 1, p.chain, p.chain_id, p.row_id, p.chain_seq, p.problem
          FROM public.audit_billing_period_breaks() p)
    SELECT chain, cid, id, chain_seq, problem
      FROM found
     ORDER BY part, chain DESC, cid, chain_seq, CASE WHEN part = 1 THEN problem END;
$function$;
