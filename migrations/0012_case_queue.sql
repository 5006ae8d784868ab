-- The desk's case queue by age.
--
-- The queue lists the cases of one status (open, resolved, dismissed) by last seen, newest
-- first, on reconciliation_cases_queue (status, last_seen_at DESC, id), or by age: when the
-- case was opened (first_seen_at), oldest or newest first. This index serves the age order the
-- way the queue index serves the last-seen order: one range scan of the status, read forwards
-- or backwards, stopped at the queue's limit. "All" reads the three statuses so and merges them.
CREATE INDEX reconciliation_cases_by_age
    ON public.reconciliation_cases (status, first_seen_at, id);
