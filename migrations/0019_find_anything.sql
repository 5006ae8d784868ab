-- Find anything (the desk's Ctrl+K): whatever id a customer or a provider gives is found by
-- one index probe per provider key (ui/models/finder.cpp). The subscription's ids, a renewal
-- key on billing periods, an inbox event id and the case and delivery numbers already have
-- their unique or primary-key indexes; two ids had none:
--
-- * the provider event id that recorded a billing period. A renewal applied through
--   `renewalctl apply` or a snapshot never passes the inbox, so the billing period is the only
--   place its event id is kept. This index is one more insertion on the renewal path;
--   `renewalctl bench` before and after it is in docs/desk.md (within noise).
-- * the renewal key of a case in any status. A rejected renewal is recorded nowhere else, and
--   reconciliation_cases_open_once covers open cases only. Cases are written only when a
--   renewal is rejected, off the renewal's own path.
--
-- Both compare with `=`, so the column's collation serves whatever the server's is.

CREATE INDEX billing_periods_by_event_id
    ON public.subscription_billing_periods (provider_key, provider_event_id);

CREATE INDEX reconciliation_cases_by_renewal_key
    ON public.reconciliation_cases (provider_key, provider_renewal_key);
