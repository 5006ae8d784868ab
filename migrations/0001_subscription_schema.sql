-- The renewal lesson's schema: the subscription projection, the billing periods that are the
-- renewal facts, the audit trail and the transactional outbox. The constraints are the
-- guarantees; the application code only relies on them.

CREATE TABLE subscriptions (
    id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    provider_key             text NOT NULL CHECK (provider_key <> ''),
    provider_subscription_id text NOT NULL CHECK (provider_subscription_id <> ''),
    status                   text NOT NULL CHECK (status IN ('trialing', 'active', 'past_due',
                                 'paused', 'unpaid', 'incomplete', 'canceled')),
    current_period_start     timestamptz,
    current_period_end       timestamptz,
    cancel_at_period_end     boolean NOT NULL DEFAULT false,
    provider_version         text,
    revision                 bigint NOT NULL DEFAULT 1,
    created_at               timestamptz NOT NULL DEFAULT now(),
    updated_at               timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT subscriptions_provider_subscription_unique
        UNIQUE (provider_key, provider_subscription_id),
    CONSTRAINT subscriptions_current_period_valid CHECK (
        (current_period_start IS NULL) = (current_period_end IS NULL)
        AND (current_period_end IS NULL OR current_period_end > current_period_start))
);
-- Browsing: the unique constraint above serves "by provider" and id search; these serve the
-- status filter and the "renews soon" ordering, each with a unique tail for keyset paging.
CREATE INDEX subscriptions_status_browse
    ON subscriptions (status, provider_key, provider_subscription_id);
CREATE INDEX subscriptions_period_end_browse
    ON subscriptions (current_period_end, provider_key, provider_subscription_id);

CREATE TABLE subscription_billing_periods (
    id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    subscription_id      uuid NOT NULL REFERENCES subscriptions (id),
    provider_key         text NOT NULL,
    provider_renewal_key text NOT NULL CHECK (provider_renewal_key <> ''),
    provider_event_id    text NOT NULL,
    period_start         timestamptz NOT NULL,
    period_end           timestamptz NOT NULL,
    paid_amount_minor    bigint NOT NULL,
    currency             text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    paid_at              timestamptz NOT NULL,
    recorded_by          text NOT NULL DEFAULT 'webhook'
                             CHECK (recorded_by IN ('webhook', 'operator', 'snapshot', 'import')),
    created_at           timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT billing_period_valid_range CHECK (period_end > period_start),
    CONSTRAINT billing_period_non_negative_payment CHECK (paid_amount_minor >= 0),
    CONSTRAINT billing_period_renewal_key_unique UNIQUE (provider_key, provider_renewal_key),
    CONSTRAINT billing_period_subscription_period_unique
        UNIQUE (subscription_id, period_start, period_end)
);
-- The subscription detail lists periods newest first: served by the unique index above
-- scanned backwards. "Renewals paid on a day" (finance review) needs its own.
CREATE INDEX billing_periods_paid_at ON subscription_billing_periods (paid_at);

CREATE TABLE subscription_transition_audits (
    id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subscription_id      uuid NOT NULL REFERENCES subscriptions (id),
    transition           text NOT NULL CHECK (transition IN ('subscription_imported',
                             'subscription_renewed', 'subscription_reconciled')),
    billing_period_id    uuid REFERENCES subscription_billing_periods (id),
    actor_type           text NOT NULL CHECK (actor_type IN ('webhook', 'operator', 'import',
                             'system')),
    actor_id             text NOT NULL,
    -- The database role that made the change, recorded by the database itself.
    db_role              text NOT NULL DEFAULT session_user,
    provider_event_id    text,
    provider_renewal_key text,
    period_start         timestamptz,
    period_end           timestamptz,
    reason               text,
    comment              text,
    details              jsonb NOT NULL DEFAULT '{}',
    created_at           timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT audit_renewal_has_period CHECK (
        transition <> 'subscription_renewed' OR billing_period_id IS NOT NULL)
);
-- One renewal audit per billing period, whatever the code above it does.
CREATE UNIQUE INDEX subscription_renewal_audit_once
    ON subscription_transition_audits (billing_period_id)
    WHERE transition = 'subscription_renewed';
CREATE INDEX subscription_audits_by_subscription
    ON subscription_transition_audits (subscription_id, id);

CREATE TABLE subscription_outbox (
    -- Stable id handed to consumers so that they can deduplicate an at-least-once delivery.
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    event_type        text NOT NULL,
    subscription_id   uuid NOT NULL REFERENCES subscriptions (id),
    billing_period_id uuid REFERENCES subscription_billing_periods (id),
    payload           jsonb NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    attempts          integer NOT NULL DEFAULT 0,
    next_attempt_at   timestamptz NOT NULL DEFAULT now(),
    last_error        text,
    published_at      timestamptz,
    CONSTRAINT subscription_outbox_once_per_period UNIQUE (event_type, billing_period_id)
);
CREATE INDEX subscription_outbox_pending
    ON subscription_outbox (next_attempt_at) WHERE published_at IS NULL;
CREATE INDEX subscription_outbox_by_subscription ON subscription_outbox (subscription_id);
