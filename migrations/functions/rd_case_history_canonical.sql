REVOKE ALL ON FUNCTION public.rd_case_history_canonical(public.reconciliation_case_history)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_case_history_canonical(public.reconciliation_case_history) TO renewal_viewer;

CREATE OR REPLACE FUNCTION public.rd_case_history_canonical(h public.reconciliation_case_history)
 RETURNS text
 LANGUAGE sql
 STABLE
RETURN (jsonb_build_object('caseId', (h).case_id, 'action', (h).action, 'outcome', (h).outcome, 'errorCode', (h).error_code, 'actor', (h).actor, 'reason', (h).reason, 'comment', (h).comment, 'details', (h).details, 'createdAt', public.rd_rfc3339((h).created_at), 'chainSeq', (h).chain_seq, 'prevHash', (h).prev_hash))::text;
