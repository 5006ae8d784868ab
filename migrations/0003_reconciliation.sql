-- Reconciliation: the ways out of a case (re-apply, provider snapshot, dismissal), who may take
-- them, and an audit trail that is append-only and tamper-evident.
--
-- Permission model, enforced here and not only in the desk:
--   renewal_viewer   reads everything the desk shows, changes nothing;
--   renewal_operator viewer + the operator actions (SECURITY DEFINER functions below);
--   renewal_ingest   what webhook ingestion and the outbox publisher need.
-- No group role can write a table directly. The acting person is the connection's login
-- role (session_user), recorded by the database, never a name typed in a form.

DO $$
BEGIN
    -- Roles are cluster-wide: another database of the same cluster may have made them.
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'renewal_viewer') THEN
        CREATE ROLE renewal_viewer NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'renewal_operator') THEN
        CREATE ROLE renewal_operator NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'renewal_ingest') THEN
        CREATE ROLE renewal_ingest NOLOGIN;
    END IF;
END;
$$;
GRANT renewal_viewer TO renewal_operator;
GRANT renewal_viewer TO renewal_ingest;

-- Refusals raised by the operator actions: SQLSTATE P0001 with the message
-- "<code>: <sentence for people>", mapped to typed errors by the domain library.

------------------------------------------------------------------------------------------
-- Tamper evidence: every audit row carries a SHA-256 over its canonical content and the
-- previous row's hash. Chains are per subscription (audits) and per case (case history):
-- each writer already holds that subscription's or case's row lock, so chaining adds no
-- global serialization point to the renewal path.
------------------------------------------------------------------------------------------

ALTER TABLE subscription_transition_audits
    ADD COLUMN chain_seq bigint,
    ADD COLUMN prev_hash text,
    ADD COLUMN row_hash text;

CREATE FUNCTION rd_audit_canonical(a subscription_transition_audits) RETURNS text
    LANGUAGE sql IMMUTABLE
    RETURN jsonb_build_object(
        'subscriptionId', a.subscription_id, 'transition', a.transition,
        'billingPeriodId', a.billing_period_id, 'actorType', a.actor_type,
        'actorId', a.actor_id, 'dbRole', a.db_role, 'providerEventId', a.provider_event_id,
        'providerRenewalKey', a.provider_renewal_key,
        'periodStart', rd_rfc3339(a.period_start), 'periodEnd', rd_rfc3339(a.period_end),
        'reason', a.reason, 'comment', a.comment, 'details', a.details,
        'createdAt', rd_rfc3339(a.created_at), 'chainSeq', a.chain_seq,
        'prevHash', a.prev_hash)::text;

CREATE FUNCTION rd_sha256_hex(t text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN encode(sha256(convert_to(t, 'UTF8')), 'hex');

CREATE FUNCTION rd_audit_chain_link() RETURNS trigger
    LANGUAGE plpgsql
AS $$
DECLARE
    last_seq bigint;
    last_hash text;
BEGIN
    SELECT chain_seq, row_hash INTO last_seq, last_hash
      FROM subscription_transition_audits
     WHERE subscription_id = NEW.subscription_id
     ORDER BY chain_seq DESC LIMIT 1;
    NEW.chain_seq := coalesce(last_seq, 0) + 1;
    NEW.prev_hash := coalesce(last_hash, '');
    NEW.row_hash := rd_sha256_hex(rd_audit_canonical(NEW));
    RETURN NEW;
END;
$$;

-- Chain the rows written before this migration, in the order they were written.
DO $$
DECLARE
    r subscription_transition_audits%ROWTYPE;
    cur uuid := NULL;
    seq bigint := 0;
    prev text := '';
BEGIN
    FOR r IN SELECT * FROM subscription_transition_audits ORDER BY subscription_id, id LOOP
        IF cur IS DISTINCT FROM r.subscription_id THEN
            cur := r.subscription_id; seq := 0; prev := '';
        END IF;
        seq := seq + 1;
        r.chain_seq := seq;
        r.prev_hash := prev;
        prev := rd_sha256_hex(rd_audit_canonical(r));
        UPDATE subscription_transition_audits
           SET chain_seq = seq, prev_hash = r.prev_hash, row_hash = prev
         WHERE id = r.id;
    END LOOP;
END;
$$;

ALTER TABLE subscription_transition_audits
    ALTER COLUMN chain_seq SET NOT NULL,
    ALTER COLUMN prev_hash SET NOT NULL,
    ALTER COLUMN row_hash SET NOT NULL;
-- Also what makes two unlocked writers fail loudly instead of forking a chain.
CREATE UNIQUE INDEX subscription_audits_chain
    ON subscription_transition_audits (subscription_id, chain_seq);
DROP INDEX subscription_audits_by_subscription;

CREATE TRIGGER subscription_audits_chain_link
    BEFORE INSERT ON subscription_transition_audits
    FOR EACH ROW EXECUTE FUNCTION rd_audit_chain_link();

-- Append-only for every role, the owner included. (A superuser can still disable triggers:
-- that is what the hash chain and an exported anchor are for.)
CREATE FUNCTION rd_refuse_change() RETURNS trigger
    LANGUAGE plpgsql
AS $$
BEGIN
    RAISE EXCEPTION 'append_only: % rows cannot be changed or removed (% refused)',
        TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER subscription_audits_append_only
    BEFORE UPDATE OR DELETE ON subscription_transition_audits
    FOR EACH ROW EXECUTE FUNCTION rd_refuse_change();
CREATE TRIGGER subscription_audits_no_truncate
    BEFORE TRUNCATE ON subscription_transition_audits
    FOR EACH STATEMENT EXECUTE FUNCTION rd_refuse_change();

------------------------------------------------------------------------------------------
-- Cases: evidence, history, snapshots.
------------------------------------------------------------------------------------------

CREATE TABLE reconciliation_case_history (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    case_id    bigint NOT NULL REFERENCES reconciliation_cases (id),
    action     text NOT NULL CHECK (action IN ('opened', 'occurrence', 'reapply',
                   'snapshot_attached', 'dismissed')),
    outcome    text NOT NULL,
    error_code text,
    actor      text NOT NULL DEFAULT session_user,
    reason     text,
    comment    text,
    details    jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    chain_seq  bigint NOT NULL,
    prev_hash  text NOT NULL,
    row_hash   text NOT NULL
);
CREATE UNIQUE INDEX reconciliation_case_history_chain
    ON reconciliation_case_history (case_id, chain_seq);

CREATE FUNCTION rd_case_history_canonical(h reconciliation_case_history) RETURNS text
    LANGUAGE sql IMMUTABLE
    RETURN jsonb_build_object(
        'caseId', h.case_id, 'action', h.action, 'outcome', h.outcome,
        'errorCode', h.error_code, 'actor', h.actor, 'reason', h.reason,
        'comment', h.comment, 'details', h.details, 'createdAt', rd_rfc3339(h.created_at),
        'chainSeq', h.chain_seq, 'prevHash', h.prev_hash)::text;

CREATE FUNCTION rd_case_history_chain_link() RETURNS trigger
    LANGUAGE plpgsql
AS $$
DECLARE
    last_seq bigint;
    last_hash text;
BEGIN
    SELECT chain_seq, row_hash INTO last_seq, last_hash
      FROM reconciliation_case_history
     WHERE case_id = NEW.case_id
     ORDER BY chain_seq DESC LIMIT 1;
    NEW.chain_seq := coalesce(last_seq, 0) + 1;
    NEW.prev_hash := coalesce(last_hash, '');
    NEW.row_hash := rd_sha256_hex(rd_case_history_canonical(NEW));
    RETURN NEW;
END;
$$;

CREATE TRIGGER reconciliation_case_history_chain_link
    BEFORE INSERT ON reconciliation_case_history
    FOR EACH ROW EXECUTE FUNCTION rd_case_history_chain_link();
CREATE TRIGGER reconciliation_case_history_append_only
    BEFORE UPDATE OR DELETE ON reconciliation_case_history
    FOR EACH ROW EXECUTE FUNCTION rd_refuse_change();
CREATE TRIGGER reconciliation_case_history_no_truncate
    BEFORE TRUNCATE ON reconciliation_case_history
    FOR EACH STATEMENT EXECUTE FUNCTION rd_refuse_change();

-- Open cases from before this migration get their "opened" entry.
INSERT INTO reconciliation_case_history (case_id, action, outcome, error_code, actor, details,
                                         created_at, chain_seq, prev_hash, row_hash)
SELECT id, 'opened', 'open', error_code, 'system', jsonb_build_object('migrated', true),
       first_seen_at, 0, '', ''
  FROM reconciliation_cases;

-- The authoritative provider state of one subscription, as attached by an operator.
CREATE TABLE provider_snapshots (
    id                       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subscription_id          uuid NOT NULL REFERENCES subscriptions (id),
    provider_key             text NOT NULL,
    provider_subscription_id text NOT NULL,
    snapshot                 jsonb NOT NULL,
    fingerprint              text NOT NULL,
    captured_at              timestamptz NOT NULL,
    changes                  jsonb NOT NULL,
    billing_period_id        uuid REFERENCES subscription_billing_periods (id),
    case_id                  bigint REFERENCES reconciliation_cases (id),
    attached_by              text NOT NULL DEFAULT session_user,
    reason                   text NOT NULL,
    comment                  text,
    attached_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX provider_snapshots_by_subscription
    ON provider_snapshots (subscription_id, captured_at DESC, id DESC);
CREATE TRIGGER provider_snapshots_immutable
    BEFORE UPDATE OR DELETE ON provider_snapshots
    FOR EACH ROW EXECUTE FUNCTION rd_refuse_change();

ALTER TABLE reconciliation_cases
    ADD COLUMN resolution_comment text,
    ADD COLUMN snapshot_id bigint REFERENCES provider_snapshots (id);

------------------------------------------------------------------------------------------
-- The renewal core under the permission model.
------------------------------------------------------------------------------------------

ALTER FUNCTION apply_successful_renewal(text, text, text, text, text, timestamptz, timestamptz,
                                        bigint, text, timestamptz, text, text)
    SECURITY DEFINER SET search_path = pg_catalog, public;

-- Now with history: opening a case and every further occurrence are recorded.
CREATE OR REPLACE FUNCTION record_reconciliation_case(p_event jsonb, p_error_code text,
                                                      p_local_state jsonb) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
DECLARE
    case_id bigint;
    inserted boolean;
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
    RETURNING id, (xmax = 0) INTO case_id, inserted;

    INSERT INTO reconciliation_case_history (case_id, action, outcome, error_code, details,
                                             chain_seq, prev_hash, row_hash)
    VALUES (case_id, CASE WHEN inserted THEN 'opened' ELSE 'occurrence' END, 'open',
            p_error_code,
            jsonb_build_object('providerEventId', p_event->>'providerEventId',
                               'localState', p_local_state),
            0, '', '');
    RETURN case_id;
END;
$$;

------------------------------------------------------------------------------------------
-- Operator actions. Each is one transaction; the case row lock makes concurrent operators
-- queue, and the second finds the case closed and is told by whom and when.
------------------------------------------------------------------------------------------

CREATE FUNCTION rd_require_reason(p_reason text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    IF p_reason IS NULL OR p_reason !~ '^[a-z][a-z0-9_]{1,62}$' THEN
        RAISE EXCEPTION 'invalid_reason: a reason code (lower case, e.g. provider_confirmed) is required'
            USING ERRCODE = 'P0001';
    END IF;
END;
$$;

-- Locks an open case or explains why it is not open.
CREATE FUNCTION rd_lock_open_case(p_case_id bigint) RETURNS reconciliation_cases
    LANGUAGE plpgsql
AS $$
DECLARE
    c reconciliation_cases%ROWTYPE;
BEGIN
    SELECT * INTO c FROM reconciliation_cases WHERE id = p_case_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'case_not_found: there is no case %', p_case_id USING ERRCODE = 'P0001';
    END IF;
    IF c.status <> 'open' THEN
        RAISE EXCEPTION 'case_already_closed: case % was already % (%) by % at %', p_case_id,
            c.status, c.resolution, c.resolved_by, rd_rfc3339(c.resolved_at)
            USING ERRCODE = 'P0001';
    END IF;
    RETURN c;
END;
$$;

CREATE FUNCTION reapply_case(p_case_id bigint, p_reason text, p_comment text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
DECLARE
    c reconciliation_cases%ROWTYPE;
    e jsonb;
    r record;
    v_resolution text;
BEGIN
    PERFORM rd_require_reason(p_reason);
    c := rd_lock_open_case(p_case_id);
    e := c.event;
    IF e->'period' IS NULL OR jsonb_typeof(e->'period') <> 'object' THEN
        RAISE EXCEPTION 'case_not_reapplicable: case % has no complete renewal to apply (%); attach a provider snapshot instead',
            p_case_id, c.error_code USING ERRCODE = 'P0001';
    END IF;

    -- The very same core the webhooks use, as this operator.
    SELECT * INTO r FROM apply_successful_renewal(
        e->>'providerKey', e->>'providerEventId', e->>'providerSubscriptionId',
        e->>'providerRenewalKey', e->>'providerVersion',
        (e->'period'->>'start')::timestamptz, (e->'period'->>'end')::timestamptz,
        (e->>'paidAmountMinor')::bigint, e->>'currency', (e->>'paidAt')::timestamptz,
        'operator', session_user);

    v_resolution := CASE r.result WHEN 'applied' THEN 'reapplied'
                                WHEN 'duplicate' THEN 'already_applied' END;
    IF v_resolution IS NOT NULL THEN
        UPDATE reconciliation_cases
           SET status = 'resolved', resolution = v_resolution, resolved_at = now(),
               resolved_by = session_user, resolution_comment = p_comment
         WHERE id = p_case_id;
    ELSE
        UPDATE reconciliation_cases SET local_state = r.local_state WHERE id = p_case_id;
    END IF;
    INSERT INTO reconciliation_case_history (case_id, action, outcome, error_code, reason,
                                             comment, details, chain_seq, prev_hash, row_hash)
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

CREATE FUNCTION dismiss_case(p_case_id bigint, p_reason text, p_comment text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
BEGIN
    PERFORM rd_require_reason(p_reason);
    IF p_comment IS NULL OR btrim(p_comment) = '' THEN
        RAISE EXCEPTION 'note_required: dismissing a case needs a note saying why'
            USING ERRCODE = 'P0001';
    END IF;
    PERFORM rd_lock_open_case(p_case_id);
    UPDATE reconciliation_cases
       SET status = 'dismissed', resolution = 'dismissed', resolved_at = now(),
           resolved_by = session_user, resolution_comment = p_comment
     WHERE id = p_case_id;
    INSERT INTO reconciliation_case_history (case_id, action, outcome, reason, comment,
                                             chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'dismissed', 'dismissed', p_reason, p_comment, 0, '', '');
    RETURN jsonb_build_object('caseId', p_case_id, 'result', 'dismissed');
END;
$$;

-- Whether an open case's renewal would now pass the core's checks (shown in the queue after
-- a snapshot re-anchored the subscription).
CREATE FUNCTION rd_case_is_applicable(c reconciliation_cases) RETURNS boolean
    LANGUAGE sql STABLE
    RETURN c.status = 'open' AND jsonb_typeof(c.event->'period') = 'object'
       AND EXISTS (
           SELECT 1 FROM subscriptions s
            WHERE s.provider_key = c.provider_key
              AND s.provider_subscription_id = c.provider_subscription_id
              AND s.status = 'active' AND NOT s.cancel_at_period_end
              AND s.current_period_end = (c.event->'period'->>'start')::timestamptz
              AND NOT EXISTS (SELECT 1 FROM subscription_billing_periods b
                               WHERE b.provider_key = c.provider_key
                                 AND b.provider_renewal_key = c.provider_renewal_key));

-- p_snapshot is the normalized snapshot (the domain library validated it):
-- {"providerKey","providerSubscriptionId","status","currentPeriod":{"start","end"}|null,
--  "cancelAtPeriodEnd","providerVersion","capturedAt","latestRenewal":event|null}
CREATE FUNCTION attach_provider_snapshot(p_snapshot jsonb, p_case_id bigint, p_reason text,
                                         p_comment text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
DECLARE
    s subscriptions%ROWTYPE;
    before jsonb;
    after jsonb;
    v_changes jsonb := '{}';
    captured timestamptz := (p_snapshot->>'capturedAt')::timestamptz;
    fp text := md5((p_snapshot - 'capturedAt')::text);
    last_snapshot provider_snapshots%ROWTYPE;
    last_change timestamptz;
    lr jsonb := p_snapshot->'latestRenewal';
    bp subscription_billing_periods%ROWTYPE;
    bp_id uuid;
    new_start timestamptz;
    new_end timestamptz;
    v_snapshot_id bigint;
    created boolean := false;
    applicable bigint[];
    k text;
BEGIN
    PERFORM rd_require_reason(p_reason);
    IF p_case_id IS NOT NULL THEN
        PERFORM rd_lock_open_case(p_case_id);
    END IF;
    IF jsonb_typeof(p_snapshot->'currentPeriod') = 'object' THEN
        new_start := (p_snapshot->'currentPeriod'->>'start')::timestamptz;
        new_end := (p_snapshot->'currentPeriod'->>'end')::timestamptz;
    END IF;

    SELECT * INTO s FROM subscriptions
     WHERE provider_key = p_snapshot->>'providerKey'
       AND provider_subscription_id = p_snapshot->>'providerSubscriptionId'
       FOR UPDATE;
    IF NOT FOUND THEN
        -- The provider knows a subscription we never imported: the snapshot creates it.
        INSERT INTO subscriptions (provider_key, provider_subscription_id, status,
                                   current_period_start, current_period_end,
                                   cancel_at_period_end, provider_version)
        VALUES (p_snapshot->>'providerKey', p_snapshot->>'providerSubscriptionId',
                p_snapshot->>'status', new_start, new_end,
                (p_snapshot->>'cancelAtPeriodEnd')::boolean, p_snapshot->>'providerVersion')
        RETURNING * INTO s;
        created := true;
        before := 'null';
    ELSE
        before := rd_subscription_state_json(s);
        SELECT * INTO last_snapshot FROM provider_snapshots
         WHERE subscription_id = s.id ORDER BY captured_at DESC, id DESC LIMIT 1;
        IF FOUND AND last_snapshot.fingerprint = fp THEN
            -- The same provider state again: nothing to change.
            IF p_case_id IS NOT NULL THEN
                UPDATE reconciliation_cases
                   SET status = 'resolved', resolution = 'snapshot_attached',
                       resolved_at = now(), resolved_by = session_user,
                       resolution_comment = p_comment, snapshot_id = last_snapshot.id
                 WHERE id = p_case_id;
                INSERT INTO reconciliation_case_history (case_id, action, outcome, reason,
                    comment, details, chain_seq, prev_hash, row_hash)
                VALUES (p_case_id, 'snapshot_attached', 'unchanged', p_reason, p_comment,
                        jsonb_build_object('snapshotId', last_snapshot.id), 0, '', '');
            END IF;
            RETURN jsonb_build_object('result', 'unchanged', 'snapshotId', last_snapshot.id,
                                      'subscriptionId', s.id, 'changes', '{}'::jsonb,
                                      'caseId', p_case_id);
        END IF;
        -- Stale: captured before the last change we recorded (a renewal we applied, or a
        -- newer snapshot). Applying it would roll the subscription back.
        SELECT greatest(
                   (SELECT max(created_at) FROM subscription_billing_periods
                     WHERE subscription_id = s.id AND recorded_by <> 'snapshot'),
                   (SELECT max(captured_at) FROM provider_snapshots WHERE subscription_id = s.id))
          INTO last_change;
        IF last_change IS NOT NULL AND captured < last_change THEN
            RAISE EXCEPTION 'stale_snapshot: the snapshot was captured at %, before the last recorded change of % at %; fetch a new one',
                rd_rfc3339(captured), s.provider_subscription_id, rd_rfc3339(last_change)
                USING ERRCODE = 'P0001';
        END IF;
    END IF;

    -- The latest renewal, through the same uniqueness rules as the webhook path.
    IF jsonb_typeof(lr) = 'object' THEN
        INSERT INTO subscription_billing_periods
            (subscription_id, provider_key, provider_renewal_key, provider_event_id,
             period_start, period_end, paid_amount_minor, currency, paid_at, recorded_by)
        VALUES (s.id, lr->>'providerKey', lr->>'providerRenewalKey', lr->>'providerEventId',
                (lr->'period'->>'start')::timestamptz, (lr->'period'->>'end')::timestamptz,
                (lr->>'paidAmountMinor')::bigint, lr->>'currency',
                (lr->>'paidAt')::timestamptz, 'snapshot')
        ON CONFLICT DO NOTHING
        RETURNING id INTO bp_id;
        IF bp_id IS NULL THEN
            SELECT * INTO bp FROM subscription_billing_periods
             WHERE provider_key = lr->>'providerKey'
               AND provider_renewal_key = lr->>'providerRenewalKey';
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

    IF NOT created THEN
        UPDATE subscriptions
           SET status = p_snapshot->>'status',
               current_period_start = new_start, current_period_end = new_end,
               cancel_at_period_end = (p_snapshot->>'cancelAtPeriodEnd')::boolean,
               provider_version = coalesce(p_snapshot->>'providerVersion', provider_version),
               revision = revision + 1, updated_at = now()
         WHERE id = s.id
        RETURNING * INTO s;
    END IF;
    after := rd_subscription_state_json(s);
    FOR k IN SELECT key FROM jsonb_each(after) LOOP
        IF k NOT IN ('revision', 'subscriptionId')
           AND (before = 'null' OR before->k IS DISTINCT FROM after->k) THEN
            v_changes := v_changes || jsonb_build_object(k, jsonb_build_object(
                'before', CASE WHEN before = 'null' THEN 'null'::jsonb ELSE before->k END,
                'after', after->k));
        END IF;
    END LOOP;

    INSERT INTO provider_snapshots (subscription_id, provider_key, provider_subscription_id,
                                    snapshot, fingerprint, captured_at, changes,
                                    billing_period_id, case_id, reason, comment)
    VALUES (s.id, s.provider_key, s.provider_subscription_id, p_snapshot, fp, captured,
            v_changes, bp_id, p_case_id, p_reason, p_comment)
    RETURNING id INTO v_snapshot_id;

    INSERT INTO subscription_transition_audits
        (subscription_id, transition, billing_period_id, actor_type, actor_id,
         provider_renewal_key, period_start, period_end, reason, comment, details)
    VALUES (s.id, 'subscription_reconciled', bp_id, 'operator', session_user,
            lr->>'providerRenewalKey', new_start, new_end, p_reason, p_comment,
            jsonb_build_object('before', before, 'after', after, 'changes', v_changes,
                               'snapshotId', v_snapshot_id, 'caseId', p_case_id));
    INSERT INTO subscription_outbox (event_type, subscription_id, billing_period_id, payload)
    VALUES ('subscription_reconciled', s.id, bp_id, jsonb_build_object(
        'type', 'subscription_reconciled', 'subscriptionId', s.id,
        'providerKey', s.provider_key, 'providerSubscriptionId', s.provider_subscription_id,
        'snapshotId', v_snapshot_id, 'billingPeriodId', bp_id, 'changes', v_changes,
        'state', after));

    IF p_case_id IS NOT NULL THEN
        UPDATE reconciliation_cases
           SET status = 'resolved', resolution = 'snapshot_attached', resolved_at = now(),
               resolved_by = session_user, resolution_comment = p_comment,
               snapshot_id = v_snapshot_id
         WHERE id = p_case_id;
        INSERT INTO reconciliation_case_history (case_id, action, outcome, reason, comment,
                                                 details, chain_seq, prev_hash, row_hash)
        VALUES (p_case_id, 'snapshot_attached', 'resolved', p_reason, p_comment,
                jsonb_build_object('snapshotId', v_snapshot_id, 'changes', v_changes), 0, '', '');
    END IF;

    SELECT coalesce(array_agg(c.id ORDER BY c.id), '{}') INTO applicable
      FROM reconciliation_cases c
     WHERE c.provider_key = s.provider_key
       AND c.provider_subscription_id = s.provider_subscription_id
       AND c.status = 'open' AND rd_case_is_applicable(c);

    RETURN jsonb_build_object('result', CASE WHEN created THEN 'created' ELSE 'attached' END,
                              'snapshotId', v_snapshot_id, 'subscriptionId', s.id,
                              'changes', v_changes, 'billingPeriodId', bp_id,
                              'caseId', p_case_id, 'applicableCases', to_jsonb(applicable));
END;
$$;

------------------------------------------------------------------------------------------
-- Verification of the chains, from inside the database (`renewalctl audit verify`).
------------------------------------------------------------------------------------------

CREATE FUNCTION audit_chain_breaks()
    RETURNS TABLE (chain text, chain_id text, row_id bigint, chain_seq bigint, problem text)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
    WITH a AS (
        SELECT t.id, t.subscription_id::text AS cid, t.chain_seq, t.prev_hash, t.row_hash,
               rd_sha256_hex(rd_audit_canonical(t)) AS expected,
               lag(t.row_hash) OVER w AS prev_row_hash, lag(t.chain_seq) OVER w AS prev_seq
          FROM subscription_transition_audits t
        WINDOW w AS (PARTITION BY t.subscription_id ORDER BY t.chain_seq)),
    h AS (
        SELECT t.id, t.case_id::text AS cid, t.chain_seq, t.prev_hash, t.row_hash,
               rd_sha256_hex(rd_case_history_canonical(t)) AS expected,
               lag(t.row_hash) OVER w AS prev_row_hash, lag(t.chain_seq) OVER w AS prev_seq
          FROM reconciliation_case_history t
        WINDOW w AS (PARTITION BY t.case_id ORDER BY t.chain_seq)),
    checked AS (
        SELECT 'subscription_transition_audits' AS chain, * FROM a
        UNION ALL
        SELECT 'reconciliation_case_history', * FROM h)
    SELECT chain, cid, id, chain_seq,
           CASE WHEN expected <> row_hash THEN 'row content does not match its hash (altered)'
                WHEN prev_seq IS NULL AND chain_seq <> 1
                    THEN 'rows before this one are missing (removed)'
                WHEN prev_seq IS NOT NULL AND chain_seq <> prev_seq + 1
                    THEN 'the row before this one is missing (removed)'
                ELSE 'the previous row''s hash does not match (altered or removed)' END
      FROM checked
     WHERE expected <> row_hash
        OR (prev_seq IS NULL AND (chain_seq <> 1 OR prev_hash <> ''))
        OR (prev_seq IS NOT NULL AND (chain_seq <> prev_seq + 1 OR prev_hash <> prev_row_hash))
     ORDER BY chain DESC, cid, chain_seq;
$$;

-- The current head of every chain, for anchoring outside the database.
CREATE FUNCTION audit_chain_heads()
    RETURNS TABLE (chain text, chain_id text, chain_seq bigint, row_hash text)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
    SELECT DISTINCT ON (subscription_id) 'subscription_transition_audits', subscription_id::text,
           chain_seq, row_hash
      FROM subscription_transition_audits ORDER BY subscription_id, chain_seq DESC;
$$;

CREATE FUNCTION audit_case_history_heads()
    RETURNS TABLE (chain text, chain_id text, chain_seq bigint, row_hash text)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
    SELECT DISTINCT ON (case_id) 'reconciliation_case_history', case_id::text, chain_seq, row_hash
      FROM reconciliation_case_history ORDER BY case_id, chain_seq DESC;
$$;

-- The stored hash at a position of a chain (to check an exported anchor).
CREATE FUNCTION audit_chain_hash_at(p_chain text, p_chain_id text, p_seq bigint) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public
AS $$
    SELECT row_hash FROM subscription_transition_audits
     WHERE p_chain = 'subscription_transition_audits'
       AND subscription_id = p_chain_id::uuid AND chain_seq = p_seq
    UNION ALL
    SELECT row_hash FROM reconciliation_case_history
     WHERE p_chain = 'reconciliation_case_history'
       AND case_id = p_chain_id::bigint AND chain_seq = p_seq;
$$;

------------------------------------------------------------------------------------------
-- Privileges. Tables stay owned by the migrating role; group roles get no direct writes.
------------------------------------------------------------------------------------------

REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO renewal_viewer;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO renewal_viewer;

REVOKE EXECUTE ON FUNCTION
    apply_successful_renewal(text, text, text, text, text, timestamptz, timestamptz, bigint,
                             text, timestamptz, text, text),
    record_reconciliation_case(jsonb, text, jsonb),
    reapply_case(bigint, text, text),
    dismiss_case(bigint, text, text),
    attach_provider_snapshot(jsonb, bigint, text, text)
    FROM PUBLIC;
GRANT EXECUTE ON FUNCTION reapply_case(bigint, text, text), dismiss_case(bigint, text, text),
    attach_provider_snapshot(jsonb, bigint, text, text)
    TO renewal_operator;
GRANT EXECUTE ON FUNCTION
    apply_successful_renewal(text, text, text, text, text, timestamptz, timestamptz, bigint,
                             text, timestamptz, text, text),
    record_reconciliation_case(jsonb, text, jsonb)
    TO renewal_ingest;
