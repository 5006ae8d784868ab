-- The desk's id search, index-driven whatever the server's collation.
--
-- The subscriptions list searches provider_subscription_id two ways (ui/models/
-- subscriptionsmodel.cpp): "starts with" (LIKE 'prefix%') and "contains" (LIKE '%fragment%',
-- what support pastes). The unique index (provider_key, provider_subscription_id) uses the
-- column's collation, the database default: on the embedded cluster that is C and a LIKE prefix
-- is a range of it, but on a database created with C.UTF-8 or en_US.UTF-8 (a managed or
-- packaged server) a LIKE prefix cannot be a range of a linguistic order, and the search walked
-- every row of the provider. So:
--
-- * subscriptions_id_search orders the ids bytewise (COLLATE "C") within a provider: a prefix
--   is one range of it on every server, and the search's pages are read in this order (their
--   keyset compares ids COLLATE "C" too).
-- * subscriptions_id_contains and reconciliation_cases_id_contains are trigram indexes
--   (pg_trgm, in Debian's postgresql-15 contrib; a trusted extension, so the database owner
--   that runs the migrations may create it): a fragment of three characters or more is found
--   without reading the rows that do not contain it.

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE INDEX subscriptions_id_search
    ON public.subscriptions (provider_key, provider_subscription_id COLLATE "C");

CREATE INDEX subscriptions_id_contains
    ON public.subscriptions USING gin (provider_subscription_id public.gin_trgm_ops);

CREATE INDEX reconciliation_cases_id_contains
    ON public.reconciliation_cases USING gin (provider_subscription_id public.gin_trgm_ops);
