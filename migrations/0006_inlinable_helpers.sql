-- The JSON and hashing helpers the renewal path calls on every renewal were declared
-- IMMUTABLE, but they call STABLE functions (to_char, jsonb_build_object, convert_to).
-- PostgreSQL never inlines a SQL function whose body is more volatile than its label, so
-- each call went through the SQL-function executor, which parses and plans the body again for
-- every statement execution (perf put that executor at a tenth of the server's samples).
-- With the truthful label they are inlined into the plans that call them, once per session,
-- and `renewalctl bench --workers 8` went from 1,705-1,839 to 2,181-2,311 renewals/s.
-- Nothing depends on them being IMMUTABLE (no index or generated column uses them), and their
-- results are unchanged, so the audit hash chains stay valid.
ALTER FUNCTION rd_rfc3339(timestamptz) STABLE;
ALTER FUNCTION rd_period_json(timestamptz, timestamptz) STABLE;
ALTER FUNCTION rd_sha256_hex(text) STABLE;
ALTER FUNCTION rd_audit_canonical(subscription_transition_audits) STABLE;
ALTER FUNCTION rd_case_history_canonical(reconciliation_case_history) STABLE;
