-- Hardening after an outside audit.
--
-- 1. No role can point a SECURITY DEFINER or trigger function at objects of its own. Until now
--    those functions ran with search_path = pg_catalog, public, which leaves pg_temp implicitly
--    FIRST for relation names, and every role could create TEMP tables: a temp table named
--    reconciliation_case_history or subscription_billing_periods took the real one's place
--    inside the function. The rule, for every function in this schema from now on:
--      - every SECURITY DEFINER and every trigger function has
--        SET search_path = pg_catalog, public, pg_temp   (pg_temp named, so it comes LAST);
--      - the functions this file writes name their tables schema-qualified (public.x);
--      - TEMP is not granted to PUBLIC on the database, and nobody but the owner creates
--        objects in schema public.
--    tst_security checks the first rule against the catalog, so a future function that
--    forgets it fails the test suite, and runs the attacks as the weakest roles would.
-- 2. A case closes only when its renewal is recorded (a billing period the case points at) or
--    an operator dismisses it with a note. The database enforces it with a CHECK; attaching a
--    snapshot to a case re-judges the case's renewal through the core in the same
--    transaction instead of closing it.
-- 3. "Applicable now" is the core's own verdict: the rules live in rd_renewal_verdict, which the
--    core and the queue's applicability both call.
-- 4. The core takes the billing period's id from the client (optional), so a client whose
--    connection dropped can tell its own commit from somebody else's.
-- 5. A snapshot can no longer rewind a subscription behind a recorded paid period, nor carry a
--    latest renewal of another subscription; staleness counts every recorded change, the
--    import included.
-- 6. A case's fingerprint is the renewal's identity (subscription, period, amount, currency),
--    not the whole event: two deliveries of one renewal with different paidAt are one case.

------------------------------------------------------------------------------------------
-- 1. Nothing but the owner creates objects that functions could resolve to.
------------------------------------------------------------------------------------------

DO $$
BEGIN
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
END;
$$;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;

------------------------------------------------------------------------------------------
-- 3. The core's rules, in one place.
------------------------------------------------------------------------------------------

-- What the core would do with a renewal against subscription state `s` (rules 2-5 of
-- 0002's apply_successful_renewal): 'applicable', 'duplicate' (existing_id is the recorded
-- period), or the rejection code (conflicting is the recorded period it contradicts).
-- Takes no lock: the core calls it holding the subscription's row lock; the queue calls it to
-- say which cases a re-apply would now apply.
CREATE FUNCTION public.rd_renewal_verdict(
    s public.subscriptions, p_provider_key text, p_provider_renewal_key text,
    p_period_start timestamptz, p_period_end timestamptz, p_paid_amount_minor bigint,
    p_currency text, OUT verdict text, OUT existing_id uuid, OUT conflicting jsonb)
    LANGUAGE plpgsql STABLE
AS $$
DECLARE
    bp public.subscription_billing_periods%ROWTYPE;
BEGIN
    IF s.id IS NULL THEN
        verdict := 'subscription_not_found';
        RETURN;
    END IF;
    -- The renewal fact decides first: a replay of a renewal already recorded is a duplicate
    -- even if the subscription has since been cancelled.
    SELECT * INTO bp FROM public.subscription_billing_periods b
     WHERE b.provider_key = p_provider_key AND b.provider_renewal_key = p_provider_renewal_key;
    IF FOUND THEN
        IF bp.subscription_id = s.id AND bp.period_start = p_period_start
           AND bp.period_end = p_period_end AND bp.paid_amount_minor = p_paid_amount_minor
           AND bp.currency = p_currency THEN
            verdict := 'duplicate';
            existing_id := bp.id;
        ELSE
            verdict := 'provider_renewal_key_payload_conflict';
            conflicting := public.rd_billing_period_json(bp);
        END IF;
        RETURN;
    END IF;
    verdict := CASE
        WHEN p_period_start IS NULL OR p_period_end IS NULL THEN 'needs_snapshot'
        WHEN s.status <> 'active' THEN 'renewal_not_allowed_for_subscription_status'
        WHEN s.current_period_end IS NULL THEN 'subscription_has_no_current_period'
        WHEN p_period_end <= p_period_start THEN 'invalid_provider_billing_period'
        WHEN p_period_start <> s.current_period_end THEN 'renewal_period_is_not_contiguous'
        WHEN s.cancel_at_period_end THEN 'renewal_conflicts_with_scheduled_cancellation'
        ELSE 'applicable' END;
END;
$$;

------------------------------------------------------------------------------------------
-- The renewal core, now judged by rd_renewal_verdict and taking an optional billing period
-- id from the client (in-doubt resolution). Same steps, same one round trip.
------------------------------------------------------------------------------------------

DROP FUNCTION public.apply_successful_renewal(text, text, text, text, text, timestamptz,
                                              timestamptz, bigint, text, timestamptz, text, text);

CREATE FUNCTION public.apply_successful_renewal(
    p_provider_key text, p_provider_event_id text, p_provider_subscription_id text,
    p_provider_renewal_key text, p_provider_version text,
    p_period_start timestamptz, p_period_end timestamptz,
    p_paid_amount_minor bigint, p_currency text, p_paid_at timestamptz,
    p_actor_type text, p_actor_id text, p_billing_period_id uuid DEFAULT NULL,
    OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    s public.subscriptions%ROWTYPE;
    bp public.subscription_billing_periods%ROWTYPE;
    v_verdict text;
    v_existing uuid;
    v_conflicting jsonb;
    new_id uuid;
BEGIN
    -- 1. The per-subscription row lock serializes every change to this subscription.
    SELECT * INTO s FROM public.subscriptions
     WHERE provider_key = p_provider_key AND provider_subscription_id = p_provider_subscription_id
       FOR UPDATE;
    IF NOT FOUND THEN
        result := 'rejected'; error_code := 'subscription_not_found';
        local_state := jsonb_build_object('subscriptionId', NULL);
        RETURN;
    END IF;
    local_state := public.rd_subscription_state_json(s);

    -- 2-5. The rules.
    SELECT v.verdict, v.existing_id, v.conflicting INTO v_verdict, v_existing, v_conflicting
      FROM public.rd_renewal_verdict(s, p_provider_key, p_provider_renewal_key, p_period_start,
                                     p_period_end, p_paid_amount_minor, p_currency) v;
    IF v_verdict = 'duplicate' THEN
        result := 'duplicate'; billing_period_id := v_existing;
        RETURN;
    ELSIF v_verdict <> 'applicable' THEN
        result := 'rejected'; error_code := v_verdict;
        IF v_conflicting IS NOT NULL THEN
            local_state := local_state
                || jsonb_build_object('conflictingBillingPeriod', v_conflicting);
        END IF;
        RETURN;
    END IF;

    -- 6. Record the renewal fact. A conflict here comes from a winner we could not see before
    --    it committed (the same renewal key under another subscription) or from the same
    --    period recorded under another key; either is judged, never assumed a duplicate.
    INSERT INTO public.subscription_billing_periods
        (id, subscription_id, provider_key, provider_renewal_key, provider_event_id,
         period_start, period_end, paid_amount_minor, currency, paid_at, recorded_by)
    VALUES (coalesce(p_billing_period_id, gen_random_uuid()), s.id, p_provider_key,
            p_provider_renewal_key, p_provider_event_id, p_period_start, p_period_end,
            p_paid_amount_minor, p_currency, p_paid_at,
            CASE WHEN p_actor_type = 'operator' THEN 'operator' ELSE 'webhook' END)
    ON CONFLICT DO NOTHING
    RETURNING id INTO new_id;
    IF new_id IS NULL THEN
        SELECT * INTO bp FROM public.subscription_billing_periods b
         WHERE b.provider_key = p_provider_key AND b.provider_renewal_key = p_provider_renewal_key;
        IF FOUND AND bp.subscription_id = s.id AND bp.period_start = p_period_start
           AND bp.period_end = p_period_end AND bp.paid_amount_minor = p_paid_amount_minor
           AND bp.currency = p_currency THEN
            result := 'duplicate'; billing_period_id := bp.id;
            RETURN;
        END IF;
        IF NOT FOUND THEN
            SELECT * INTO bp FROM public.subscription_billing_periods b
             WHERE b.subscription_id = s.id AND b.period_start = p_period_start
               AND b.period_end = p_period_end;
        END IF;
        result := 'rejected'; error_code := 'provider_renewal_key_payload_conflict';
        local_state := local_state
            || jsonb_build_object('conflictingBillingPeriod', public.rd_billing_period_json(bp));
        RETURN;
    END IF;

    -- 7. Advance the projection; cancellation, plan and quantity are not a renewal's business.
    UPDATE public.subscriptions
       SET current_period_start = p_period_start, current_period_end = p_period_end,
           provider_version = coalesce(p_provider_version, provider_version),
           revision = revision + 1, updated_at = now()
     WHERE id = s.id;

    -- 8. One audit row and one outbox intent, committed with the renewal or not at all.
    INSERT INTO public.subscription_transition_audits
        (subscription_id, transition, billing_period_id, actor_type, actor_id,
         provider_event_id, provider_renewal_key, period_start, period_end, details)
    VALUES (s.id, 'subscription_renewed', new_id, p_actor_type, p_actor_id,
            p_provider_event_id, p_provider_renewal_key, p_period_start, p_period_end,
            jsonb_build_object('before', local_state,
                               'paidAmountMinor', p_paid_amount_minor, 'currency', p_currency));
    INSERT INTO public.subscription_outbox (event_type, subscription_id, billing_period_id, payload)
    VALUES ('subscription_renewed', s.id, new_id, jsonb_build_object(
        'type', 'subscription_renewed', 'subscriptionId', s.id,
        'providerKey', p_provider_key, 'providerSubscriptionId', p_provider_subscription_id,
        'billingPeriodId', new_id, 'providerRenewalKey', p_provider_renewal_key,
        'period', public.rd_period_json(p_period_start, p_period_end),
        'paidAmountMinor', p_paid_amount_minor, 'currency', p_currency,
        'paidAt', public.rd_rfc3339(p_paid_at)));

    result := 'applied'; billing_period_id := new_id;
END;
$$;

-- The core applied to a case's stored event, as `actor`.
CREATE FUNCTION public.rd_apply_case_event(e jsonb, p_actor_type text, p_actor_id text,
    OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb)
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    SELECT a.result, a.billing_period_id, a.error_code, a.local_state
      FROM public.apply_successful_renewal(
        e->>'providerKey', e->>'providerEventId', e->>'providerSubscriptionId',
        e->>'providerRenewalKey', e->>'providerVersion',
        (e->'period'->>'start')::timestamptz, (e->'period'->>'end')::timestamptz,
        (e->>'paidAmountMinor')::bigint, e->>'currency', (e->>'paidAt')::timestamptz,
        p_actor_type, p_actor_id) a;
END;

------------------------------------------------------------------------------------------
-- 2. and 6. Cases: the renewal that closes them, their fingerprint.
------------------------------------------------------------------------------------------

ALTER TABLE public.reconciliation_cases
    ADD COLUMN billing_period_id uuid REFERENCES public.subscription_billing_periods (id);
ALTER TABLE public.reconciliation_case_history
    DROP CONSTRAINT reconciliation_case_history_action_check,
    ADD CONSTRAINT reconciliation_case_history_action_check
        CHECK (action IN ('opened', 'occurrence', 'reapply', 'snapshot_attached', 'dismissed',
                          'reopened'));

-- A resolved case points at the billing period that records its renewal. Cases closed before
-- this migration are tied to theirs; a case closed without its renewal ever being recorded
-- (a snapshot attached to it closed it: the audit's finding 0) is reopened, with the reason
-- in its history, unless an open case for the same renewal and reason already stands for it.
UPDATE public.reconciliation_cases c
   SET billing_period_id = b.id
  FROM public.subscription_billing_periods b
 WHERE c.status = 'resolved' AND b.provider_key = c.provider_key
   AND b.provider_renewal_key = c.provider_renewal_key
   AND b.subscription_id IS NOT DISTINCT FROM c.subscription_id;

WITH reopened AS (
    UPDATE public.reconciliation_cases c
       SET status = 'open', resolution = NULL, resolved_at = NULL, resolved_by = NULL
     WHERE c.status = 'resolved' AND c.billing_period_id IS NULL
       AND NOT EXISTS (SELECT 1 FROM public.reconciliation_cases o
                        WHERE o.status = 'open' AND o.provider_key = c.provider_key
                          AND o.provider_renewal_key = c.provider_renewal_key
                          AND o.event_fingerprint = c.event_fingerprint
                          AND o.error_code = c.error_code)
    RETURNING c.id)
INSERT INTO public.reconciliation_case_history (case_id, action, outcome, actor, details,
                                               chain_seq, prev_hash, row_hash)
SELECT id, 'reopened', 'open', 'system',
       jsonb_build_object('why', 'closed without its renewal being recorded'), 0, '', ''
  FROM reopened;

-- Cases closed without their renewal that could not be reopened (another open case stands for
-- the same renewal) become dismissals by the system, their history saying so.
WITH marked AS (
    UPDATE public.reconciliation_cases c
       SET status = 'dismissed', resolution = 'dismissed',
           resolution_comment = coalesce(resolution_comment || ' / ', '')
               || 'superseded: another open case stands for this renewal'
     WHERE c.status = 'resolved' AND c.billing_period_id IS NULL
    RETURNING c.id)
INSERT INTO public.reconciliation_case_history (case_id, action, outcome, actor, comment,
                                               chain_seq, prev_hash, row_hash)
SELECT id, 'dismissed', 'dismissed', 'system',
       'superseded: another open case stands for this renewal', 0, '', ''
  FROM marked;

ALTER TABLE public.reconciliation_cases
    ADD CONSTRAINT reconciliation_case_resolved_has_renewal
        CHECK (status <> 'resolved' OR billing_period_id IS NOT NULL),
    ADD CONSTRAINT reconciliation_case_dismissed_has_note
        CHECK (status <> 'dismissed' OR btrim(coalesce(resolution_comment, '')) <> '');

-- A renewal's identity: what assertMatchingRenewal compares under one renewal key. Two
-- deliveries of one renewal (invoice.paid and invoice.payment_succeeded, one with the event's
-- own timestamp as paidAt) are one case with two occurrences.
CREATE FUNCTION public.rd_renewal_fingerprint(e jsonb) RETURNS text
    LANGUAGE sql STABLE
    RETURN md5(jsonb_build_object(
        'providerSubscriptionId', e->>'providerSubscriptionId',
        'periodStart', public.rd_rfc3339((e->'period'->>'start')::timestamptz),
        'periodEnd', public.rd_rfc3339((e->'period'->>'end')::timestamptz),
        'paidAmountMinor', e->'paidAmountMinor', 'currency', e->>'currency')::text);

-- Open cases take the new fingerprint, except where two open cases would then coincide (they
-- stay as they are: closing one is an operator's decision).
UPDATE public.reconciliation_cases c
   SET event_fingerprint = public.rd_renewal_fingerprint(c.event)
 WHERE c.status = 'open'
   AND NOT EXISTS (SELECT 1 FROM public.reconciliation_cases o
                    WHERE o.status = 'open' AND o.id <> c.id
                      AND o.provider_key = c.provider_key
                      AND o.provider_renewal_key = c.provider_renewal_key
                      AND o.error_code = c.error_code
                      AND public.rd_renewal_fingerprint(o.event)
                          = public.rd_renewal_fingerprint(c.event));

CREATE OR REPLACE FUNCTION public.record_reconciliation_case(p_event jsonb, p_error_code text,
                                                             p_local_state jsonb) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    case_id bigint;
    inserted boolean;
BEGIN
    INSERT INTO public.reconciliation_cases AS c
        (provider_key, provider_subscription_id, subscription_id, provider_renewal_key,
         first_provider_event_id, last_provider_event_id, error_code, event, event_fingerprint,
         local_state)
    VALUES (p_event->>'providerKey', p_event->>'providerSubscriptionId',
            (SELECT id FROM public.subscriptions
              WHERE provider_key = p_event->>'providerKey'
                AND provider_subscription_id = p_event->>'providerSubscriptionId'),
            p_event->>'providerRenewalKey', p_event->>'providerEventId',
            p_event->>'providerEventId', p_error_code, p_event,
            public.rd_renewal_fingerprint(p_event), p_local_state)
    ON CONFLICT (provider_key, provider_renewal_key, event_fingerprint, error_code)
        WHERE status = 'open'
    DO UPDATE SET occurrences = c.occurrences + 1, last_seen_at = now(),
                  last_provider_event_id = excluded.last_provider_event_id,
                  local_state = excluded.local_state
    RETURNING id, (xmax = 0) INTO case_id, inserted;

    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code,
                                                   details, chain_seq, prev_hash, row_hash)
    VALUES (case_id, CASE WHEN inserted THEN 'opened' ELSE 'occurrence' END, 'open',
            p_error_code,
            jsonb_build_object('providerEventId', p_event->>'providerEventId',
                               'localState', p_local_state),
            0, '', '');
    RETURN case_id;
END;
$$;

-- Closes a locked open case as resolved by the billing period that records its renewal.
CREATE FUNCTION public.rd_resolve_case(p_case_id bigint, p_resolution text,
                                       p_billing_period_id uuid, p_comment text,
                                       p_snapshot_id bigint) RETURNS void
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    UPDATE public.reconciliation_cases
       SET status = 'resolved', resolution = p_resolution, resolved_at = now(),
           resolved_by = session_user, resolution_comment = p_comment,
           billing_period_id = p_billing_period_id,
           snapshot_id = coalesce(p_snapshot_id, snapshot_id)
     WHERE id = p_case_id;
END;

-- A locked open case whose renewal was judged again and still fails: it keeps the state it was
-- judged against, and the reason it fails now (unless another open case already holds this
-- renewal with that reason, when the reason stays and the history says it).
CREATE FUNCTION public.rd_keep_case_open(p_case_id bigint, p_error_code text,
                                         p_local_state jsonb) RETURNS void
    LANGUAGE sql VOLATILE
BEGIN ATOMIC
    UPDATE public.reconciliation_cases c
       SET local_state = p_local_state,
           error_code = CASE WHEN p_error_code IS NULL OR EXISTS (
                                 SELECT 1 FROM public.reconciliation_cases o
                                  WHERE o.status = 'open' AND o.id <> c.id
                                    AND o.provider_key = c.provider_key
                                    AND o.provider_renewal_key = c.provider_renewal_key
                                    AND o.event_fingerprint = c.event_fingerprint
                                    AND o.error_code = p_error_code)
                             THEN c.error_code ELSE p_error_code END
     WHERE c.id = p_case_id;
END;

CREATE OR REPLACE FUNCTION public.reapply_case(p_case_id bigint, p_reason text, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    r record;
    v_resolution text;
BEGIN
    PERFORM public.rd_require_reason(p_reason);
    c := public.rd_lock_open_case(p_case_id);
    IF jsonb_typeof(c.event->'period') IS DISTINCT FROM 'object' THEN
        RAISE EXCEPTION 'case_not_reapplicable: case % has no complete renewal to apply (%); attach a provider snapshot instead',
            p_case_id, c.error_code USING ERRCODE = 'P0001';
    END IF;

    -- The very same core the webhooks use, as this operator.
    SELECT * INTO r FROM public.rd_apply_case_event(c.event, 'operator', session_user);
    v_resolution := CASE r.result WHEN 'applied' THEN 'reapplied'
                                  WHEN 'duplicate' THEN 'already_applied' END;
    IF v_resolution IS NOT NULL THEN
        PERFORM public.rd_resolve_case(p_case_id, v_resolution, r.billing_period_id, p_comment,
                                       NULL);
    ELSE
        PERFORM public.rd_keep_case_open(p_case_id, r.error_code, r.local_state);
    END IF;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code,
        reason, comment, details, chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'reapply', r.result, r.error_code, p_reason, p_comment,
            jsonb_build_object('billingPeriodId', r.billing_period_id,
                               'localState', r.local_state),
            0, '', '');
    RETURN jsonb_build_object('caseId', p_case_id, 'result', r.result,
                              'resolution', v_resolution, 'error', r.error_code,
                              'billingPeriodId', r.billing_period_id,
                              'localState', r.local_state);
END;
$$;

-- Whether a re-apply of an open case would now apply its renewal: the core's own verdict
-- (plus the one thing only the core's INSERT finds, the same period under another key).
CREATE OR REPLACE FUNCTION public.rd_case_is_applicable(c public.reconciliation_cases)
    RETURNS boolean
    LANGUAGE sql STABLE
    RETURN c.status = 'open' AND jsonb_typeof(c.event->'period') = 'object'
       AND coalesce((
           SELECT v.verdict = 'applicable'
                  AND NOT EXISTS (SELECT 1 FROM public.subscription_billing_periods b
                                   WHERE b.subscription_id = s.id
                                     AND b.period_start = (c.event->'period'->>'start')::timestamptz
                                     AND b.period_end = (c.event->'period'->>'end')::timestamptz)
             FROM public.subscriptions s,
                  LATERAL public.rd_renewal_verdict(s, c.provider_key, c.provider_renewal_key,
                      (c.event->'period'->>'start')::timestamptz,
                      (c.event->'period'->>'end')::timestamptz,
                      (c.event->>'paidAmountMinor')::bigint, c.event->>'currency') v
            WHERE s.provider_key = c.provider_key
              AND s.provider_subscription_id = c.provider_subscription_id), false);

------------------------------------------------------------------------------------------
-- 2. and 5. Attaching a provider snapshot.
------------------------------------------------------------------------------------------

-- What follows a snapshot that moved a subscription (its row lock held). Nothing yet: 0008
-- makes renewals that wait on the new period apply.
CREATE FUNCTION public.rd_after_reanchor(p_subscription_id uuid, p_snapshot_id bigint)
    RETURNS integer
    LANGUAGE sql VOLATILE
    RETURN 0;

-- p_snapshot is the normalized snapshot (the domain library validated it; this checks again
-- what the database must never accept):
-- {"providerKey","providerSubscriptionId","status","currentPeriod":{"start","end"}|null,
--  "cancelAtPeriodEnd","providerVersion","capturedAt","latestRenewal":event|null}
-- With a case: after the subscription is brought to the snapshot, the case's renewal is judged
-- again by the core in this transaction. Recorded (applied now, or found recorded with the
-- same payload) -> the case is resolved; still rejected -> it stays open with the new reason.
CREATE OR REPLACE FUNCTION public.attach_provider_snapshot(p_snapshot jsonb, p_case_id bigint,
                                                           p_reason text, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    s public.subscriptions%ROWTYPE;
    c public.reconciliation_cases%ROWTYPE;
    before jsonb;
    after jsonb;
    v_changes jsonb := '{}';
    captured timestamptz := (p_snapshot->>'capturedAt')::timestamptz;
    fp text := md5((p_snapshot - 'capturedAt')::text);
    last_snapshot public.provider_snapshots%ROWTYPE;
    last_change timestamptz;
    lr jsonb := p_snapshot->'latestRenewal';
    bp public.subscription_billing_periods%ROWTYPE;
    bp_id uuid;
    latest public.subscription_billing_periods%ROWTYPE;
    new_start timestamptz;
    new_end timestamptz;
    v_snapshot_id bigint;
    v_result text;
    created boolean := false;
    applicable bigint[];
    k text;
    r record;
    case_json jsonb;
BEGIN
    PERFORM public.rd_require_reason(p_reason);
    IF p_case_id IS NOT NULL THEN
        c := public.rd_lock_open_case(p_case_id);
        IF c.provider_key IS DISTINCT FROM p_snapshot->>'providerKey'
           OR c.provider_subscription_id IS DISTINCT FROM p_snapshot->>'providerSubscriptionId' THEN
            RAISE EXCEPTION 'snapshot_case_mismatch: case % concerns %/%, the snapshot describes %/%',
                p_case_id, c.provider_key, c.provider_subscription_id, p_snapshot->>'providerKey',
                p_snapshot->>'providerSubscriptionId' USING ERRCODE = 'P0001';
        END IF;
    END IF;
    IF jsonb_typeof(p_snapshot->'currentPeriod') = 'object' THEN
        new_start := (p_snapshot->'currentPeriod'->>'start')::timestamptz;
        new_end := (p_snapshot->'currentPeriod'->>'end')::timestamptz;
    END IF;

    -- The latest renewal belongs to this snapshot: the same provider and subscription, and
    -- (when the subscription has a current period) that very period.
    IF jsonb_typeof(lr) = 'object' THEN
        IF lr->>'providerKey' IS DISTINCT FROM p_snapshot->>'providerKey'
           OR lr->>'providerSubscriptionId' IS DISTINCT FROM p_snapshot->>'providerSubscriptionId' THEN
            RAISE EXCEPTION 'snapshot_renewal_mismatch: latestRenewal is a renewal of %/%, not of the snapshot''s subscription %/%',
                lr->>'providerKey', lr->>'providerSubscriptionId', p_snapshot->>'providerKey',
                p_snapshot->>'providerSubscriptionId' USING ERRCODE = 'P0001';
        END IF;
        IF new_start IS NOT NULL
           AND ((lr->'period'->>'start')::timestamptz IS DISTINCT FROM new_start
                OR (lr->'period'->>'end')::timestamptz IS DISTINCT FROM new_end) THEN
            RAISE EXCEPTION 'snapshot_renewal_mismatch: latestRenewal.period % - % is not the snapshot''s current period % - %',
                lr->'period'->>'start', lr->'period'->>'end', public.rd_rfc3339(new_start),
                public.rd_rfc3339(new_end) USING ERRCODE = 'P0001';
        END IF;
    END IF;

    SELECT * INTO s FROM public.subscriptions
     WHERE provider_key = p_snapshot->>'providerKey'
       AND provider_subscription_id = p_snapshot->>'providerSubscriptionId'
       FOR UPDATE;
    IF NOT FOUND THEN
        -- The provider knows a subscription we never imported: the snapshot creates it.
        INSERT INTO public.subscriptions (provider_key, provider_subscription_id, status,
                                          current_period_start, current_period_end,
                                          cancel_at_period_end, provider_version)
        VALUES (p_snapshot->>'providerKey', p_snapshot->>'providerSubscriptionId',
                p_snapshot->>'status', new_start, new_end,
                (p_snapshot->>'cancelAtPeriodEnd')::boolean, p_snapshot->>'providerVersion')
        RETURNING * INTO s;
        created := true;
        before := 'null';
    ELSE
        before := public.rd_subscription_state_json(s);
        SELECT * INTO last_snapshot FROM public.provider_snapshots ps
         WHERE ps.subscription_id = s.id ORDER BY ps.captured_at DESC, ps.id DESC LIMIT 1;
        IF FOUND AND last_snapshot.fingerprint = fp THEN
            v_result := 'unchanged';
            v_snapshot_id := last_snapshot.id;
        ELSE
            -- Stale: captured before a change we recorded since. Every change counts: the
            -- import, renewals (webhook or operator) by when we recorded them, snapshots by
            -- when the provider's state was captured.
            SELECT greatest(
                       (SELECT max(a.created_at) FROM public.subscription_transition_audits a
                         WHERE a.subscription_id = s.id
                           AND a.transition <> 'subscription_reconciled'),
                       (SELECT max(ps.captured_at) FROM public.provider_snapshots ps
                         WHERE ps.subscription_id = s.id))
              INTO last_change;
            IF last_change IS NOT NULL AND captured < last_change THEN
                RAISE EXCEPTION 'stale_snapshot: the snapshot was captured at %, before the last recorded change of % at %; fetch a new one',
                    public.rd_rfc3339(captured), s.provider_subscription_id,
                    public.rd_rfc3339(last_change)
                    USING ERRCODE = 'P0001';
            END IF;
        END IF;
    END IF;

    IF v_result IS NULL THEN
        -- The latest renewal, through the same uniqueness rules as the webhook path.
        IF jsonb_typeof(lr) = 'object' THEN
            INSERT INTO public.subscription_billing_periods
                (subscription_id, provider_key, provider_renewal_key, provider_event_id,
                 period_start, period_end, paid_amount_minor, currency, paid_at, recorded_by)
            VALUES (s.id, lr->>'providerKey', lr->>'providerRenewalKey', lr->>'providerEventId',
                    (lr->'period'->>'start')::timestamptz, (lr->'period'->>'end')::timestamptz,
                    (lr->>'paidAmountMinor')::bigint, lr->>'currency',
                    (lr->>'paidAt')::timestamptz, 'snapshot')
            ON CONFLICT DO NOTHING
            RETURNING id INTO bp_id;
            IF bp_id IS NULL THEN
                SELECT * INTO bp FROM public.subscription_billing_periods b
                 WHERE b.provider_key = lr->>'providerKey'
                   AND b.provider_renewal_key = lr->>'providerRenewalKey';
                IF NOT FOUND OR bp.subscription_id <> s.id
                   OR bp.period_start <> (lr->'period'->>'start')::timestamptz
                   OR bp.period_end <> (lr->'period'->>'end')::timestamptz
                   OR bp.paid_amount_minor <> (lr->>'paidAmountMinor')::bigint
                   OR bp.currency <> lr->>'currency' THEN
                    RAISE EXCEPTION 'provider_renewal_key_payload_conflict: the snapshot''s latest renewal % disagrees with the billing period already recorded',
                        lr->>'providerRenewalKey' USING ERRCODE = 'P0001';
                END IF;
                -- Already recorded: nothing to add.
            END IF;
        END IF;

        -- Never behind a paid period we recorded: the provider's object was fetched before
        -- that renewal, whatever its capturedAt says.
        IF new_end IS NOT NULL THEN
            SELECT * INTO latest FROM public.subscription_billing_periods b
             WHERE b.subscription_id = s.id ORDER BY b.period_end DESC LIMIT 1;
            IF FOUND AND new_end < latest.period_end THEN
                RAISE EXCEPTION 'snapshot_rewinds_period: the snapshot''s current period % - % ends before the billing period % - % already recorded (renewal %); fetch the provider''s current state',
                    public.rd_rfc3339(new_start), public.rd_rfc3339(new_end),
                    public.rd_rfc3339(latest.period_start), public.rd_rfc3339(latest.period_end),
                    latest.provider_renewal_key USING ERRCODE = 'P0001';
            END IF;
        END IF;

        IF NOT created THEN
            UPDATE public.subscriptions
               SET status = p_snapshot->>'status',
                   current_period_start = new_start, current_period_end = new_end,
                   cancel_at_period_end = (p_snapshot->>'cancelAtPeriodEnd')::boolean,
                   provider_version = coalesce(p_snapshot->>'providerVersion', provider_version),
                   revision = revision + 1, updated_at = now()
             WHERE id = s.id
            RETURNING * INTO s;
        END IF;
        after := public.rd_subscription_state_json(s);
        FOR k IN SELECT key FROM jsonb_each(after) LOOP
            IF k NOT IN ('revision', 'subscriptionId')
               AND (before = 'null' OR before->k IS DISTINCT FROM after->k) THEN
                v_changes := v_changes || jsonb_build_object(k, jsonb_build_object(
                    'before', CASE WHEN before = 'null' THEN 'null'::jsonb ELSE before->k END,
                    'after', after->k));
            END IF;
        END LOOP;

        INSERT INTO public.provider_snapshots (subscription_id, provider_key,
            provider_subscription_id, snapshot, fingerprint, captured_at, changes,
            billing_period_id, case_id, reason, comment)
        VALUES (s.id, s.provider_key, s.provider_subscription_id, p_snapshot, fp, captured,
                v_changes, bp_id, p_case_id, p_reason, p_comment)
        RETURNING id INTO v_snapshot_id;

        INSERT INTO public.subscription_transition_audits
            (subscription_id, transition, billing_period_id, actor_type, actor_id,
             provider_renewal_key, period_start, period_end, reason, comment, details)
        VALUES (s.id, 'subscription_reconciled', bp_id, 'operator', session_user,
                lr->>'providerRenewalKey', new_start, new_end, p_reason, p_comment,
                jsonb_build_object('before', before, 'after', after, 'changes', v_changes,
                                   'snapshotId', v_snapshot_id, 'caseId', p_case_id));
        INSERT INTO public.subscription_outbox (event_type, subscription_id, billing_period_id,
                                               payload)
        VALUES ('subscription_reconciled', s.id, bp_id, jsonb_build_object(
            'type', 'subscription_reconciled', 'subscriptionId', s.id,
            'providerKey', s.provider_key, 'providerSubscriptionId', s.provider_subscription_id,
            'snapshotId', v_snapshot_id, 'billingPeriodId', bp_id, 'changes', v_changes,
            'state', after));
        v_result := CASE WHEN created THEN 'created' ELSE 'attached' END;
    END IF;

    IF p_case_id IS NOT NULL THEN
        -- Judge the case's renewal again against the state the snapshot brought.
        IF jsonb_typeof(c.event->'period') = 'object' THEN
            SELECT * INTO r FROM public.rd_apply_case_event(c.event, 'operator', session_user);
        ELSE
            -- A renewal the payload could not complete (needs_snapshot): it is recorded only
            -- if the snapshot's latest renewal is that renewal.
            SELECT CASE WHEN b.id IS NULL THEN 'rejected' ELSE 'duplicate' END AS result,
                   b.id AS billing_period_id,
                   CASE WHEN b.id IS NULL THEN c.error_code END AS error_code,
                   public.rd_subscription_state_json(s) AS local_state
              INTO r
              FROM (SELECT 1) one
              LEFT JOIN public.subscription_billing_periods b
                ON b.provider_key = c.provider_key
               AND b.provider_renewal_key = c.provider_renewal_key
               AND b.subscription_id = s.id
               AND (c.event->>'paidAmountMinor' IS NULL
                    OR b.paid_amount_minor = (c.event->>'paidAmountMinor')::bigint)
               AND (c.event->>'currency' IS NULL OR b.currency = c.event->>'currency');
        END IF;
        IF r.result IN ('applied', 'duplicate') THEN
            PERFORM public.rd_resolve_case(p_case_id, 'snapshot_attached', r.billing_period_id,
                                           p_comment, v_snapshot_id);
        ELSE
            PERFORM public.rd_keep_case_open(p_case_id, r.error_code, r.local_state);
            UPDATE public.reconciliation_cases SET snapshot_id = v_snapshot_id
             WHERE id = p_case_id;
        END IF;
        -- Both steps in the case's history: the snapshot, then the judgment of its renewal.
        INSERT INTO public.reconciliation_case_history (case_id, action, outcome, reason,
            comment, details, chain_seq, prev_hash, row_hash)
        VALUES (p_case_id, 'snapshot_attached', v_result, p_reason, p_comment,
                jsonb_build_object('snapshotId', v_snapshot_id, 'changes', v_changes),
                0, '', '');
        INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code,
            reason, comment, details, chain_seq, prev_hash, row_hash)
        VALUES (p_case_id, 'reapply', r.result, r.error_code, p_reason, p_comment,
                jsonb_build_object('afterSnapshot', v_snapshot_id,
                                   'billingPeriodId', r.billing_period_id,
                                   'localState', r.local_state),
                0, '', '');
        case_json := jsonb_build_object(
            'id', p_case_id,
            'status', CASE WHEN r.result IN ('applied', 'duplicate') THEN 'resolved' ELSE 'open' END,
            'renewal', r.result, 'error', r.error_code, 'billingPeriodId', r.billing_period_id);
    END IF;

    -- The subscription moved: what waited on its new period (0008).
    IF v_result <> 'unchanged' THEN
        PERFORM public.rd_after_reanchor(s.id, v_snapshot_id);
    END IF;

    SELECT coalesce(array_agg(oc.id ORDER BY oc.id), '{}') INTO applicable
      FROM public.reconciliation_cases oc
     WHERE oc.provider_key = s.provider_key
       AND oc.provider_subscription_id = s.provider_subscription_id
       AND oc.status = 'open' AND public.rd_case_is_applicable(oc);

    RETURN jsonb_build_object('result', v_result, 'snapshotId', v_snapshot_id,
                              'subscriptionId', s.id, 'changes', v_changes,
                              'billingPeriodId', bp_id, 'caseId', p_case_id,
                              'case', case_json, 'applicableCases', to_jsonb(applicable));
END;
$$;

-- What attaching would do, without doing it: the attach runs in a subtransaction that is
-- rolled back, so the preview is the real function's own judgment (refusals included).
-- Holds the subscription's and the case's row locks for the moment it runs, like the attach.
CREATE FUNCTION public.preview_provider_snapshot(p_snapshot jsonb, p_case_id bigint)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    outcome text;
    message text;
BEGIN
    BEGIN
        outcome := public.attach_provider_snapshot(p_snapshot, p_case_id, 'preview', NULL)::text;
        RAISE EXCEPTION USING ERRCODE = 'RDPRV', MESSAGE = 'preview', DETAIL = outcome;
    EXCEPTION
        WHEN SQLSTATE 'RDPRV' THEN
            GET STACKED DIAGNOSTICS outcome = PG_EXCEPTION_DETAIL;
            RETURN jsonb_build_object('wouldBe', outcome::jsonb);
        WHEN SQLSTATE 'P0001' THEN
            GET STACKED DIAGNOSTICS message = MESSAGE_TEXT;
            RETURN jsonb_build_object('refused', message);
    END;
END;
$$;

------------------------------------------------------------------------------------------
-- 1. Every SECURITY DEFINER and trigger function of this schema, old and new, resolves
-- names with pg_temp last.
------------------------------------------------------------------------------------------

DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_catalog.pg_proc p
              WHERE p.pronamespace = 'public'::regnamespace
                AND (p.prosecdef OR p.prorettype = 'trigger'::regtype) LOOP
        EXECUTE format('ALTER FUNCTION %s SET search_path = pg_catalog, public, pg_temp', f);
    END LOOP;
END;
$$;

------------------------------------------------------------------------------------------
-- Privileges of what this file made.
------------------------------------------------------------------------------------------

REVOKE EXECUTE ON FUNCTION
    public.apply_successful_renewal(text, text, text, text, text, timestamptz, timestamptz,
                                    bigint, text, timestamptz, text, text, uuid),
    public.rd_apply_case_event(jsonb, text, text),
    public.rd_resolve_case(bigint, text, uuid, text, bigint),
    public.rd_keep_case_open(bigint, text, jsonb),
    public.rd_after_reanchor(uuid, bigint),
    public.preview_provider_snapshot(jsonb, bigint)
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION
    public.apply_successful_renewal(text, text, text, text, text, timestamptz, timestamptz,
                                    bigint, text, timestamptz, text, text, uuid)
    TO renewal_ingest;
GRANT EXECUTE ON FUNCTION public.preview_provider_snapshot(jsonb, bigint) TO renewal_operator;
