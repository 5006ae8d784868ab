-- Webhook ingestion and outbox publishing: the configured billing providers, an inbox that
-- keeps every delivered payload as evidence, and the functions the ingest role and the outbox
-- publisher call. Writes stay behind SECURITY DEFINER functions (see 0003's permission model).

CREATE TABLE billing_providers (
    -- The configured name deliveries arrive under ("stripe-main"); renewal keys are unique
    -- per provider key, so one account registered twice would split its renewals.
    provider_key text PRIMARY KEY CHECK (provider_key ~ '^[a-z0-9][a-z0-9_.-]{0,62}$'),
    kind         text NOT NULL CHECK (kind IN ('stripe', 'paddle', 'chargebee', 'recurly',
                     'lemonsqueezy')),
    display_name text NOT NULL CHECK (display_name <> ''),
    created_at   timestamptz NOT NULL DEFAULT now(),
    created_by   text NOT NULL DEFAULT session_user
);

CREATE TABLE webhook_inbox (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    provider_key      text NOT NULL REFERENCES billing_providers (provider_key),
    -- The provider's delivery id, or "sha256:<hex>" of the body when it has none (or the
    -- body is too broken to tell): a byte-identical redelivery then still deduplicates.
    provider_event_id text NOT NULL CHECK (provider_event_id <> ''),
    -- The payload byte for byte (invalid UTF-8 and non-JSON included), at most 1 MiB of it:
    -- a larger body keeps its first MiB, its full size and the SHA-256 of all of it.
    raw_body          bytea NOT NULL CHECK (octet_length(raw_body) <= 1048576),
    body_size         bigint NOT NULL CHECK (body_size >= 0),
    body_sha256       text NOT NULL CHECK (body_sha256 ~ '^[0-9a-f]{64}$'),
    body_truncated    boolean GENERATED ALWAYS AS (octet_length(raw_body) < body_size) STORED,
    received_at       timestamptz NOT NULL DEFAULT now(),
    -- Later deliveries of the same event id only count here (transport-level dedup): they are
    -- reported as duplicate_delivery and never processed again.
    deliveries        integer NOT NULL DEFAULT 1 CHECK (deliveries > 0),
    last_delivery_at  timestamptz NOT NULL DEFAULT now(),
    -- NULL while the payload is being processed (or when the process died doing so: the next
    -- delivery of the same event id then processes it, safely, since the core is idempotent).
    outcome           text CHECK (outcome IN ('applied', 'duplicate', 'not_a_renewal',
                          'needs_snapshot', 'rejected', 'invalid')),
    reason            text, -- the adapter's reason code ("first_invoice", "renewal", ...)
    error             text, -- the core's error code, or the adapter's message for invalid
    billing_period_id uuid REFERENCES subscription_billing_periods (id),
    case_id           bigint REFERENCES reconciliation_cases (id),
    normalized        jsonb, -- the adapter's Normalization JSON
    processed_at      timestamptz,
    CONSTRAINT webhook_inbox_delivery_once UNIQUE (provider_key, provider_event_id),
    CONSTRAINT webhook_inbox_processed_consistent
        CHECK ((outcome IS NULL) = (processed_at IS NULL))
);
-- The desk lists the newest deliveries, optionally one outcome.
CREATE INDEX webhook_inbox_recent ON webhook_inbox (received_at DESC, id DESC);
CREATE INDEX webhook_inbox_by_outcome ON webhook_inbox (outcome, received_at DESC, id DESC);
CREATE INDEX webhook_inbox_unprocessed ON webhook_inbox (received_at) WHERE outcome IS NULL;

-- A case opened by ingestion points at the payload it came from.
ALTER TABLE reconciliation_cases ADD COLUMN inbox_id bigint REFERENCES webhook_inbox (id);

------------------------------------------------------------------------------------------
-- Providers.
------------------------------------------------------------------------------------------

-- Registers a provider. Registering it again identically is a no-op ('exists'); with another
-- kind or name it is refused: deliveries already stored were normalized with the old kind.
CREATE FUNCTION register_billing_provider(p_key text, p_kind text, p_display_name text)
    RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
DECLARE
    p billing_providers%ROWTYPE;
BEGIN
    INSERT INTO billing_providers (provider_key, kind, display_name)
    VALUES (p_key, p_kind, coalesce(nullif(p_display_name, ''), p_key))
    ON CONFLICT (provider_key) DO NOTHING;
    IF FOUND THEN
        RETURN 'created';
    END IF;
    SELECT * INTO p FROM billing_providers WHERE provider_key = p_key;
    IF p.kind = p_kind AND (p_display_name IS NULL OR p_display_name = ''
                            OR p.display_name = p_display_name) THEN
        RETURN 'exists';
    END IF;
    RAISE EXCEPTION 'provider_exists: provider % is already registered as % (%)', p_key, p.kind,
        p.display_name USING ERRCODE = 'P0001';
END;
$$;

------------------------------------------------------------------------------------------
-- Ingestion: one call to record a delivery, one to record what became of it.
------------------------------------------------------------------------------------------

-- Records one delivery. A new event id gets a row (with its outcome when already known, e.g.
-- invalid or not_a_renewal). A known one counts one more delivery and returns the stored row:
-- `is_new` false and `outcome` set means "duplicate delivery, do nothing"; `outcome` NULL
-- means the first delivery never finished, and the caller processes it now.
CREATE FUNCTION ingest_record(p_provider_key text, p_provider_event_id text, p_raw_body bytea,
                              p_body_size bigint, p_body_sha256 text, p_outcome text,
                              p_reason text, p_error text, p_normalized jsonb,
                              OUT inbox_id bigint, OUT is_new boolean, OUT outcome text,
                              OUT billing_period_id uuid, OUT case_id bigint)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
BEGIN
    INSERT INTO webhook_inbox AS w (provider_key, provider_event_id, raw_body, body_size,
                                    body_sha256, outcome, reason, error, normalized,
                                    processed_at)
    VALUES (p_provider_key, p_provider_event_id, p_raw_body, p_body_size, p_body_sha256,
            p_outcome, p_reason, p_error, p_normalized,
            CASE WHEN p_outcome IS NOT NULL THEN now() END)
    ON CONFLICT (provider_key, provider_event_id)
    DO UPDATE SET deliveries = w.deliveries + 1, last_delivery_at = now()
    RETURNING w.id, (w.xmax = 0), w.outcome, w.billing_period_id, w.case_id
         INTO inbox_id, is_new, outcome, billing_period_id, case_id;
END;
$$;

-- Records the outcome of a delivery still unprocessed. Returns false (and changes nothing)
-- when a concurrent delivery of the same event id recorded one first.
CREATE FUNCTION ingest_set_outcome(p_inbox_id bigint, p_outcome text, p_error text,
                                   p_billing_period_id uuid, p_case_id bigint)
    RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
BEGIN
    UPDATE webhook_inbox
       SET outcome = p_outcome, error = p_error, billing_period_id = p_billing_period_id,
           case_id = p_case_id, processed_at = now()
     WHERE id = p_inbox_id AND outcome IS NULL;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    IF p_case_id IS NOT NULL THEN
        -- The first payload that opened (or re-occurred in) the case is its evidence.
        UPDATE reconciliation_cases SET inbox_id = p_inbox_id
         WHERE id = p_case_id AND inbox_id IS NULL;
    END IF;
    RETURN true;
END;
$$;

-- A renewal whose payload lacks facts (Lemon Squeezy's period): opens a needs_snapshot case
-- judged against the subscription as it is now, and records it on the inbox row.
-- p_event needs providerKey, providerSubscriptionId, providerRenewalKey, providerEventId.
CREATE FUNCTION ingest_open_snapshot_case(p_inbox_id bigint, p_event jsonb) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
DECLARE
    state jsonb;
    new_case bigint;
BEGIN
    SELECT rd_subscription_state_json(s) INTO state FROM subscriptions s
     WHERE s.provider_key = p_event->>'providerKey'
       AND s.provider_subscription_id = p_event->>'providerSubscriptionId';
    new_case := record_reconciliation_case(
        p_event, 'needs_snapshot', coalesce(state, jsonb_build_object('subscriptionId', NULL)));
    PERFORM ingest_set_outcome(p_inbox_id, 'needs_snapshot', NULL, NULL, new_case);
    RETURN new_case;
END;
$$;

------------------------------------------------------------------------------------------
-- Outbox publishing. A publisher claims a small batch FOR UPDATE SKIP LOCKED in a transaction
-- that it keeps open while it delivers the batch and marks each intent: the row locks are the
-- claim. Two publishers can then never deliver one intent at the same time, and a publisher
-- that dies releases its claim with its session (no lease to expire while a slow sink is
-- still delivering). Delivery is at least once: a crash after the sink accepted an intent and
-- before COMMIT leaves it pending, and it is delivered again.
------------------------------------------------------------------------------------------

CREATE FUNCTION outbox_claim(p_batch integer, p_max_attempts integer)
    RETURNS TABLE (id uuid, event_type text, subscription_id uuid, billing_period_id uuid,
                   payload jsonb, attempts integer, created_at timestamptz)
    LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
    SELECT o.id, o.event_type, o.subscription_id, o.billing_period_id, o.payload, o.attempts,
           o.created_at
      FROM subscription_outbox o
     WHERE o.published_at IS NULL AND o.next_attempt_at <= now()
       AND (p_max_attempts IS NULL OR o.attempts < p_max_attempts)
     ORDER BY o.next_attempt_at, o.created_at
     LIMIT greatest(p_batch, 1)
       FOR UPDATE SKIP LOCKED;
$$;

CREATE FUNCTION outbox_mark_published(p_ids uuid[]) RETURNS integer
    LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
    WITH done AS (
        UPDATE subscription_outbox
           SET published_at = now(), attempts = attempts + 1, last_error = NULL
         WHERE id = ANY (p_ids) AND published_at IS NULL
        RETURNING 1)
    SELECT count(*)::integer FROM done;
$$;

-- Bounded exponential backoff: base × 2^(attempts so far), at most p_max_delay.
CREATE FUNCTION outbox_mark_failed(p_id uuid, p_error text, p_base_delay interval,
                                   p_max_delay interval) RETURNS timestamptz
    LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
    UPDATE subscription_outbox
       SET attempts = attempts + 1, last_error = left(p_error, 2000),
           next_attempt_at = now() + least(p_max_delay,
                                           p_base_delay * power(2, least(attempts, 30)))
     WHERE id = p_id AND published_at IS NULL
    RETURNING next_attempt_at;
$$;

-- No NOTIFY from the renewal path: PostgreSQL serializes every notifying transaction through
-- its commit (a cluster-wide lock held until after the WAL flush), which would turn group
-- commit into one renewal per disk flush. `outbox publish --follow` polls a partial index
-- instead (cheap), and still LISTENs on renewal_desk_outbox for tools that want to wake it.

------------------------------------------------------------------------------------------
-- Privileges. 0003's GRANT SELECT ON ALL TABLES only covered the tables of that time.
------------------------------------------------------------------------------------------

REVOKE ALL ON billing_providers, webhook_inbox FROM PUBLIC;
GRANT SELECT ON billing_providers, webhook_inbox TO renewal_viewer;

REVOKE EXECUTE ON FUNCTION
    register_billing_provider(text, text, text),
    ingest_record(text, text, bytea, bigint, text, text, text, text, jsonb),
    ingest_set_outcome(bigint, text, text, uuid, bigint),
    ingest_open_snapshot_case(bigint, jsonb),
    outbox_claim(integer, integer),
    outbox_mark_published(uuid[]),
    outbox_mark_failed(uuid, text, interval, interval)
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION register_billing_provider(text, text, text) TO renewal_operator;
GRANT EXECUTE ON FUNCTION
    ingest_record(text, text, bytea, bigint, text, text, text, text, jsonb),
    ingest_set_outcome(bigint, text, text, uuid, bigint),
    ingest_open_snapshot_case(bigint, jsonb),
    outbox_claim(integer, integer),
    outbox_mark_published(uuid[]),
    outbox_mark_failed(uuid, text, interval, interval)
    TO renewal_ingest;
