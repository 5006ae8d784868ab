-- The desk's audit log (ui/models/auditlog.cpp): subscription_transition_audits and
-- reconciliation_case_history as one list, newest first, filtered. Each page reads each table
-- in (created_at DESC, id DESC) after the last row shown, so each table needs that order as an
-- index, and a filter that keeps few rows needs an index that leads with it; a filter that
-- keeps many rows (a provider, the ingest role) reads the time order and stops at the page.
--
-- The renewal path writes one audit row per renewal, so every index on the audit table costs
-- each renewal one more insert. Complete: the time order, and the database role (a role may
-- have written renewals or not; its rows are appended at the end of its range, as the time
-- order's are). Partial, over the rows no renewal writes: the filters for people and programs
-- (an operator's login, an import's name) and for the transitions other than renewals.
-- `renewalctl bench` measured with and without them: docs/desk.md.

CREATE INDEX subscription_audits_recent
    ON public.subscription_transition_audits (created_at, id);

CREATE INDEX subscription_audits_by_transition
    ON public.subscription_transition_audits (transition, created_at, id)
    WHERE transition <> 'subscription_renewed';

CREATE INDEX subscription_audits_by_actor
    ON public.subscription_transition_audits (actor_id, created_at, id)
    WHERE actor_type <> 'webhook';

CREATE INDEX subscription_audits_by_role
    ON public.subscription_transition_audits (db_role, created_at, id);

CREATE INDEX reconciliation_case_history_recent
    ON public.reconciliation_case_history (created_at, id);
