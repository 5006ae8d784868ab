-- Find anything (#15) takes a provider event id. A renewal rejected outside the inbox
-- (`renewalctl apply`, a replay) keeps its event id only on its case: the first delivery's and
-- the latest one's. One probe per provider key each, as 0019's indexes: cases are written when a
-- renewal is rejected (or seen again), never on the renewal's own path.

CREATE INDEX reconciliation_cases_by_first_event_id
    ON public.reconciliation_cases (provider_key, first_provider_event_id);

CREATE INDEX reconciliation_cases_by_last_event_id
    ON public.reconciliation_cases (provider_key, last_provider_event_id);
