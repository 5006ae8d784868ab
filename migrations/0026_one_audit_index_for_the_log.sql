-- The audit log's three time-ordered indexes on the audit rows become one (#15). 0017 and
-- 0022 gave subscription_transition_audits an index in time order for the whole log, one led
-- by the database role and one led by the provider: three index entries for every renewal.
-- The renewal path is bound by the WAL flush on this kind of machine, and these three were the
-- largest part of what #15 added to each renewal's WAL (254 of its 714 bytes;
-- bench/pgbench/count-instructions.sh, docs/desk.md).
--
-- One index, (provider_key, db_role, created_at, id), serves the same pages: a log filtered by
-- provider and role is one range of it; by provider, by role, or by nothing at all, it is the
-- newest rows of each (provider, role) pair's range merged (ui/models/auditlog.cpp), and there
-- are few pairs (a provider's rows are written by its ingest role, the operators' and the
-- owner's). The pairs themselves are found by a loose scan of the same index.

CREATE INDEX subscription_audits_by_provider_role
    ON public.subscription_transition_audits (provider_key, db_role, created_at, id);
DROP INDEX public.subscription_audits_recent;
DROP INDEX public.subscription_audits_by_role;
DROP INDEX public.subscription_audits_by_provider;
