-- Payment trouble (#41): failed payment attempts and the provider's standing of a subscription,
-- each kept once as a dated fact, and an access verdict worked out from them, a local policy and
-- an operator's extension. Renewal Desk never retries a charge: it observes the provider's
-- dunning. Recovery is the renewal itself (the failed invoice paid), which the core records.

-- A provider's local access policy, the database owner's to set (renewalctl providers
-- set-access), like its overdue grace: how long a period may end unpaid before access is
-- blocked, and what happens when the provider gives up collecting. No row: 7 days, block.
CREATE TABLE public.access_policies (
    provider_key text PRIMARY KEY REFERENCES public.billing_providers (provider_key),
    grace_days integer NOT NULL CHECK (grace_days BETWEEN 0 AND 90),
    when_provider_gives_up text NOT NULL
        CHECK (when_provider_gives_up IN ('block', 'keep_until_period_end')),
    set_by text NOT NULL DEFAULT SESSION_USER,
    set_at timestamptz NOT NULL DEFAULT now()
);

-- One failed attempt to collect an invoice (a Paddle transaction), once on (provider, invoice,
-- attempt) whatever events tell it. Its invoice key is the renewal key the invoice has when it
-- is paid: an attempt whose invoice is a recorded renewal was recovered.
CREATE TABLE public.payment_attempts (
    id bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    provider_key public.rd_key NOT NULL,
    invoice_key public.rd_key NOT NULL,
    attempt integer NOT NULL CHECK (attempt BETWEEN 1 AND 1000),
    subscription_id uuid NOT NULL REFERENCES public.subscriptions (id),
    failed_at timestamptz NOT NULL,
    next_attempt_at timestamptz,
    decline_code text CHECK (octet_length(decline_code) BETWEEN 1 AND 100),
    amount_minor public.rd_amount_minor CHECK (amount_minor >= 0),
    currency public.rd_currency_code,
    provider_event_id public.rd_event_id NOT NULL,
    recorded_by public.rd_recorded_by NOT NULL DEFAULT 'webhook',
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (provider_key, invoice_key, attempt),
    CHECK ((amount_minor IS NULL) = (currency IS NULL))
);
CREATE INDEX payment_attempts_by_subscription
    ON public.payment_attempts (subscription_id, failed_at);
CREATE TRIGGER payment_attempts_insert_only BEFORE DELETE OR UPDATE ON public.payment_attempts
    FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER payment_attempts_no_truncate BEFORE TRUNCATE ON public.payment_attempts
    FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();

-- The provider's standing of a subscription at an instant of the provider's own clock. Every
-- fact is kept; the standing is the newest by that instant, so a fact delivered late never
-- moves it backwards.
CREATE TABLE public.provider_standing_facts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subscription_id uuid NOT NULL REFERENCES public.subscriptions (id),
    provider_key public.rd_key NOT NULL,
    standing text NOT NULL
        CHECK (standing IN ('active', 'past_due', 'unpaid', 'paused', 'canceled')),
    observed_at timestamptz NOT NULL,
    reason text CHECK (octet_length(reason) BETWEEN 1 AND 100),
    provider_event_id public.rd_event_id NOT NULL,
    recorded_by public.rd_recorded_by NOT NULL DEFAULT 'webhook',
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT provider_standing_facts_once UNIQUE (subscription_id, observed_at, standing)
);
CREATE INDEX provider_standing_facts_newest
    ON public.provider_standing_facts (subscription_id, observed_at DESC, id DESC);
CREATE TRIGGER provider_standing_facts_insert_only
    BEFORE DELETE OR UPDATE ON public.provider_standing_facts
    FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER provider_standing_facts_no_truncate
    BEFORE TRUNCATE ON public.provider_standing_facts
    FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();

-- An operator's extension of a subscription's grace, with its note; it ends by itself.
CREATE TABLE public.access_overrides (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subscription_id uuid NOT NULL REFERENCES public.subscriptions (id),
    until timestamptz NOT NULL,
    note text NOT NULL CHECK (note <> '' AND octet_length(note) <= 4000),
    granted_by text NOT NULL DEFAULT SESSION_USER,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (until > created_at)
);
CREATE INDEX access_overrides_by_subscription
    ON public.access_overrides (subscription_id, created_at DESC, id DESC);
CREATE TRIGGER access_overrides_insert_only BEFORE DELETE OR UPDATE ON public.access_overrides
    FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER access_overrides_no_truncate BEFORE TRUNCATE ON public.access_overrides
    FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();

-- Every recorded change of a subscription's verdict, numbered per subscription: seq is unique,
-- so two sweeps (or a sweep and a delivery) can never record one change twice.
CREATE TABLE public.access_transitions (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subscription_id uuid NOT NULL REFERENCES public.subscriptions (id),
    seq integer NOT NULL CHECK (seq > 0),
    verdict text NOT NULL CHECK (verdict IN ('good_standing', 'in_grace', 'blocked', 'ended')),
    previous_verdict text NOT NULL
        CHECK (previous_verdict IN ('good_standing', 'in_grace', 'blocked', 'ended')),
    since timestamptz NOT NULL,
    until timestamptz,
    source text NOT NULL CHECK (source IN ('provider', 'policy', 'operator')),
    reason text NOT NULL,
    -- The instant the verdict was worked out for (a sweep's --now; now() otherwise).
    evaluated_at timestamptz NOT NULL,
    recorded_by text NOT NULL CHECK (recorded_by IN ('webhook', 'sweep', 'operator', 'cli')),
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT access_transitions_once UNIQUE (subscription_id, seq)
);
CREATE INDEX access_transitions_by_time ON public.access_transitions (created_at, id);
CREATE TRIGGER access_transitions_insert_only
    BEFORE DELETE OR UPDATE ON public.access_transitions
    FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER access_transitions_no_truncate BEFORE TRUNCATE ON public.access_transitions
    FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();

-- The last recorded verdict of each subscription that ever had one other than good standing:
-- what a sweep compares with. No row is good standing. Written by rd_access_settle alone.
CREATE TABLE public.access_verdicts (
    subscription_id uuid PRIMARY KEY REFERENCES public.subscriptions (id),
    verdict text NOT NULL CHECK (verdict IN ('good_standing', 'in_grace', 'blocked', 'ended')),
    since timestamptz NOT NULL,
    until timestamptz,
    source text NOT NULL CHECK (source IN ('provider', 'policy', 'operator')),
    reason text NOT NULL,
    seq integer NOT NULL,
    transition_id bigint NOT NULL REFERENCES public.access_transitions (id),
    changed_at timestamptz NOT NULL
);
CREATE INDEX access_verdicts_in_trouble ON public.access_verdicts (subscription_id)
    WHERE verdict IN ('in_grace', 'blocked');

GRANT SELECT ON public.access_policies, public.payment_attempts,
    public.provider_standing_facts, public.access_overrides, public.access_transitions,
    public.access_verdicts TO renewal_viewer;

-- One audit row per attempt, standing fact, extension and verdict change, in the
-- subscription's chain; one outbox intent per attempt and per verdict change (below: why no
-- index holds them to one).
ALTER DOMAIN public.rd_audit_transition DROP CONSTRAINT rd_audit_transition_known;
ALTER DOMAIN public.rd_audit_transition ADD CONSTRAINT rd_audit_transition_known
    CHECK (VALUE IN ('subscription_imported', 'subscription_renewed',
                     'subscription_reconciled', 'money_movement_recorded', 'payment_failed',
                     'provider_standing', 'access_extended', 'access_changed'));
ALTER DOMAIN public.rd_actor_type DROP CONSTRAINT rd_actor_type_known;
ALTER DOMAIN public.rd_actor_type ADD CONSTRAINT rd_actor_type_known
    CHECK (VALUE IN ('webhook', 'operator', 'import', 'system', 'statement', 'cli', 'sweep'))
    NOT VALID;
-- No partial unique index holds these rows to one, as 0049 does for a movement's: every
-- renewal's audit and outbox insert evaluates each such index's predicate, and four more cost
-- the renewal 1.6 % of its instructions (bench/pgbench/count-instructions.sh, docs/benchmarks.md).
-- The rows they would guard are written only by record_payment_trouble and rd_access_settle,
-- in the transaction that inserts the attempt (its primary key) or the numbered transition
-- (access_transitions_once), so each is written once with it or not at all.

-- A delivery that told payment trouble: 'recorded' (or 'duplicate'); of a subscription not
-- known here: 'not_a_renewal' with error subscription_not_found, kept for a replay.
-- (webhook_inbox_outcome_check holds these already.)
