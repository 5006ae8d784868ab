-- The Overview's "cases closed per UTC day" over the last 30 days.
--
-- Cases are never deleted, and most end resolved (healed by the core, re-applied) or
-- dismissed, so the closed ones grow without bound while the Overview reads a month of them.
-- Without this index that read walks every case ever opened. Partial: a case is inserted open
-- (resolved_at NULL), so opening one, on the rejection path, does not touch it; only closing
-- one does. The cases opened per day read reconciliation_cases_by_age (status, first_seen_at)
-- as three ranges, one per status.
CREATE INDEX reconciliation_cases_closed
    ON public.reconciliation_cases (resolved_at) WHERE resolved_at IS NOT NULL;
