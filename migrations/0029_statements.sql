-- Statements (#27): the provider's own list of paid renewals, compared one by one with what is
-- recorded, so that the desk can show that no renewal is missing, not only that none is twice.
--
-- A statement run is one transaction driven by `renewalctl statement import` (domain/store/
-- statement_import.cpp): statement_begin, statement_add_lines (in batches, every renewal of
-- the statement), statement_finish. All or nothing: a run that fails half-way leaves no run,
-- no backfill and no case; `--dry-run` is the same run rolled back. Each line is judged under
-- its subscription's row lock, the lock every delivery takes first, so a delivery of the same
-- renewal racing the import is judged wholly before or wholly after it: one billing period.
-- The price: a backfilled subscription's deliveries wait for the run's commit (a run of
-- 100,000 renewals takes well under a minute; bench/README).
--
-- Findings, per renewal key of the statement:
--   matched          recorded with the same subscription, period, amount and currency;
--   backfilled       not recorded: the core recorded it now, recorded_by 'statement', its
--                    audit's actor 'statement' / 'statement run N';
--   unapplied        not recorded, and the core refused it: a case with the core's reason
--                    (healing applies, as for a delivery);
--   differing        recorded with another subscription, amount, currency or period: a case
--                    statement_disagrees, the recorded billing period as its evidence;
--   not_in_statement (statement_finish) recorded, paid on a day the statement covers, absent
--                    from it: a case not_in_statement, for a person to look at.
-- A finding whose very case (same renewal, same facts, same reason) an operator already
-- dismissed is linked to that case and does not open it again: an import repeats no decision.

-- A statement backfill is recorded by 'statement'. Widening checks: every stored value passed
-- the narrower one, so the new constraints need not scan the tables (NOT VALID).
ALTER DOMAIN public.rd_recorded_by DROP CONSTRAINT rd_recorded_by_known;
ALTER DOMAIN public.rd_recorded_by ADD CONSTRAINT rd_recorded_by_known
    CHECK (VALUE IN ('webhook', 'operator', 'snapshot', 'import', 'statement')) NOT VALID;
ALTER DOMAIN public.rd_actor_type DROP CONSTRAINT rd_actor_type_known;
ALTER DOMAIN public.rd_actor_type ADD CONSTRAINT rd_actor_type_known
    CHECK (VALUE IN ('webhook', 'operator', 'import', 'system', 'statement')) NOT VALID;

-- As 0023 wrote it, except that an actor 'statement' records its renewal as 'statement' (the
-- two CASE expressions of steps 6 and 8). CREATE OR REPLACE keeps the core's grants, so its
-- argument arrays stay as stored here (0027's note).
CREATE OR REPLACE FUNCTION public.apply_successful_renewal(
    p_provider_key text, p_provider_event_id text, p_provider_subscription_id text,
    p_provider_renewal_key text, p_provider_version text,
    p_period_start timestamptz, p_period_end timestamptz,
    p_paid_amount_minor bigint, p_currency text, p_paid_at timestamptz,
    p_actor_type text, p_actor_id text, p_billing_period_id uuid DEFAULT NULL,
    OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
    SET renewal_desk.core_counts = 'on'
AS $$
DECLARE
    s public.subscriptions%ROWTYPE;
    bp public.subscription_billing_periods%ROWTYPE;
    v_verdict text;
    v_existing uuid;
    v_conflicting jsonb;
    new_id uuid;
    -- The renewal being recorded: first the delivered one, then each waiting case it unblocks.
    c public.reconciliation_cases%ROWTYPE;
    healing boolean := false;
    unblocked_by text;
    tried_after bigint := 0;
    k_event_id text := p_provider_event_id;
    k_key text := p_provider_renewal_key;
    k_version text := p_provider_version;
    k_start timestamptz := p_period_start;
    k_end timestamptz := p_period_end;
    k_amount bigint := p_paid_amount_minor;
    k_currency text := p_currency;
    k_paid_at timestamptz := p_paid_at;
    k_actor_type text := p_actor_type;
    k_actor_id text := p_actor_id;
    k_id uuid := p_billing_period_id;
    k_result text;
    k_bp uuid;
    k_error text;
    k_state jsonb;
BEGIN
    -- 1. The per-subscription row lock serializes every change to this subscription: two
    --    deliveries of one renewal, or two renewals of one subscription, queue here.
    SELECT * INTO s FROM public.subscriptions
     WHERE provider_key = p_provider_key AND provider_subscription_id = p_provider_subscription_id
       FOR UPDATE;
    IF NOT FOUND THEN
        result := 'rejected'; error_code := 'subscription_not_found';
        local_state := jsonb_build_object('subscriptionId', NULL);
        RETURN;
    END IF;

    LOOP
        k_state := public.rd_subscription_state_json(s);
        k_bp := NULL;
        k_error := NULL;
        -- 2-5. The rules (rd_renewal_verdict, 0007).
        SELECT v.verdict, v.existing_id, v.conflicting INTO v_verdict, v_existing, v_conflicting
          FROM public.rd_renewal_verdict(s, p_provider_key, k_key, k_start, k_end, k_amount,
                                         k_currency) v;
        IF v_verdict = 'duplicate' THEN
            k_result := 'duplicate'; k_bp := v_existing;
        ELSIF v_verdict <> 'applicable' THEN
            k_result := 'rejected'; k_error := v_verdict;
            IF v_conflicting IS NOT NULL THEN
                k_state := k_state || jsonb_build_object('conflictingBillingPeriod', v_conflicting);
            END IF;
        ELSE
            -- 6. Record the renewal fact. A conflict here comes from a winner we could not see
            --    before it committed (the same renewal key under another subscription) or from
            --    the same period under another key; either is judged, never assumed a duplicate.
            INSERT INTO public.subscription_billing_periods
                (id, subscription_id, provider_key, provider_renewal_key, provider_event_id,
                 period_start, period_end, paid_amount_minor, currency, paid_at, recorded_by)
            VALUES (coalesce(k_id, gen_random_uuid()), s.id, p_provider_key, k_key, k_event_id,
                    k_start, k_end, k_amount, k_currency, k_paid_at,
                    CASE k_actor_type WHEN 'operator' THEN 'operator' WHEN 'statement' THEN 'statement'
                         ELSE 'webhook' END)
            ON CONFLICT DO NOTHING
            RETURNING id INTO new_id;
            IF new_id IS NULL THEN
                SELECT * INTO bp FROM public.subscription_billing_periods b
                 WHERE b.provider_key = p_provider_key AND b.provider_renewal_key = k_key;
                IF FOUND AND bp.subscription_id = s.id AND bp.period_start = k_start
                   AND bp.period_end = k_end AND bp.paid_amount_minor = k_amount
                   AND bp.currency = k_currency THEN
                    k_result := 'duplicate'; k_bp := bp.id;
                ELSE
                    IF NOT FOUND THEN
                        SELECT * INTO bp FROM public.subscription_billing_periods b
                         WHERE b.subscription_id = s.id AND b.period_start = k_start
                           AND b.period_end = k_end;
                    END IF;
                    k_result := 'rejected'; k_error := 'provider_renewal_key_payload_conflict';
                    k_state := k_state || jsonb_build_object('conflictingBillingPeriod',
                                                             public.rd_billing_period_json(bp));
                END IF;
            ELSE
                -- 7. Advance the projection; cancellation, plan and quantity are not a
                --    renewal's business.
                UPDATE public.subscriptions
                   SET current_period_start = k_start, current_period_end = k_end,
                       provider_version = coalesce(k_version, provider_version),
                       revision = revision + 1, updated_at = now()
                 WHERE id = s.id
                RETURNING * INTO s;

                -- 8. One audit row and one outbox intent, committed with the renewal or not
                --    at all.
                INSERT INTO public.subscription_transition_audits
                    (subscription_id, transition, billing_period_id, actor_type, actor_id,
                     provider_event_id, provider_renewal_key, period_start, period_end, details)
                VALUES (s.id, 'subscription_renewed', new_id, k_actor_type, k_actor_id,
                        k_event_id, k_key, k_start, k_end,
                        jsonb_build_object('before', k_state, 'paidAmountMinor', k_amount,
                                           'currency', k_currency));
                INSERT INTO public.subscription_outbox (event_type, subscription_id,
                                                       billing_period_id, payload)
                VALUES ('subscription_renewed', s.id, new_id, jsonb_build_object(
                    'type', 'subscription_renewed', 'subscriptionId', s.id,
                    'providerKey', p_provider_key,
                    'providerSubscriptionId', p_provider_subscription_id,
                    'billingPeriodId', new_id, 'providerRenewalKey', k_key,
                    'period', public.rd_period_json(k_start, k_end),
                    'paidAmountMinor', k_amount, 'currency', k_currency,
                    'paidAt', public.rd_rfc3339(k_paid_at)));
                -- The ledger's totals (0016, 0020): this renewal's delta row, one insert.
                INSERT INTO public.renewal_total_deltas (day, period_start_day, provider_key,
                                                         currency, recorded_by, renewals,
                                                         amount_minor)
                VALUES ((k_paid_at AT TIME ZONE 'UTC')::date, (k_start AT TIME ZONE 'UTC')::date,
                        p_provider_key, k_currency,
                        CASE k_actor_type WHEN 'operator' THEN 'operator' WHEN 'statement' THEN 'statement'
                         ELSE 'webhook' END,
                        1, k_amount);
                k_result := 'applied'; k_bp := new_id;
            END IF;
        END IF;

        IF NOT healing THEN
            result := k_result; billing_period_id := k_bp; error_code := k_error;
            local_state := k_state;
            EXIT WHEN k_result <> 'applied';
        ELSE
            PERFORM public.rd_settle_waiting_case(c.id, k_result, k_bp, k_error, k_state,
                                                  unblocked_by);
        END IF;
        IF k_result = 'applied' THEN
            unblocked_by := k_key;
            tried_after := 0; -- the period moved: any case may now start at its new end
        ELSE
            tried_after := c.id; -- the same end: the next candidate, if any
        END IF;

        -- 9. A renewal that arrived before this one and waits for it: one probe of the
        --    partial index reconciliation_cases_waiting_for_predecessor. A case another
        --    session holds locked (ingest linking it to its payload, an operator acting on it)
        --    is waited for, not skipped: skipped, it would wait for a predecessor that already
        --    came. (An operator's re-apply locks the case, then the subscription; this is the
        --    other way round: the rare deadlock is detected by PostgreSQL, and both retry.)
        SELECT * INTO c FROM public.reconciliation_cases oc
         WHERE oc.subscription_id = s.id AND oc.status = 'open'
           AND oc.error_code = 'renewal_period_is_not_contiguous'
           AND oc.renewal_period_start = s.current_period_end AND oc.id > tried_after
         ORDER BY oc.id LIMIT 1
           FOR UPDATE;
        EXIT WHEN NOT FOUND;
        healing := true;
        k_event_id := c.event->>'providerEventId';
        k_key := c.event->>'providerRenewalKey';
        k_version := c.event->>'providerVersion';
        k_start := (c.event->'period'->>'start')::timestamptz;
        k_end := (c.event->'period'->>'end')::timestamptz;
        k_amount := (c.event->>'paidAmountMinor')::bigint;
        k_currency := c.event->>'currency';
        k_paid_at := (c.event->>'paidAt')::timestamptz;
        k_actor_type := 'system';
        k_actor_id := 'auto-reapply';
        k_id := NULL;
    END LOOP;
END;
$$;

------------------------------------------------------------------------------------------
-- The runs and their lines.
------------------------------------------------------------------------------------------

CREATE TABLE public.statement_runs (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    provider_key      public.rd_key NOT NULL REFERENCES public.billing_providers (provider_key),
    covers_from       date NOT NULL,
    covers_to         date NOT NULL,
    -- sha256 over the files' sha256s, sorted: the statement's identity whatever the files' order.
    statement_sha256  text NOT NULL CHECK (statement_sha256 ~ '^[0-9a-f]{64}$'),
    -- [{"name", "sha256", "bytes", "objects"}]
    files             jsonb NOT NULL CHECK (pg_catalog.jsonb_typeof(files) = 'array'),
    objects           integer NOT NULL CHECK (objects >= 0), -- every object of the files
    imported_by       text NOT NULL DEFAULT session_user,
    started_at        timestamptz NOT NULL DEFAULT pg_catalog.now(),
    begun_in          xid8 NOT NULL DEFAULT pg_catalog.pg_current_xact_id(),
    finished_at       timestamptz,
    renewals          integer,
    matched           integer,
    backfilled        integer,
    unapplied         integer,
    differing         integer,
    not_in_statement  integer,
    open_cases        integer,
    -- Per currency over the covered days: {"USD": {"renewals": n, "amountMinor": m}}.
    statement_totals  jsonb,
    ledger_totals     jsonb,
    CONSTRAINT statement_runs_range CHECK (covers_to >= covers_from),
    CONSTRAINT statement_runs_finished CHECK ((finished_at IS NULL) = (open_cases IS NULL))
);
CREATE INDEX statement_runs_by_provider
    ON public.statement_runs (provider_key, covers_from, covers_to);

CREATE TABLE public.statement_lines (
    run_id               bigint NOT NULL REFERENCES public.statement_runs (id),
    line_no              integer NOT NULL CHECK (line_no > 0),
    provider_renewal_key public.rd_key NOT NULL,
    finding              text NOT NULL CHECK (finding IN ('matched', 'backfilled', 'unapplied',
                             'differing', 'not_in_statement')),
    -- The statement's object (none for not_in_statement, which the statement lacks).
    object_id            text CHECK (octet_length(object_id) <= 255),
    object_sha256        text CHECK (object_sha256 ~ '^[0-9a-f]{64}$'),
    event                jsonb,
    billing_period_id    uuid REFERENCES public.subscription_billing_periods (id),
    case_id              bigint REFERENCES public.reconciliation_cases (id),
    PRIMARY KEY (run_id, line_no),
    CONSTRAINT statement_lines_key_once UNIQUE (run_id, provider_renewal_key),
    CONSTRAINT statement_lines_evidence CHECK (
        (finding = 'not_in_statement') = (event IS NULL)
        AND (finding NOT IN ('differing', 'not_in_statement', 'unapplied') OR case_id IS NOT NULL)
        AND (finding NOT IN ('matched', 'backfilled', 'differing', 'not_in_statement')
             OR billing_period_id IS NOT NULL))
);
CREATE INDEX statement_lines_cases ON public.statement_lines (case_id) WHERE case_id IS NOT NULL;

-- The case a statement opened names its run (first evidence wins, as inbox_id does).
ALTER TABLE public.reconciliation_cases
    ADD COLUMN statement_run_id bigint REFERENCES public.statement_runs (id);
-- ("This renewal's earlier case" reads reconciliation_cases_by_renewal_key, 0019.)

-- Lines never change; a run changes once, from begun to finished, in the transaction that
-- began it (the functions below), and never after.
CREATE FUNCTION public.rd_statement_run_guard()
    RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'statement_runs' THEN
        IF OLD.finished_at IS NULL AND NEW.finished_at IS NOT NULL
           AND OLD.begun_in = pg_catalog.pg_current_xact_id() AND NEW.id = OLD.id
           AND NEW.provider_key = OLD.provider_key AND NEW.covers_from = OLD.covers_from
           AND NEW.covers_to = OLD.covers_to AND NEW.statement_sha256 = OLD.statement_sha256
           AND NEW.files = OLD.files AND NEW.objects = OLD.objects
           AND NEW.imported_by = OLD.imported_by AND NEW.started_at = OLD.started_at
           AND NEW.begun_in = OLD.begun_in THEN
            RETURN NEW;
        END IF;
    END IF;
    RAISE EXCEPTION '% rows are written once (% refused)', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'RD014';
END;
$$;
REVOKE EXECUTE ON FUNCTION public.rd_statement_run_guard() FROM PUBLIC;
CREATE TRIGGER statement_runs_written_once
    BEFORE UPDATE OR DELETE ON public.statement_runs
    FOR EACH ROW EXECUTE FUNCTION public.rd_statement_run_guard();
CREATE TRIGGER statement_runs_no_truncate
    BEFORE TRUNCATE ON public.statement_runs
    FOR EACH STATEMENT EXECUTE FUNCTION public.rd_statement_run_guard();
CREATE TRIGGER statement_lines_insert_only
    BEFORE UPDATE OR DELETE ON public.statement_lines
    FOR EACH ROW EXECUTE FUNCTION public.rd_statement_run_guard();
CREATE TRIGGER statement_lines_no_truncate
    BEFORE TRUNCATE ON public.statement_lines
    FOR EACH STATEMENT EXECUTE FUNCTION public.rd_statement_run_guard();

-- A run that began is finished before its transaction commits, or nothing of it commits.
CREATE FUNCTION public.rd_statement_run_finished()
    RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.statement_runs r
                    WHERE r.id = NEW.id AND r.finished_at IS NOT NULL) THEN
        RAISE EXCEPTION 'statement run % was begun but not finished', NEW.id
            USING ERRCODE = 'RD014';
    END IF;
    RETURN NULL;
END;
$$;
REVOKE EXECUTE ON FUNCTION public.rd_statement_run_finished() FROM PUBLIC;
CREATE CONSTRAINT TRIGGER statement_runs_finished_at_commit
    AFTER INSERT ON public.statement_runs DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION public.rd_statement_run_finished();

REVOKE ALL ON public.statement_runs, public.statement_lines FROM PUBLIC;
GRANT SELECT ON public.statement_runs, public.statement_lines TO renewal_viewer;

------------------------------------------------------------------------------------------
-- The functions an import calls (an operator's).
------------------------------------------------------------------------------------------

-- The run this transaction began and has not finished; RD014 otherwise.
CREATE FUNCTION public.rd_open_statement_run(p_run bigint)
    RETURNS public.statement_runs
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    r public.statement_runs%ROWTYPE;
BEGIN
    SELECT * INTO r FROM public.statement_runs sr WHERE sr.id = p_run FOR UPDATE;
    IF NOT FOUND OR r.finished_at IS NOT NULL
       OR r.begun_in <> pg_catalog.pg_current_xact_id() THEN
        RAISE EXCEPTION 'statement run % is not open in this transaction', p_run
            USING ERRCODE = 'RD014';
    END IF;
    RETURN r;
END;
$$;
REVOKE EXECUTE ON FUNCTION public.rd_open_statement_run(bigint) FROM PUBLIC;

-- A statement finding's case: the earlier case of the same renewal, facts and reason (open:
-- linked; dismissed: linked, not reopened), else a new one naming the run. Returns the case
-- and whether it is open. The caller holds the subscription's lock when there is one.
CREATE FUNCTION public.rd_statement_case(p_run bigint, p_event jsonb, p_code text,
                                         p_state jsonb, OUT case_id bigint, OUT is_open boolean)
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_fp text := public.rd_renewal_fingerprint(p_event);
BEGIN
    SELECT c.id, c.status = 'open' INTO case_id, is_open
      FROM public.reconciliation_cases c
     WHERE c.provider_key = p_event->>'providerKey'
       AND c.provider_renewal_key = p_event->>'providerRenewalKey'
       AND c.error_code = p_code AND c.event_fingerprint = v_fp
       AND c.status IN ('open', 'dismissed')
     ORDER BY c.status = 'open' DESC, c.id DESC
     LIMIT 1;
    IF FOUND THEN
        RETURN;
    END IF;
    INSERT INTO public.reconciliation_cases AS c
        (provider_key, provider_subscription_id, subscription_id, provider_renewal_key,
         first_provider_event_id, last_provider_event_id, error_code, event, event_fingerprint,
         local_state, renewal_period_start, statement_run_id)
    VALUES (p_event->>'providerKey', p_event->>'providerSubscriptionId',
            (SELECT s.id FROM public.subscriptions s
              WHERE s.provider_key = p_event->>'providerKey'
                AND s.provider_subscription_id = p_event->>'providerSubscriptionId'),
            p_event->>'providerRenewalKey', p_event->>'providerEventId',
            p_event->>'providerEventId', p_code, p_event, v_fp, p_state,
            (p_event->'period'->>'start')::timestamptz, p_run)
    RETURNING c.id INTO case_id;
    is_open := true;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code,
                                                   details, chain_seq, prev_hash, row_hash)
    VALUES (case_id, 'opened', 'open', p_code,
            pg_catalog.jsonb_build_object('statementRunId', p_run, 'localState', p_state),
            0, '', '');
END;
$$;
REVOKE EXECUTE ON FUNCTION public.rd_statement_case(bigint, jsonb, text, jsonb) FROM PUBLIC;

-- A provider's statement work queues here: its imports, and its month closes (0031), behind
-- each other (a transaction-scoped advisory lock). RD013 for a provider that is not registered.
CREATE FUNCTION public.rd_lock_provider_statements(p_provider_key text)
    RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.billing_providers p
                    WHERE p.provider_key = p_provider_key) THEN
        RAISE EXCEPTION 'provider % is not registered', p_provider_key USING ERRCODE = 'RD013';
    END IF;
    PERFORM pg_catalog.pg_advisory_xact_lock(
        pg_catalog.hashtextextended('renewal-desk statement ' || p_provider_key, 0));
END;
$$;
REVOKE EXECUTE ON FUNCTION public.rd_lock_provider_statements(text) FROM PUBLIC;

-- The recorded renewals of a provider paid in [p_lo, p_hi), per currency:
-- {"USD": {"renewals": n, "amountMinor": m}}; {} when none. The ledger's side of a statement
-- run and of a month close (0031).
CREATE FUNCTION public.rd_ledger_totals(p_provider_key text, p_lo timestamptz,
                                        p_hi timestamptz)
    RETURNS jsonb
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
    RETURN coalesce((
        SELECT pg_catalog.jsonb_object_agg(t.currency, pg_catalog.jsonb_build_object(
                   'renewals', t.n, 'amountMinor', t.amount))
          FROM (SELECT b.currency::text AS currency, pg_catalog.count(*) AS n,
                       pg_catalog.sum(b.paid_amount_minor::numeric) AS amount
                  FROM public.subscription_billing_periods b
                 WHERE b.provider_key = p_provider_key AND b.paid_at >= p_lo
                   AND b.paid_at < p_hi
                 GROUP BY 1) t), '{}');
REVOKE EXECUTE ON FUNCTION public.rd_ledger_totals(text, timestamptz, timestamptz) FROM PUBLIC;

-- Begins a run, or finds that this very statement (provider, days, files' digests) was
-- imported already: then run_id is NULL and earlier_run names it, and nothing is written.
-- Imports of one provider queue behind each other (rd_lock_provider_statements), so two
-- imports of one statement cannot both begin.
CREATE FUNCTION public.statement_begin(p_provider_key text, p_from date, p_to date,
                                       p_statement_sha256 text, p_files jsonb,
                                       p_objects integer,
                                       OUT run_id bigint, OUT earlier_run bigint)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    PERFORM public.rd_lock_provider_statements(p_provider_key);
    SELECT r.id INTO earlier_run FROM public.statement_runs r
     WHERE r.provider_key = p_provider_key AND r.covers_from = p_from AND r.covers_to = p_to
       AND r.statement_sha256 = p_statement_sha256 AND r.finished_at IS NOT NULL
     ORDER BY r.id LIMIT 1;
    IF FOUND THEN
        RETURN;
    END IF;
    INSERT INTO public.statement_runs (provider_key, covers_from, covers_to, statement_sha256,
                                       files, objects)
    VALUES (p_provider_key, p_from, p_to, p_statement_sha256, p_files, p_objects)
    RETURNING id INTO run_id;
END;
$$;

-- Judges a batch of the statement's renewals: [{"line", "objectId", "objectSha256",
-- "outcome": "renewal"|"needs_snapshot", "event": SuccessfulRenewalEvent JSON (no "period"
-- when needs_snapshot)}]. Returns how many lines it wrote.
CREATE FUNCTION public.statement_add_lines(p_run bigint, p_lines jsonb)
    RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    r public.statement_runs%ROWTYPE := public.rd_open_statement_run(p_run);
    l jsonb;
    e jsonb;
    s public.subscriptions%ROWTYPE;
    bp public.subscription_billing_periods%ROWTYPE;
    v_has_period boolean;
    v_finding text;
    v_bp uuid;
    v_case bigint;
    v_open boolean;
    v_state jsonb;
    a record;
    v_attempt integer;
    v_count integer := 0;
BEGIN
    FOR l IN SELECT * FROM pg_catalog.jsonb_array_elements(p_lines) LOOP
        e := l->'event';
        IF e->>'providerKey' IS DISTINCT FROM r.provider_key THEN
            RAISE EXCEPTION 'line %: the renewal is of provider %, the statement of %',
                l->>'line', e->>'providerKey', r.provider_key USING ERRCODE = '22023';
        END IF;
        v_has_period := coalesce(pg_catalog.jsonb_typeof(e->'period') = 'object', false);
        IF (l->>'outcome' = 'renewal') IS DISTINCT FROM v_has_period THEN
            RAISE EXCEPTION 'line %: outcome % does not fit its event', l->>'line', l->>'outcome'
                USING ERRCODE = '22023';
        END IF;
        v_bp := NULL;
        v_case := NULL;
        -- The lock a delivery of this subscription takes first: from here this renewal is
        -- judged by this run alone.
        SELECT * INTO s FROM public.subscriptions x
         WHERE x.provider_key = r.provider_key
           AND x.provider_subscription_id = e->>'providerSubscriptionId'
           FOR UPDATE;
        SELECT * INTO bp FROM public.subscription_billing_periods b
         WHERE b.provider_key = r.provider_key
           AND b.provider_renewal_key = e->>'providerRenewalKey';
        IF FOUND THEN
            v_bp := bp.id;
            IF bp.subscription_id IS NOT DISTINCT FROM s.id
               AND bp.paid_amount_minor = (e->>'paidAmountMinor')::bigint
               AND bp.currency = e->>'currency'
               AND (NOT v_has_period
                    OR (bp.period_start = (e->'period'->>'start')::timestamptz
                        AND bp.period_end = (e->'period'->>'end')::timestamptz)) THEN
                v_finding := 'matched';
            ELSE
                v_finding := 'differing';
                v_state := CASE WHEN s.id IS NULL
                                THEN pg_catalog.jsonb_build_object('subscriptionId', NULL)
                                ELSE public.rd_subscription_state_json(s) END
                           || pg_catalog.jsonb_build_object(
                                  'conflictingBillingPeriod', public.rd_billing_period_json(bp));
                SELECT x.case_id, x.is_open INTO v_case, v_open
                  FROM public.rd_statement_case(p_run, e, 'statement_disagrees', v_state) x;
            END IF;
        ELSIF NOT v_has_period THEN
            -- Paid, but the statement does not say its period either (Lemon Squeezy): the
            -- case a delivery of it opens.
            v_finding := 'unapplied';
            v_case := public.record_reconciliation_case(e, 'needs_snapshot',
                CASE WHEN s.id IS NULL THEN pg_catalog.jsonb_build_object('subscriptionId', NULL)
                     ELSE public.rd_subscription_state_json(s) END);
        ELSE
            -- Missing here: the core decides, as for a delivery (ingest_delivery).
            v_attempt := 0;
            LOOP
                v_attempt := v_attempt + 1;
                a := public.apply_successful_renewal(
                         r.provider_key, e->>'providerEventId', e->>'providerSubscriptionId',
                         e->>'providerRenewalKey', e->>'providerVersion',
                         (e->'period'->>'start')::timestamptz,
                         (e->'period'->>'end')::timestamptz,
                         (e->>'paidAmountMinor')::bigint, e->>'currency',
                         (e->>'paidAt')::timestamptz, 'statement', 'statement run ' || p_run,
                         NULL);
                IF a.result = 'applied' THEN
                    v_finding := 'backfilled';
                    v_bp := a.billing_period_id;
                    EXIT;
                ELSIF a.result = 'duplicate' THEN
                    v_finding := 'matched';
                    v_bp := a.billing_period_id;
                    EXIT;
                END IF;
                v_case := public.record_reconciliation_case(e, a.error_code, a.local_state);
                IF v_case IS NOT NULL THEN
                    v_finding := 'unapplied';
                    EXIT;
                END IF;
                IF v_attempt >= 5 THEN
                    RAISE EXCEPTION 'renewal % kept changing between its rejection and its case',
                        e->>'providerRenewalKey' USING ERRCODE = '40001';
                END IF;
            END LOOP;
        END IF;
        IF v_case IS NOT NULL THEN
            UPDATE public.reconciliation_cases c SET statement_run_id = p_run
             WHERE c.id = v_case AND c.statement_run_id IS NULL AND c.inbox_id IS NULL;
        END IF;
        INSERT INTO public.statement_lines (run_id, line_no, provider_renewal_key, finding,
                                            object_id, object_sha256, event, billing_period_id,
                                            case_id)
        VALUES (p_run, (l->>'line')::integer, e->>'providerRenewalKey', v_finding,
                l->>'objectId', l->>'objectSha256', e, v_bp, v_case);
        v_count := v_count + 1;
    END LOOP;
    RETURN v_count;
END;
$$;

-- Finishes a run: the recorded renewals of the covered days that the statement lacks become
-- not_in_statement findings; the counts and both sides' totals per currency are stored.
-- Returns the run's summary (its JSON is what `renewalctl statement import --json` prints).
CREATE FUNCTION public.statement_finish(p_run bigint)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    r public.statement_runs%ROWTYPE := public.rd_open_statement_run(p_run);
    v_lo timestamptz := r.covers_from::timestamp AT TIME ZONE 'UTC';
    v_hi timestamptz := (r.covers_to + 1)::timestamp AT TIME ZONE 'UTC';
    v_line integer;
    m public.subscription_billing_periods%ROWTYPE;
    s public.subscriptions%ROWTYPE;
    e jsonb;
    x record;
BEGIN
    SELECT coalesce(pg_catalog.max(l.line_no), 0) INTO v_line
      FROM public.statement_lines l WHERE l.run_id = p_run;
    -- A probe of the run's lines per recorded renewal, not an anti-join: the lines were
    -- written by this very transaction, so no statistics know them, and a join planned without
    -- them read every line for every renewal (8 s for 5,000 of each, measured).
    FOR m IN
        SELECT b.* FROM public.subscription_billing_periods b
         WHERE b.provider_key = r.provider_key AND b.paid_at >= v_lo AND b.paid_at < v_hi
         ORDER BY b.paid_at, b.id
    LOOP
        CONTINUE WHEN EXISTS (SELECT 1 FROM public.statement_lines l
                               WHERE l.run_id = p_run
                                 AND l.provider_renewal_key = m.provider_renewal_key);
        SELECT * INTO s FROM public.subscriptions sx WHERE sx.id = m.subscription_id FOR UPDATE;
        e := pg_catalog.jsonb_build_object(
            'providerKey', m.provider_key, 'providerEventId', m.provider_event_id,
            'providerSubscriptionId', s.provider_subscription_id,
            'providerRenewalKey', m.provider_renewal_key, 'providerVersion', NULL,
            'period', public.rd_period_json(m.period_start, m.period_end),
            'paidAmountMinor', m.paid_amount_minor, 'currency', m.currency,
            'paidAt', public.rd_rfc3339(m.paid_at));
        SELECT * INTO x FROM public.rd_statement_case(p_run, e, 'not_in_statement',
            public.rd_subscription_state_json(s)
            || pg_catalog.jsonb_build_object('recordedBillingPeriod',
                                             public.rd_billing_period_json(m))) c;
        UPDATE public.reconciliation_cases c SET statement_run_id = p_run
         WHERE c.id = x.case_id AND c.statement_run_id IS NULL AND c.inbox_id IS NULL;
        v_line := v_line + 1;
        INSERT INTO public.statement_lines (run_id, line_no, provider_renewal_key, finding,
                                            billing_period_id, case_id)
        VALUES (p_run, v_line, m.provider_renewal_key, 'not_in_statement', m.id, x.case_id);
    END LOOP;

    UPDATE public.statement_runs sr SET
        finished_at = pg_catalog.clock_timestamp(),
        renewals = c.renewals, matched = c.matched, backfilled = c.backfilled,
        unapplied = c.unapplied, differing = c.differing, not_in_statement = c.not_in_statement,
        open_cases = c.open_cases,
        statement_totals = coalesce((
            SELECT pg_catalog.jsonb_object_agg(t.currency, pg_catalog.jsonb_build_object(
                       'renewals', t.n, 'amountMinor', t.amount))
              FROM (SELECT l.event->>'currency' AS currency, pg_catalog.count(*) AS n,
                           pg_catalog.sum((l.event->>'paidAmountMinor')::numeric) AS amount
                      FROM public.statement_lines l
                     WHERE l.run_id = p_run AND l.event IS NOT NULL
                       AND (l.event->>'paidAt')::timestamptz >= v_lo
                       AND (l.event->>'paidAt')::timestamptz < v_hi
                     GROUP BY 1) t), '{}'),
        ledger_totals = public.rd_ledger_totals(r.provider_key, v_lo, v_hi)
      FROM (SELECT pg_catalog.count(*) FILTER (WHERE l.event IS NOT NULL) AS renewals,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'matched') AS matched,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'backfilled') AS backfilled,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'unapplied') AS unapplied,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'differing') AS differing,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'not_in_statement')
                       AS not_in_statement,
                   (SELECT pg_catalog.count(DISTINCT oc.id)
                      FROM public.statement_lines ol
                      JOIN public.reconciliation_cases oc ON oc.id = ol.case_id
                     WHERE ol.run_id = p_run AND oc.status = 'open') AS open_cases
              FROM public.statement_lines l WHERE l.run_id = p_run) c
     WHERE sr.id = p_run;
    RETURN public.statement_run_json(p_run);
END;
$$;

-- A run's summary as JSON (the CLI's --json, the desk's Statements view).
CREATE FUNCTION public.statement_run_json(p_run bigint)
    RETURNS jsonb
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
    RETURN (SELECT pg_catalog.jsonb_build_object(
                'runId', r.id, 'providerKey', r.provider_key,
                'from', r.covers_from, 'to', r.covers_to, 'statementSha256', r.statement_sha256,
                'files', r.files, 'objects', r.objects, 'importedBy', r.imported_by,
                'startedAt', public.rd_rfc3339(r.started_at),
                'finishedAt', public.rd_rfc3339(r.finished_at),
                'renewals', r.renewals, 'matched', r.matched, 'backfilled', r.backfilled,
                'unapplied', r.unapplied, 'differing', r.differing,
                'notInStatement', r.not_in_statement, 'cases', r.open_cases,
                'statementTotals', r.statement_totals, 'ledgerTotals', r.ledger_totals)
              FROM public.statement_runs r WHERE r.id = p_run);

REVOKE EXECUTE ON FUNCTION public.statement_begin(text, date, date, text, jsonb, integer),
    public.statement_add_lines(bigint, jsonb), public.statement_finish(bigint),
    public.statement_run_json(bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.statement_begin(text, date, date, text, jsonb, integer),
    public.statement_add_lines(bigint, jsonb), public.statement_finish(bigint)
    TO renewal_operator;
GRANT EXECUTE ON FUNCTION public.statement_run_json(bigint) TO renewal_viewer;
