-- The transactional renewal core: apply a confirmed renewal exactly once, in one call (one
-- round trip), and the reconciliation cases that rejected renewals become.

-- RFC 3339 in UTC with microseconds, independent of the session's TimeZone and DateStyle.
CREATE FUNCTION rd_rfc3339(t timestamptz) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');

CREATE FUNCTION rd_period_json(period_start timestamptz, period_end timestamptz) RETURNS jsonb
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN period_start IS NULL THEN 'null'::jsonb
                ELSE jsonb_build_object('start', rd_rfc3339(period_start),
                                        'end', rd_rfc3339(period_end)) END;

CREATE FUNCTION rd_billing_period_json(bp subscription_billing_periods) RETURNS jsonb
    LANGUAGE sql STABLE
    RETURN jsonb_build_object(
        'id', bp.id, 'subscriptionId', bp.subscription_id, 'providerKey', bp.provider_key,
        'providerRenewalKey', bp.provider_renewal_key, 'providerEventId', bp.provider_event_id,
        'period', rd_period_json(bp.period_start, bp.period_end),
        'paidAmountMinor', bp.paid_amount_minor, 'currency', bp.currency,
        'paidAt', rd_rfc3339(bp.paid_at), 'recordedBy', bp.recorded_by);

CREATE FUNCTION rd_subscription_state_json(s subscriptions) RETURNS jsonb
    LANGUAGE sql STABLE
    RETURN jsonb_build_object(
        'subscriptionId', s.id, 'status', s.status,
        'currentPeriod', rd_period_json(s.current_period_start, s.current_period_end),
        'cancelAtPeriodEnd', s.cancel_at_period_end, 'providerVersion', s.provider_version,
        'revision', s.revision);

CREATE TABLE reconciliation_cases (
    -- Stable, human-sized id ("case 42") that operator actions refer to.
    id                       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    provider_key             text NOT NULL,
    provider_subscription_id text NOT NULL,
    subscription_id          uuid REFERENCES subscriptions (id),
    provider_renewal_key     text NOT NULL,
    first_provider_event_id  text NOT NULL,
    last_provider_event_id   text NOT NULL,
    error_code               text NOT NULL,
    -- The normalized event as first seen; its fingerprint ignores the delivery's event id so
    -- that invoice.paid and invoice.payment_succeeded for one invoice are the same event.
    event                    jsonb NOT NULL,
    event_fingerprint        text NOT NULL,
    -- The local state the latest rejection was judged against.
    local_state              jsonb NOT NULL,
    status                   text NOT NULL DEFAULT 'open'
                                 CHECK (status IN ('open', 'resolved', 'dismissed')),
    resolution               text CHECK (resolution IN ('reapplied', 'snapshot_attached',
                                 'already_applied', 'dismissed')),
    first_seen_at            timestamptz NOT NULL DEFAULT now(),
    last_seen_at             timestamptz NOT NULL DEFAULT now(),
    occurrences              integer NOT NULL DEFAULT 1 CHECK (occurrences > 0),
    resolved_at              timestamptz,
    resolved_by              text,
    CONSTRAINT reconciliation_case_resolution_consistent
        CHECK ((status = 'open') = (resolution IS NULL))
);
-- The same event rejected again for the same reason is one more occurrence of one open case.
CREATE UNIQUE INDEX reconciliation_cases_open_once
    ON reconciliation_cases (provider_key, provider_renewal_key, event_fingerprint, error_code)
    WHERE status = 'open';
CREATE INDEX reconciliation_cases_queue ON reconciliation_cases (status, last_seen_at DESC, id);
CREATE INDEX reconciliation_cases_by_subscription
    ON reconciliation_cases (subscription_id) WHERE subscription_id IS NOT NULL;

-- Applies one confirmed renewal. Writes nothing unless it returns 'applied', so a rejection
-- needs no rollback work. Runs in the caller's transaction (READ COMMITTED): every statement
-- takes a fresh snapshot, so after waiting for the subscription lock it sees what the
-- previous holder committed.
CREATE FUNCTION apply_successful_renewal(
    p_provider_key text, p_provider_event_id text, p_provider_subscription_id text,
    p_provider_renewal_key text, p_provider_version text,
    p_period_start timestamptz, p_period_end timestamptz,
    p_paid_amount_minor bigint, p_currency text, p_paid_at timestamptz,
    p_actor_type text, p_actor_id text,
    OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb)
    LANGUAGE plpgsql
AS $$
DECLARE
    s  subscriptions%ROWTYPE;
    bp subscription_billing_periods%ROWTYPE;
    new_id uuid;
BEGIN
    -- 1. The per-subscription row lock serializes every change to this subscription: two
    --    deliveries of one renewal, or two renewals of one subscription, queue here.
    SELECT * INTO s FROM subscriptions
     WHERE provider_key = p_provider_key AND provider_subscription_id = p_provider_subscription_id
       FOR UPDATE;
    IF NOT FOUND THEN
        result := 'rejected'; error_code := 'subscription_not_found';
        local_state := jsonb_build_object('subscriptionId', NULL);
        RETURN;
    END IF;
    local_state := rd_subscription_state_json(s);

    -- 2. The renewal fact decides first: a replay of a renewal already recorded is a duplicate
    --    even if the subscription has since been cancelled (a replay must never open a case).
    SELECT * INTO bp FROM subscription_billing_periods
     WHERE provider_key = p_provider_key AND provider_renewal_key = p_provider_renewal_key;
    IF FOUND THEN
        IF bp.subscription_id = s.id AND bp.period_start = p_period_start
           AND bp.period_end = p_period_end AND bp.paid_amount_minor = p_paid_amount_minor
           AND bp.currency = p_currency THEN
            result := 'duplicate'; billing_period_id := bp.id;
        ELSE
            result := 'rejected'; error_code := 'provider_renewal_key_payload_conflict';
            local_state := local_state
                || jsonb_build_object('conflictingBillingPeriod', rd_billing_period_json(bp));
        END IF;
        RETURN;
    END IF;

    -- 3. Only an active subscription renews.
    IF s.status <> 'active' THEN
        result := 'rejected'; error_code := 'renewal_not_allowed_for_subscription_status';
        RETURN;
    END IF;

    -- 4. The period must continue the current one exactly (half-open UTC instants).
    IF s.current_period_end IS NULL THEN
        result := 'rejected'; error_code := 'subscription_has_no_current_period';
        RETURN;
    END IF;
    IF p_period_end <= p_period_start THEN
        result := 'rejected'; error_code := 'invalid_provider_billing_period';
        RETURN;
    END IF;
    IF p_period_start <> s.current_period_end THEN
        result := 'rejected'; error_code := 'renewal_period_is_not_contiguous';
        RETURN;
    END IF;

    -- 5. The provider renewed what we believe is scheduled to end: reconcile, do not guess.
    IF s.cancel_at_period_end THEN
        result := 'rejected'; error_code := 'renewal_conflicts_with_scheduled_cancellation';
        RETURN;
    END IF;

    -- 6. Record the renewal fact. A conflict here comes from a winner we could not see before
    --    it committed (the same renewal key under another subscription) or from the same
    --    period recorded under another key; either is judged, never assumed a duplicate.
    INSERT INTO subscription_billing_periods
        (subscription_id, provider_key, provider_renewal_key, provider_event_id, period_start,
         period_end, paid_amount_minor, currency, paid_at, recorded_by)
    VALUES (s.id, p_provider_key, p_provider_renewal_key, p_provider_event_id, p_period_start,
            p_period_end, p_paid_amount_minor, p_currency, p_paid_at,
            CASE WHEN p_actor_type = 'operator' THEN 'operator' ELSE 'webhook' END)
    ON CONFLICT DO NOTHING
    RETURNING id INTO new_id;
    IF new_id IS NULL THEN
        SELECT * INTO bp FROM subscription_billing_periods
         WHERE provider_key = p_provider_key AND provider_renewal_key = p_provider_renewal_key;
        IF FOUND AND bp.subscription_id = s.id AND bp.period_start = p_period_start
           AND bp.period_end = p_period_end AND bp.paid_amount_minor = p_paid_amount_minor
           AND bp.currency = p_currency THEN
            result := 'duplicate'; billing_period_id := bp.id;
            RETURN;
        END IF;
        IF NOT FOUND THEN
            SELECT * INTO bp FROM subscription_billing_periods
             WHERE subscription_id = s.id AND period_start = p_period_start
               AND period_end = p_period_end;
        END IF;
        result := 'rejected'; error_code := 'provider_renewal_key_payload_conflict';
        local_state := local_state
            || jsonb_build_object('conflictingBillingPeriod', rd_billing_period_json(bp));
        RETURN;
    END IF;

    -- 7. Advance the projection; cancellation, plan and quantity are not a renewal's business.
    UPDATE subscriptions
       SET current_period_start = p_period_start, current_period_end = p_period_end,
           provider_version = coalesce(p_provider_version, provider_version),
           revision = revision + 1, updated_at = now()
     WHERE id = s.id;

    -- 8. One audit row and one outbox intent, committed with the renewal or not at all.
    INSERT INTO subscription_transition_audits
        (subscription_id, transition, billing_period_id, actor_type, actor_id,
         provider_event_id, provider_renewal_key, period_start, period_end, details)
    VALUES (s.id, 'subscription_renewed', new_id, p_actor_type, p_actor_id,
            p_provider_event_id, p_provider_renewal_key, p_period_start, p_period_end,
            jsonb_build_object('before', local_state,
                               'paidAmountMinor', p_paid_amount_minor, 'currency', p_currency));
    INSERT INTO subscription_outbox (event_type, subscription_id, billing_period_id, payload)
    VALUES ('subscription_renewed', s.id, new_id, jsonb_build_object(
        'type', 'subscription_renewed', 'subscriptionId', s.id,
        'providerKey', p_provider_key, 'providerSubscriptionId', p_provider_subscription_id,
        'billingPeriodId', new_id, 'providerRenewalKey', p_provider_renewal_key,
        'period', rd_period_json(p_period_start, p_period_end),
        'paidAmountMinor', p_paid_amount_minor, 'currency', p_currency,
        'paidAt', rd_rfc3339(p_paid_at)));

    result := 'applied'; billing_period_id := new_id;
END;
$$;

-- Records a rejected renewal as an open case, or one more occurrence of the open case for
-- the same event and reason. Called in its own transaction after the rejection.
CREATE FUNCTION record_reconciliation_case(p_event jsonb, p_error_code text,
                                           p_local_state jsonb) RETURNS bigint
    LANGUAGE plpgsql
AS $$
DECLARE
    case_id bigint;
BEGIN
    INSERT INTO reconciliation_cases AS c
        (provider_key, provider_subscription_id, subscription_id, provider_renewal_key,
         first_provider_event_id, last_provider_event_id, error_code, event, event_fingerprint,
         local_state)
    VALUES (p_event->>'providerKey', p_event->>'providerSubscriptionId',
            (SELECT id FROM subscriptions
              WHERE provider_key = p_event->>'providerKey'
                AND provider_subscription_id = p_event->>'providerSubscriptionId'),
            p_event->>'providerRenewalKey', p_event->>'providerEventId',
            p_event->>'providerEventId', p_error_code, p_event,
            md5((p_event - 'providerEventId')::text), p_local_state)
    ON CONFLICT (provider_key, provider_renewal_key, event_fingerprint, error_code)
        WHERE status = 'open'
    DO UPDATE SET occurrences = c.occurrences + 1, last_seen_at = now(),
                  last_provider_event_id = excluded.last_provider_event_id,
                  local_state = excluded.local_state
    RETURNING id INTO case_id;
    RETURN case_id;
END;
$$;
