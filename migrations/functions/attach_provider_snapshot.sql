REVOKE ALL ON FUNCTION public.attach_provider_snapshot(jsonb,bigint,text,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.attach_provider_snapshot(jsonb,bigint,text,text) TO renewal_operator;

-- As 0009's, with 0023's SET clause (CREATE OR REPLACE sets a function's settings anew), plus: the case's renewal
-- as the snapshot's latest renewal when it is the current period's and nothing else records
-- it; the case's history says why when it is not; the subscription's cases linked; the
-- unrecorded renewals the subscription moves past listed (leftBehind). The normalized snapshot
-- may carry "latestRenewalKey": the provider's id of the renewal that began its current period,
-- when its object names it without its facts (Stripe's latest_invoice, not expanded).
CREATE OR REPLACE FUNCTION public.attach_provider_snapshot(p_snapshot jsonb, p_case_id bigint,
                                                           p_reason text, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
    SET renewal_desk.core_counts = 'off'
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
    v_found boolean;
    -- The renewal the provider says began its current period, when it names it without its
    -- facts (Stripe's latest_invoice id): absent, the snapshot names none.
    v_named_key text := p_snapshot->>'latestRenewalKey';
    -- The case's renewal is the renewal of the snapshot's current period (#28): recorded as the
    -- snapshot's latest renewal.
    v_from_case boolean := false;
    v_why text; -- the case's renewal is the current period's, but not recorded: why
    v_old_end timestamptz;
    v_left_behind jsonb;
BEGIN
    PERFORM public.rd_require_reason(p_reason);
    IF p_case_id IS NOT NULL THEN
        c := public.rd_lock_open_case(p_case_id);
        -- A snapshot records renewals, never money back: a money back case's key (a Paddle
        -- chargeback's is its transaction, the renewal's own key) must not find the renewal
        -- and close the case unrecorded.
        IF pg_catalog.jsonb_typeof(c.event->'movements') = 'array' THEN
            RAISE EXCEPTION 'case % is about money back (%): a provider snapshot records no refund or dispute; re-apply the case once its renewal is recorded, or dismiss it with a note',
                p_case_id, c.error_code USING ERRCODE = 'RD009';
        END IF;
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
    v_found := FOUND;
    v_old_end := s.current_period_end;

    -- The case's renewal for the very period the snapshot makes current, when the snapshot
    -- names no renewal of its own for it: nothing else will record it. The period moves to it
    -- either way, so a renewal left unrecorded here would never apply again (it would overlap
    -- the period it paid for).
    IF p_case_id IS NOT NULL AND jsonb_typeof(c.event->'period') = 'object'
       AND new_start = (c.event->'period'->>'start')::timestamptz
       AND new_end = (c.event->'period'->>'end')::timestamptz THEN
        SELECT b.provider_renewal_key INTO k FROM public.subscription_billing_periods b
         WHERE b.subscription_id = s.id AND b.period_start = new_start
           AND b.period_end = new_end;
        -- The renewal the snapshot names for its period: its latest renewal's, or the key alone.
        IF jsonb_typeof(lr) = 'object' THEN
            v_named_key := lr->>'providerRenewalKey';
        END IF;
        IF v_named_key IS NOT NULL AND v_named_key <> c.provider_renewal_key THEN
            v_why := pg_catalog.format(
                'the snapshot names renewal %s as the one that began its current period %s - %s, not this case''s renewal %s: the case''s renewal is not recorded from it',
                v_named_key, public.rd_rfc3339(new_start), public.rd_rfc3339(new_end),
                c.provider_renewal_key);
        ELSIF k IS NOT NULL AND k <> c.provider_renewal_key THEN
            v_why := pg_catalog.format(
                'the period %s - %s is already recorded by renewal %s, not by this case''s renewal %s',
                public.rd_rfc3339(new_start), public.rd_rfc3339(new_end), k,
                c.provider_renewal_key);
        ELSIF jsonb_typeof(lr) IS DISTINCT FROM 'object' AND k IS NULL AND NOT EXISTS (
                SELECT 1 FROM public.subscription_billing_periods b
                 WHERE b.provider_key = c.provider_key
                   AND b.provider_renewal_key = c.provider_renewal_key) THEN
            lr := c.event;
            v_from_case := true;
        END IF;
        k := NULL;
    END IF;

    IF NOT v_found THEN
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
        -- The same snapshot again is no change, unless it now records the case's renewal.
        IF FOUND AND last_snapshot.fingerprint = fp AND NOT v_from_case THEN
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

    -- 2. The cases that waited for this subscription (subscription_not_found) are its cases.
    UPDATE public.reconciliation_cases oc SET subscription_id = s.id
     WHERE oc.provider_key = s.provider_key
       AND oc.provider_subscription_id = s.provider_subscription_id
       AND oc.subscription_id IS NULL;

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
            IF bp_id IS NOT NULL THEN
                -- The money back that waited for it (#40), as a delivery's renewal does.
                PERFORM public.rd_heal_money_back(lr->>'providerKey', bp_id, lr);
            END IF;
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

        -- Numbered by rd_new_id: none of the numbers users cite for a preview (#42, 12).
        INSERT INTO public.provider_snapshots (id, subscription_id, provider_key,
            provider_subscription_id, snapshot, fingerprint, captured_at, changes,
            billing_period_id, case_id, reason, comment)
        OVERRIDING SYSTEM VALUE
        VALUES (public.rd_new_id('public.provider_snapshots_id_seq'), s.id, s.provider_key, s.provider_subscription_id, p_snapshot, fp, captured,
                v_changes, bp_id, p_case_id, p_reason, p_comment)
        RETURNING id INTO v_snapshot_id;

        INSERT INTO public.subscription_transition_audits
            (subscription_id, transition, billing_period_id, actor_type, actor_id,
             provider_renewal_key, period_start, period_end, reason, comment, details)
        VALUES (s.id, 'subscription_reconciled', bp_id, 'operator', session_user,
                lr->>'providerRenewalKey', new_start, new_end, p_reason, p_comment,
                jsonb_build_object('before', before, 'after', after, 'changes', v_changes,
                                   'snapshotId', v_snapshot_id, 'caseId', p_case_id)
                || CASE WHEN v_from_case THEN jsonb_build_object('renewalFromCase', true)
                        ELSE '{}'::jsonb END
                -- The billing period this snapshot recorded, in the row's hashed form: what
                -- audit_billing_period_breaks() holds the billing period to (#39, item 3).
                || CASE WHEN bp_id IS NOT NULL THEN jsonb_build_object('billingPeriod',
                        jsonb_build_object('id', bp_id,
                            'period', public.rd_period_json((lr->'period'->>'start')::timestamptz,
                                                            (lr->'period'->>'end')::timestamptz),
                            'paidAmountMinor', (lr->>'paidAmountMinor')::bigint,
                            'currency', lr->>'currency'))
                        ELSE '{}'::jsonb END);
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
                jsonb_build_object('snapshotId', v_snapshot_id, 'changes', v_changes)
                || CASE WHEN v_from_case THEN jsonb_build_object('renewalFromCase', true)
                        ELSE '{}'::jsonb END,
                0, '', '');
        INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code,
            reason, comment, details, chain_seq, prev_hash, row_hash)
        VALUES (p_case_id, 'reapply', r.result, r.error_code, p_reason, p_comment,
                jsonb_build_object('afterSnapshot', v_snapshot_id,
                                   'billingPeriodId', r.billing_period_id,
                                   'localState', r.local_state)
                || CASE WHEN r.result = 'rejected' AND v_why IS NOT NULL
                        THEN jsonb_build_object('why', v_why) ELSE '{}'::jsonb END
                || CASE WHEN v_from_case THEN jsonb_build_object('renewalFromCase', true)
                        ELSE '{}'::jsonb END,
                0, '', '');
        case_json := jsonb_build_object(
            'id', p_case_id,
            'status', CASE WHEN r.result IN ('applied', 'duplicate') THEN 'resolved' ELSE 'open' END,
            'renewal', r.result, 'error', r.error_code, 'billingPeriodId', r.billing_period_id,
            'renewalFromCase', v_from_case,
            'why', CASE WHEN r.result = 'rejected' THEN v_why END);
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

    -- The open cases whose renewal this snapshot moves the subscription past without recording
    -- it: their renewal started at or after the period's old end (ahead of the subscription)
    -- and starts before its new end (behind it now), and no billing period records it. The
    -- preview (and the desk's, and `--preview`'s) says so in words before anything is written.
    SELECT coalesce(jsonb_agg(jsonb_build_object(
               'caseId', oc.id, 'renewalKey', oc.provider_renewal_key,
               'period', oc.event->'period', 'paidAmountMinor', oc.event->'paidAmountMinor',
               'currency', oc.event->'currency') ORDER BY oc.renewal_period_start, oc.id), '[]')
      INTO v_left_behind
      FROM public.reconciliation_cases oc
     WHERE v_result <> 'unchanged'
       AND oc.provider_key = s.provider_key
       AND oc.provider_subscription_id = s.provider_subscription_id
       AND oc.status = 'open' AND oc.renewal_period_start IS NOT NULL
       AND (v_old_end IS NULL OR oc.renewal_period_start >= v_old_end)
       AND oc.renewal_period_start < s.current_period_end
       AND NOT EXISTS (SELECT 1 FROM public.subscription_billing_periods b
                        WHERE b.provider_key = oc.provider_key
                          AND b.provider_renewal_key = oc.provider_renewal_key);

    RETURN jsonb_build_object('result', v_result, 'snapshotId', v_snapshot_id,
                              'subscriptionId', s.id, 'changes', v_changes,
                              'billingPeriodId', bp_id, 'caseId', p_case_id,
                              'case', case_json, 'applicableCases', to_jsonb(applicable),
                              'renewalFromCase', CASE WHEN v_from_case THEN jsonb_build_object(
                                  'caseId', p_case_id, 'renewalKey', c.provider_renewal_key,
                                  'period', c.event->'period',
                                  'paidAmountMinor', c.event->'paidAmountMinor',
                                  'currency', c.event->'currency') END,
                              'leftBehind', v_left_behind,
                              -- As it is now: the healing above may have moved it on.
                              'subscriptionAfter', (
                                  SELECT public.rd_subscription_state_json(x)
                                    FROM public.subscriptions x WHERE x.id = s.id));
END;
$$;
