-- Find anything, for the desk and for `renewalctl find` (#42): one search (find_anything), whose
-- every lookup is an index probe.

-- A subscription id that only a case carries (a renewal of a subscription the desk does not
-- know): the cases of a provider subscription, one descent per provider key. The trigram index
-- (0044) answers substrings for the desk's search box, not this equality at the planner's
-- estimate.
CREATE INDEX reconciliation_cases_by_provider_subscription
    ON public.reconciliation_cases (provider_key, provider_subscription_id);

-- ... and one that only a delivery carries, in its normalized event (a needs-snapshot, a
-- rejected or an invalid delivery). Partial: deliveries that name no subscription are not in it.
CREATE INDEX webhook_inbox_by_provider_subscription
    ON public.webhook_inbox (provider_key, (normalized ->> 'providerSubscriptionId'))
    WHERE (normalized ->> 'providerSubscriptionId') IS NOT NULL;

-- A customer's e-mail is kept as its HMAC-SHA256 under this database's own key, in the
-- normalized event (customerEmailHmac), never in clear outside the body: `inbox purge` forgets
-- the bodies and the hash stays, so Find anything still finds an address's deliveries and what
-- they name; `inbox erase --email` removes both.
CREATE INDEX webhook_inbox_by_customer_email
    ON public.webhook_inbox ((normalized ->> 'customerEmailHmac'))
    WHERE (normalized ->> 'customerEmailHmac') IS NOT NULL;

-- The key, as HMAC's two padded blocks (RFC 2104: the 32-byte key, zero-padded to SHA-256's
-- 64-byte block, XOR 0x36 and XOR 0x5c), so that a hash is two sha256() calls and no XOR.
-- Random per database: 4 random UUIDs (gen_random_uuid, PostgreSQL's strong random source)
-- through SHA-256. Nobody but the owner reads it: rd_customer_email_hmac (SECURITY DEFINER)
-- uses it, and it never leaves the database (a backup carries it with the hashes it made).
CREATE TABLE public.customer_email_key (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    inner_pad bytea NOT NULL CHECK (octet_length(inner_pad) = 64),
    outer_pad bytea NOT NULL CHECK (octet_length(outer_pad) = 64),
    created_at timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON public.customer_email_key
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest, renewal_payload_reader;

DO $$
DECLARE
    v_block bytea := pg_catalog.sha256(
        pg_catalog.uuid_send(pg_catalog.gen_random_uuid())
        || pg_catalog.uuid_send(pg_catalog.gen_random_uuid())
        || pg_catalog.uuid_send(pg_catalog.gen_random_uuid())
        || pg_catalog.uuid_send(pg_catalog.gen_random_uuid()))
        || pg_catalog.decode(pg_catalog.repeat('00', 32), 'hex');
    v_inner bytea := v_block;
    v_outer bytea := v_block;
BEGIN
    FOR i IN 0..63 LOOP
        v_inner := pg_catalog.set_byte(v_inner, i, pg_catalog.get_byte(v_block, i) # 54);
        v_outer := pg_catalog.set_byte(v_outer, i, pg_catalog.get_byte(v_block, i) # 92);
    END LOOP;
    INSERT INTO public.customer_email_key (inner_pad, outer_pad) VALUES (v_inner, v_outer);
END;
$$;

-- An erasure by e-mail names no subscription: it counts the hashes it removed instead.
ALTER TABLE public.webhook_inbox_removals ADD COLUMN customer_email_hashes integer
    CHECK (customer_email_hashes >= 0);
ALTER TABLE public.webhook_inbox_removals DROP CONSTRAINT webhook_inbox_removal_says_why;
ALTER TABLE public.webhook_inbox_removals ADD CONSTRAINT webhook_inbox_removal_says_why CHECK (
    CASE kind
        WHEN 'retention' THEN run IS NOT NULL AND retention_days IS NOT NULL
            AND configured IS NOT NULL AND received_before IS NOT NULL AND request IS NULL
        ELSE public.rd_note_text(request) IS NOT NULL
            AND (provider_subscription_id IS NOT NULL) <> (customer_email_hashes IS NOT NULL)
    END);
