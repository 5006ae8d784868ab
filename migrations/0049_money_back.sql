-- Money back (#40): refunds and chargebacks, and their reversals, recorded exactly once as
-- dated movements of the renewal they pay back. A movement is a fact of its own date (a refund's
-- creation, a chargeback's withdrawal): it belongs to that month, never the renewal's, and
-- nothing is updated in place or deleted: a refund that fails later, or a dispute that is won,
-- is a reversing movement of its own.
CREATE TABLE public.money_movements (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    provider_key public.rd_key NOT NULL,
    -- The provider's own object (re_..., dp_..., adj_...): never the event's id, so that two
    -- event types of one refund are one movement.
    movement_key public.rd_key NOT NULL,
    kind text NOT NULL CHECK (kind IN ('refund', 'refund_reversal', 'chargeback',
                                       'chargeback_reversal')),
    subscription_id uuid NOT NULL REFERENCES public.subscriptions (id),
    billing_period_id uuid NOT NULL REFERENCES public.subscription_billing_periods (id),
    amount_minor public.rd_amount_minor NOT NULL CHECK (amount_minor > 0),
    currency public.rd_currency_code NOT NULL,
    occurred_at timestamptz NOT NULL,
    provider_event_id public.rd_event_id NOT NULL,
    recorded_by public.rd_recorded_by NOT NULL DEFAULT 'webhook',
    -- Its month (UTC, of occurred_at) was closed when it was recorded: the closed month keeps
    -- its figures, and the next report lists it.
    after_close boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT money_movements_once UNIQUE (provider_key, movement_key, kind)
);
CREATE INDEX money_movements_by_billing_period ON public.money_movements (billing_period_id);
CREATE INDEX money_movements_by_day
    ON public.money_movements (provider_key, currency, occurred_at, id);
CREATE TRIGGER money_movements_insert_only BEFORE DELETE OR UPDATE ON public.money_movements
    FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER money_movements_no_truncate BEFORE TRUNCATE ON public.money_movements
    FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();

-- What a later refund names a renewal by, besides its renewal key: Stripe's charge and payment
-- intent of the renewal's invoice (since API 2025-03-31 a charge no longer names its invoice).
-- Kept when the renewal is recorded from a delivery that carries them.
CREATE TABLE public.billing_period_payment_refs (
    provider_key public.rd_key NOT NULL,
    payment_ref public.rd_key NOT NULL,
    billing_period_id uuid NOT NULL REFERENCES public.subscription_billing_periods (id),
    PRIMARY KEY (provider_key, payment_ref)
);
CREATE TRIGGER billing_period_payment_refs_insert_only
    BEFORE DELETE OR UPDATE ON public.billing_period_payment_refs
    FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER billing_period_payment_refs_no_truncate
    BEFORE TRUNCATE ON public.billing_period_payment_refs
    FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();

GRANT SELECT ON public.money_movements, public.billing_period_payment_refs TO renewal_viewer;

-- One audit row a movement, in its subscription's chain, and one outbox intent: the database
-- holds both to one (the function writes them with the movement or not at all).
ALTER DOMAIN public.rd_audit_transition DROP CONSTRAINT rd_audit_transition_known;
ALTER DOMAIN public.rd_audit_transition ADD CONSTRAINT rd_audit_transition_known
    CHECK (VALUE IN ('subscription_imported', 'subscription_renewed',
                     'subscription_reconciled', 'money_movement_recorded'));
CREATE UNIQUE INDEX subscription_money_movement_audit_once
    ON public.subscription_transition_audits ((details->>'movementId'))
    WHERE transition = 'money_movement_recorded';
CREATE UNIQUE INDEX subscription_outbox_money_movement_once
    ON public.subscription_outbox ((payload->>'movementId'))
    WHERE payload ? 'movementId';

-- A delivery that recorded a movement: 'recorded' (a duplicate one is 'duplicate', one that
-- opened a case 'rejected', as for renewals).
ALTER TABLE public.webhook_inbox
    DROP CONSTRAINT webhook_inbox_outcome_check,
    ADD CONSTRAINT webhook_inbox_outcome_check CHECK (outcome IN (
        'applied', 'duplicate', 'not_a_renewal', 'needs_snapshot', 'rejected', 'invalid',
        'recorded'));

-- The movements waiting for their renewal, which its arrival records (rd_heal_money_back).
CREATE INDEX reconciliation_cases_money_back_waiting
    ON public.reconciliation_cases (provider_key)
    WHERE status = 'open' AND error_code = 'refund_without_renewal';
