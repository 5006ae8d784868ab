-- Refusals carry their own SQLSTATE.
--
-- An operator action the database refuses (a closed case, a stale snapshot, a missing note,
-- ...) used to raise P0001 with the reason code at the start of its message, and the programs
-- parsed the code out of the text. Each refusal now raises a code of its own in the class RD
-- ("RD" + three digits); the message is the sentence for people. The programs map the
-- SQLSTATE to their typed refusal in one place (domain/store/action_refused.cpp):
--
--   RD001 case_not_found          RD005 invalid_reason                  RD009 snapshot_case_mismatch
--   RD002 case_already_closed     RD006 stale_snapshot                  RD010 snapshot_renewal_mismatch
--   RD003 case_not_reapplicable   RD007 provider_renewal_key_payload_conflict
--   RD004 note_required           RD008 snapshot_rewinds_period         RD011 provider_exists
--
-- RDPRV stays the preview's private signal (it never leaves preview_provider_snapshot).
-- The functions below are the ones that refuse. Each replaces its latest earlier definition
-- (0003, 0004 or 0007) unchanged but for the codes, schema-qualified names and pg_temp last.

CREATE OR REPLACE FUNCTION public.rd_require_reason(p_reason text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    IF p_reason IS NULL OR p_reason !~ '^[a-z][a-z0-9_]{1,62}$' THEN
        RAISE EXCEPTION 'a reason code (lower case, e.g. provider_confirmed) is required'
            USING ERRCODE = 'RD005';
    END IF;
END;
$$;

-- Locks an open case or explains why it is not open.
CREATE OR REPLACE FUNCTION public.rd_lock_open_case(p_case_id bigint)
    RETURNS public.reconciliation_cases
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
BEGIN
    SELECT * INTO c FROM public.reconciliation_cases WHERE id = p_case_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'there is no case %', p_case_id USING ERRCODE = 'RD001';
    END IF;
    IF c.status <> 'open' THEN
        RAISE EXCEPTION 'case % was already % (%) by % at %', p_case_id,
            c.status, c.resolution, c.resolved_by, public.rd_rfc3339(c.resolved_at)
            USING ERRCODE = 'RD002';
    END IF;
    RETURN c;
END;
$$;

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
        RAISE EXCEPTION 'case % has no complete renewal to apply (%); attach a provider snapshot instead',
            p_case_id, c.error_code USING ERRCODE = 'RD003';
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

CREATE OR REPLACE FUNCTION public.dismiss_case(p_case_id bigint, p_reason text, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    PERFORM public.rd_require_reason(p_reason);
    IF p_comment IS NULL OR btrim(p_comment) = '' THEN
        RAISE EXCEPTION 'dismissing a case needs a note saying why'
            USING ERRCODE = 'RD004';
    END IF;
    PERFORM public.rd_lock_open_case(p_case_id);
    UPDATE public.reconciliation_cases
       SET status = 'dismissed', resolution = 'dismissed', resolved_at = now(),
           resolved_by = session_user, resolution_comment = p_comment
     WHERE id = p_case_id;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, reason, comment,
                                             chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'dismissed', 'dismissed', p_reason, p_comment, 0, '', '');
    RETURN jsonb_build_object('caseId', p_case_id, 'result', 'dismissed');
END;
$$;

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
            RAISE EXCEPTION 'case % concerns %/%, the snapshot describes %/%',
                p_case_id, c.provider_key, c.provider_subscription_id, p_snapshot->>'providerKey',
                p_snapshot->>'providerSubscriptionId' USING ERRCODE = 'RD009';
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
            RAISE EXCEPTION 'latestRenewal is a renewal of %/%, not of the snapshot''s subscription %/%',
                lr->>'providerKey', lr->>'providerSubscriptionId', p_snapshot->>'providerKey',
                p_snapshot->>'providerSubscriptionId' USING ERRCODE = 'RD010';
        END IF;
        IF new_start IS NOT NULL
           AND ((lr->'period'->>'start')::timestamptz IS DISTINCT FROM new_start
                OR (lr->'period'->>'end')::timestamptz IS DISTINCT FROM new_end) THEN
            RAISE EXCEPTION 'latestRenewal.period % - % is not the snapshot''s current period % - %',
                lr->'period'->>'start', lr->'period'->>'end', public.rd_rfc3339(new_start),
                public.rd_rfc3339(new_end) USING ERRCODE = 'RD010';
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
                RAISE EXCEPTION 'the snapshot was captured at %, before the last recorded change of % at %; fetch a new one',
                    public.rd_rfc3339(captured), s.provider_subscription_id,
                    public.rd_rfc3339(last_change)
                    USING ERRCODE = 'RD006';
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
                    RAISE EXCEPTION 'the snapshot''s latest renewal % disagrees with the billing period already recorded',
                        lr->>'providerRenewalKey' USING ERRCODE = 'RD007';
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
                RAISE EXCEPTION 'the snapshot''s current period % - % ends before the billing period % - % already recorded (renewal %); fetch the provider''s current state',
                    public.rd_rfc3339(new_start), public.rd_rfc3339(new_end),
                    public.rd_rfc3339(latest.period_start), public.rd_rfc3339(latest.period_end),
                    latest.provider_renewal_key USING ERRCODE = 'RD008';
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
CREATE OR REPLACE FUNCTION public.preview_provider_snapshot(p_snapshot jsonb, p_case_id bigint)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    outcome text;
    state text;
    message text;
BEGIN
    BEGIN
        -- The attach is always rolled back: its reason is never kept, but it must be one
        -- the list of operator reason codes accepts (0010).
        outcome := public.attach_provider_snapshot(p_snapshot, p_case_id, 'other', NULL)::text;
        RAISE EXCEPTION USING ERRCODE = 'RDPRV', MESSAGE = 'preview', DETAIL = outcome;
    EXCEPTION
        WHEN SQLSTATE 'RDPRV' THEN
            GET STACKED DIAGNOSTICS outcome = PG_EXCEPTION_DETAIL;
            RETURN jsonb_build_object('wouldBe', outcome::jsonb);
        WHEN SQLSTATE 'RD000' THEN -- the class of every refusal
            GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
            RETURN jsonb_build_object('refused', jsonb_build_object('sqlstate', state,
                                                                    'message', message));
    END;
END;
$$;

-- Registers a provider. Registering it again identically is a no-op ('exists'); with another
-- kind or name it is refused: deliveries already stored were normalized with the old kind.
CREATE OR REPLACE FUNCTION public.register_billing_provider(p_key text, p_kind text,
                                                            p_display_name text)
    RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    p public.billing_providers%ROWTYPE;
BEGIN
    INSERT INTO public.billing_providers (provider_key, kind, display_name)
    VALUES (p_key, p_kind, coalesce(nullif(p_display_name, ''), p_key))
    ON CONFLICT (provider_key) DO NOTHING;
    IF FOUND THEN
        RETURN 'created';
    END IF;
    SELECT * INTO p FROM public.billing_providers WHERE provider_key = p_key;
    IF p.kind = p_kind AND (p_display_name IS NULL OR p_display_name = ''
                            OR p.display_name = p_display_name) THEN
        RETURN 'exists';
    END IF;
    RAISE EXCEPTION 'provider % is already registered as % (%)', p_key, p.kind,
        p.display_name USING ERRCODE = 'RD011';
END;
$$;
