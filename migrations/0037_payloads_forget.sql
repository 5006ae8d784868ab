-- Payloads that forget personal data (#29, part 3). A provider's raw body carries customers'
-- names, e-mail and postal addresses; the inbox kept every one forever. Now:
--
--  * webhook_inbox.raw_body becomes NULL only by a removal: each removed body points at the
--    record that removed it (body_removal_id), and a CHECK refuses a NULL body without one.
--    What the desk and the books need stays: body_size, body_sha256, normalized, outcome,
--    provider_event_id and the case link. A redelivery of the event still finds its row by
--    event id (ingest_delivery's UPDATE path reads no body) and answers duplicate_delivery;
--    the body is not stored again.
--  * webhook_inbox_removals: one row written once per removal (a retention batch or an
--    erasure): kind, who (session_user), when, why (the retention in days, or the request),
--    counts and the range of ids and received_at removed; never the data. Nobody changes or
--    deletes a row, the owner included (rd_refuse_change). It is not a hash chain: every
--    removed body points at its row (a foreign key), so a removal without its record cannot
--    exist, and the chained audit holds no body data to protect (docs/architecture.md,
--    "Personal data and the audit trail").
--  * inbox_retention: the one-row setting the owner sets (`renewalctl inbox retention`), and
--    where the retention sweep has got to (swept_before).
--  * purge_inbox_bodies: removes the bodies of processed deliveries older than the retention,
--    except those whose case is open, in short batches (the caller loops). The configured
--    retention may be enforced by any viewer (the fold timer's login); an age of the caller's
--    choosing is an operator's act (RD021).
--  * erase_inbox_bodies: a data-subject request: the bodies of one subscription's deliveries
--    whatever their age, open cases included (their cases keep the normalized event). The
--    operator's alone, with the request as the note (RD004 without one).

------------------------------------------------------------------------------------------
-- The record of removals.
------------------------------------------------------------------------------------------

CREATE TABLE public.webhook_inbox_removals (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind              text NOT NULL CHECK (kind IN ('retention', 'erasure')),
    removed_by        text NOT NULL DEFAULT session_user,
    removed_at        timestamptz NOT NULL DEFAULT pg_catalog.now(),
    -- retention: the batches of one run share it; the days and the cutoff they applied, and
    -- whether that was the configured retention or an operator's --older-than.
    run               uuid,
    retention_days    integer CHECK (retention_days >= 0),
    configured        boolean,
    received_before   timestamptz,
    -- erasure: the request served (a ticket or reference) and whose deliveries.
    request           text,
    provider_key      text,
    provider_subscription_id text,
    bodies            integer NOT NULL CHECK (bodies >= 0),
    bytes             bigint NOT NULL CHECK (bytes >= 0),
    first_inbox_id    bigint,
    last_inbox_id     bigint,
    first_received_at timestamptz,
    last_received_at  timestamptz,
    -- erasure: bodies erased although their case is open (the case keeps the normalized
    -- event), and deliveries of the subscription whose body was removed before.
    open_cases        integer NOT NULL DEFAULT 0 CHECK (open_cases >= 0),
    already_removed   integer NOT NULL DEFAULT 0 CHECK (already_removed >= 0),
    CONSTRAINT webhook_inbox_removal_says_why CHECK (CASE kind
        WHEN 'retention' THEN run IS NOT NULL AND retention_days IS NOT NULL
                              AND configured IS NOT NULL AND received_before IS NOT NULL
                              AND request IS NULL
        ELSE public.rd_note_text(request) IS NOT NULL AND provider_subscription_id IS NOT NULL
        END),
    CONSTRAINT webhook_inbox_removal_range CHECK ((bodies = 0) = (first_inbox_id IS NULL))
);
REVOKE ALL ON public.webhook_inbox_removals FROM PUBLIC;
GRANT SELECT ON public.webhook_inbox_removals TO renewal_viewer;
CREATE TRIGGER webhook_inbox_removals_written_once
    BEFORE UPDATE OR DELETE ON public.webhook_inbox_removals
    FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER webhook_inbox_removals_no_truncate
    BEFORE TRUNCATE ON public.webhook_inbox_removals
    FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();

------------------------------------------------------------------------------------------
-- A body is NULL only by a removal.
------------------------------------------------------------------------------------------

ALTER TABLE public.webhook_inbox
    ALTER COLUMN raw_body DROP NOT NULL,
    ADD COLUMN body_removal_id bigint REFERENCES public.webhook_inbox_removals (id),
    ADD CONSTRAINT webhook_inbox_body_removed_by_a_record
        CHECK ((raw_body IS NULL) = (body_removal_id IS NOT NULL));
-- The viewer reads every column but the body (0027 grants them by name).
GRANT SELECT (body_removal_id) ON public.webhook_inbox TO renewal_viewer;

-- The open cases' deliveries, for the sweep's "is its case still open" (open cases are few).
CREATE INDEX reconciliation_cases_open_inbox
    ON public.reconciliation_cases (inbox_id) WHERE status = 'open';

------------------------------------------------------------------------------------------
-- The retention setting.
------------------------------------------------------------------------------------------

CREATE TABLE public.inbox_retention (
    only_row     boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    -- NULL: no retention configured (the fold then reads RENEWAL_DESK_RETENTION_DAYS).
    days         integer CHECK (days BETWEEN 0 AND 36500),
    set_by       text NOT NULL DEFAULT session_user,
    set_at       timestamptz NOT NULL DEFAULT pg_catalog.now(),
    -- Every delivery received before this has no body left that a retention could remove
    -- (all removed, or none kept for an open case or not processed): a sweep starts here, so
    -- the fold's sweep every five minutes does not re-read the bodies it removed before.
    swept_before timestamptz
);
INSERT INTO public.inbox_retention (days, set_by) VALUES (NULL, 'migration');
REVOKE ALL ON public.inbox_retention FROM PUBLIC;
GRANT SELECT ON public.inbox_retention TO renewal_viewer;

-- The owner's: the retention is the organisation's policy, not an operator's choice.
CREATE FUNCTION public.set_inbox_retention(p_days integer) RETURNS jsonb
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    IF p_days IS NOT NULL AND (p_days < 0 OR p_days > 36500) THEN
        RAISE EXCEPTION 'a retention is 0 to 36500 days, not %', p_days USING ERRCODE = '22023';
    END IF;
    UPDATE public.inbox_retention
       SET days = p_days, set_by = session_user, set_at = pg_catalog.now();
    RETURN pg_catalog.jsonb_build_object('retentionDays', p_days, 'setBy', session_user::text);
END;
$$;
REVOKE ALL ON FUNCTION public.set_inbox_retention(integer) FROM PUBLIC;

------------------------------------------------------------------------------------------
-- Retention.
------------------------------------------------------------------------------------------

-- One batch of a retention sweep: the bodies of at most p_batch processed deliveries received
-- before now() - the retention, whose case (webhook_inbox.case_id, or a case whose evidence
-- it is: reconciliation_cases.inbox_id) is not open, oldest first, after the key
-- (p_after_received_at, p_after_id) the previous batch returned. Each batch is its own short
-- transaction: rows locked by someone else are skipped (the next sweep takes them), and no
-- subscription is ever locked. A batch that removed something writes its record; the batches
-- of one run share p_run. The last batch ("done") moves swept_before up to the oldest body
-- still kept in the range (or the cutoff less an hour for deliveries still committing).
-- p_older_than_days NULL: the configured retention (RD020 when none); otherwise the caller
-- must be an operator (RD021). p_dry_run: counts what would go, writes nothing.
CREATE FUNCTION public.purge_inbox_bodies(
    p_older_than_days integer DEFAULT NULL, p_dry_run boolean DEFAULT false,
    p_run uuid DEFAULT NULL, p_after_received_at timestamptz DEFAULT NULL,
    p_after_id bigint DEFAULT NULL, p_batch integer DEFAULT 5000)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    r public.inbox_retention%ROWTYPE;
    v_configured boolean := p_older_than_days IS NULL;
    v_days integer;
    v_cutoff timestamptz;
    v_start timestamptz;
    v_from timestamptz;
    v_run uuid := coalesce(p_run, pg_catalog.gen_random_uuid());
    v_ids bigint[];
    v_at timestamptz[];
    v_bytes bigint;
    v_count integer;
    v_open integer := 0;
    v_removal bigint;
    v_oldest_kept timestamptz;
    v_done boolean;
    v_result jsonb;
BEGIN
    SELECT * INTO r FROM public.inbox_retention;
    IF v_configured THEN
        v_days := r.days;
        IF v_days IS NULL THEN
            RAISE EXCEPTION 'no retention is configured: set one (renewalctl inbox retention --days N) or name the age (--older-than DAYS, an operator''s act)'
                USING ERRCODE = 'RD020';
        END IF;
    ELSE
        -- The owner (current_user is the function's owner here), a superuser or an operator.
        IF session_user <> current_user
           AND NOT pg_catalog.pg_has_role(session_user, 'renewal_operator', 'MEMBER') THEN
            RAISE EXCEPTION 'removing the bodies older than an age of your choosing (% days) is an operator''s act; without an age the configured retention is enforced',
                p_older_than_days USING ERRCODE = 'RD021';
        END IF;
        v_days := p_older_than_days;
    END IF;
    IF v_days < 0 OR v_days > 36500 THEN
        RAISE EXCEPTION 'a retention is 0 to 36500 days, not %', v_days USING ERRCODE = '22023';
    END IF;
    IF p_batch IS NULL OR p_batch < 1 OR p_batch > 100000 THEN
        RAISE EXCEPTION 'a batch is 1 to 100000 deliveries, not %', p_batch
            USING ERRCODE = '22023';
    END IF;
    v_cutoff := pg_catalog.now() - pg_catalog.make_interval(days => v_days);
    -- The configured retention (the fold, every five minutes) starts where the last sweep
    -- got to; an operator's age sweeps from the first delivery, which also finds deliveries
    -- loaded with an earlier received_at than ingest gives (the demo, bench data).
    v_start := CASE WHEN v_configured THEN coalesce(r.swept_before, '-infinity')
                    ELSE '-infinity' END;
    v_from := v_start;
    IF p_after_received_at IS NOT NULL AND p_after_received_at > v_from THEN
        v_from := p_after_received_at;
    END IF;

    IF p_dry_run THEN
        -- What a sweep would remove now, and what it would keep for an open case.
        SELECT count(*) FILTER (WHERE NOT x.open),
               coalesce(sum(x.bytes) FILTER (WHERE NOT x.open), 0),
               count(*) FILTER (WHERE x.open),
               pg_catalog.jsonb_build_object(
                   'firstId', min(x.id) FILTER (WHERE NOT x.open),
                   'lastId', max(x.id) FILTER (WHERE NOT x.open),
                   'firstReceivedAt', public.rd_rfc3339(min(x.received_at) FILTER (WHERE NOT x.open)),
                   'lastReceivedAt', public.rd_rfc3339(max(x.received_at) FILTER (WHERE NOT x.open)))
          INTO v_count, v_bytes, v_open, v_result
          FROM (SELECT w.id, w.received_at, pg_catalog.octet_length(w.raw_body) AS bytes,
                       (EXISTS (SELECT 1 FROM public.reconciliation_cases k
                                 WHERE k.id = w.case_id AND k.status = 'open')
                        OR EXISTS (SELECT 1 FROM public.reconciliation_cases k
                                    WHERE k.inbox_id = w.id AND k.status = 'open')) AS open
                  FROM public.webhook_inbox w
                 WHERE w.received_at >= v_from AND w.received_at < v_cutoff
                   AND w.body_removal_id IS NULL AND w.outcome IS NOT NULL) x;
        RETURN v_result || pg_catalog.jsonb_build_object(
            'dryRun', true, 'retentionDays', v_days, 'configured', v_configured,
            'receivedBefore', public.rd_rfc3339(v_cutoff), 'removed', v_count, 'bytes', v_bytes,
            'keptForOpenCases', v_open, 'done', true);
    END IF;

    -- The batch, locked; rows another transaction holds are left for the next sweep.
    SELECT coalesce(pg_catalog.array_agg(c.id ORDER BY c.received_at, c.id), '{}'),
           pg_catalog.array_agg(c.received_at ORDER BY c.received_at, c.id),
           coalesce(sum(c.bytes), 0), count(*)
      INTO v_ids, v_at, v_bytes, v_count
      FROM (SELECT w.id, w.received_at, pg_catalog.octet_length(w.raw_body) AS bytes
              FROM public.webhook_inbox w
             WHERE w.received_at >= v_from AND w.received_at < v_cutoff
               AND (p_after_received_at IS NULL
                    OR (w.received_at, w.id) > (p_after_received_at, coalesce(p_after_id, 0)))
               AND w.body_removal_id IS NULL AND w.outcome IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM public.reconciliation_cases k
                                WHERE k.id = w.case_id AND k.status = 'open')
               AND NOT EXISTS (SELECT 1 FROM public.reconciliation_cases k
                                WHERE k.inbox_id = w.id AND k.status = 'open')
             ORDER BY w.received_at, w.id
             LIMIT p_batch
               FOR UPDATE OF w SKIP LOCKED) c;
    v_done := v_count < p_batch;

    IF v_count > 0 THEN
        INSERT INTO public.webhook_inbox_removals (kind, run, retention_days, configured,
            received_before, bodies, bytes, first_inbox_id, last_inbox_id, first_received_at,
            last_received_at)
        VALUES ('retention', v_run, v_days, v_configured, v_cutoff, v_count, v_bytes,
                (SELECT min(i) FROM pg_catalog.unnest(v_ids) i),
                (SELECT max(i) FROM pg_catalog.unnest(v_ids) i),
                v_at[1], v_at[v_count])
        RETURNING id INTO v_removal;
        UPDATE public.webhook_inbox w SET raw_body = NULL, body_removal_id = v_removal
         WHERE w.id = ANY (v_ids);
    END IF;

    IF v_done THEN
        -- What is left with a body in the swept range was kept (an open case, not processed,
        -- locked): the next sweep starts at the oldest of it.
        SELECT min(w.received_at), count(*) FILTER (WHERE w.outcome IS NOT NULL)
          INTO v_oldest_kept, v_open
          FROM public.webhook_inbox w
         WHERE w.received_at >= v_start
           AND w.received_at < v_cutoff AND w.body_removal_id IS NULL;
        -- An hour short of the cutoff: a delivery still committing has an earlier received_at
        -- (its transaction's start) than deliveries already seen.
        UPDATE public.inbox_retention t
           SET swept_before = CASE WHEN v_configured
                   THEN GREATEST(t.swept_before, LEAST(v_cutoff - interval '1 hour', v_oldest_kept))
                   ELSE LEAST(v_cutoff - interval '1 hour', v_oldest_kept) END;
    END IF;

    RETURN pg_catalog.jsonb_build_object(
        'dryRun', false, 'run', v_run, 'retentionDays', v_days, 'configured', v_configured,
        'receivedBefore', public.rd_rfc3339(v_cutoff), 'removed', v_count, 'bytes', v_bytes,
        'removalId', v_removal,
        'firstId', (SELECT min(i) FROM pg_catalog.unnest(v_ids) i),
        'lastId', (SELECT max(i) FROM pg_catalog.unnest(v_ids) i),
        'firstReceivedAt', public.rd_rfc3339(v_at[1]),
        'lastReceivedAt', public.rd_rfc3339(v_at[v_count]),
        'afterReceivedAt', public.rd_rfc3339(v_at[v_count]), 'afterId', v_ids[v_count],
        'done', v_done, 'kept', CASE WHEN v_done THEN v_open END);
END;
$$;
REVOKE ALL ON FUNCTION public.purge_inbox_bodies(integer, boolean, uuid, timestamptz, bigint,
                                                 integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.purge_inbox_bodies(integer, boolean, uuid, timestamptz, bigint,
                                                    integer) TO renewal_viewer;

------------------------------------------------------------------------------------------
-- Erasure.
------------------------------------------------------------------------------------------

-- A data-subject request: removes the bodies of every delivery of provider subscription
-- p_provider_subscription_id (of provider p_provider_key, or of every provider when NULL),
-- whatever their age. A delivery is the subscription's when its normalized event names it
-- (every outcome the adapter could read the id from, invalid ones included), when it is the
-- evidence or an occurrence of one of the subscription's cases, when it recorded one of its
-- billing periods, or, for a delivery whose adapter named no subscription at all, when its
-- body contains the id as a JSON string ("sub_123", quotes included). An open case's delivery
-- is erased too: the request is the law's; the case keeps its normalized event as evidence,
-- and the record counts them. Always recorded, also when nothing was left to erase.
CREATE FUNCTION public.erase_inbox_bodies(p_provider_key text, p_provider_subscription_id text,
                                          p_request text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_request text := public.rd_note_text(p_request);
    v_sub text := public.rd_note_text(p_provider_subscription_id);
    v_all bigint[];
    v_ids bigint[];
    v_at timestamptz[];
    v_count integer;
    v_bytes bigint;
    v_open integer;
    v_removal bigint;
    v_quoted bytea;
BEGIN
    IF v_request IS NULL THEN
        RAISE EXCEPTION 'an erasure needs the request it serves (a ticket or reference)'
            USING ERRCODE = 'RD004';
    END IF;
    IF v_sub IS NULL OR v_sub <> p_provider_subscription_id THEN
        RAISE EXCEPTION 'an erasure needs the provider''s subscription id'
            USING ERRCODE = '22023';
    END IF;
    IF p_provider_key IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM public.billing_providers p WHERE p.provider_key = p_provider_key) THEN
        RAISE EXCEPTION 'provider % is not registered', p_provider_key USING ERRCODE = 'RD013';
    END IF;
    v_quoted := pg_catalog.convert_to('"' || v_sub || '"', 'UTF8');

    SELECT coalesce(pg_catalog.array_agg(w.id), '{}') INTO v_all
      FROM public.webhook_inbox w
     WHERE (p_provider_key IS NULL OR w.provider_key = p_provider_key)
       AND (w.normalized->>'providerSubscriptionId' = v_sub
            OR w.case_id IN (SELECT k.id FROM public.reconciliation_cases k
                              WHERE k.provider_subscription_id = v_sub)
            OR w.id IN (SELECT k.inbox_id FROM public.reconciliation_cases k
                         WHERE k.provider_subscription_id = v_sub)
            OR w.billing_period_id IN (
                   SELECT b.id FROM public.subscription_billing_periods b
                     JOIN public.subscriptions s ON s.id = b.subscription_id
                    WHERE s.provider_subscription_id = v_sub)
            OR (w.normalized->>'providerSubscriptionId' IS NULL
                AND w.raw_body IS NOT NULL
                AND pg_catalog.position(w.raw_body, v_quoted) > 0));

    SELECT coalesce(pg_catalog.array_agg(x.id ORDER BY x.id), '{}'),
           pg_catalog.array_agg(x.received_at ORDER BY x.id),
           coalesce(sum(x.bytes), 0), count(*), count(*) FILTER (WHERE x.open)
      INTO v_ids, v_at, v_bytes, v_count, v_open
      FROM (SELECT w.id, w.received_at, pg_catalog.octet_length(w.raw_body) AS bytes,
                   (EXISTS (SELECT 1 FROM public.reconciliation_cases k
                             WHERE k.id = w.case_id AND k.status = 'open')
                    OR EXISTS (SELECT 1 FROM public.reconciliation_cases k
                                WHERE k.inbox_id = w.id AND k.status = 'open')) AS open
              FROM public.webhook_inbox w
             WHERE w.id = ANY (v_all) AND w.body_removal_id IS NULL
               FOR UPDATE OF w) x;

    INSERT INTO public.webhook_inbox_removals (kind, request, provider_key,
        provider_subscription_id, bodies, bytes, first_inbox_id, last_inbox_id,
        first_received_at, last_received_at, open_cases, already_removed)
    VALUES ('erasure', v_request, p_provider_key, v_sub, v_count, v_bytes, v_ids[1],
            v_ids[v_count], (SELECT min(t) FROM pg_catalog.unnest(v_at) t),
            (SELECT max(t) FROM pg_catalog.unnest(v_at) t), v_open,
            pg_catalog.cardinality(v_all) - v_count)
    RETURNING id INTO v_removal;
    IF v_count > 0 THEN
        UPDATE public.webhook_inbox w SET raw_body = NULL, body_removal_id = v_removal
         WHERE w.id = ANY (v_ids);
    END IF;
    RETURN pg_catalog.jsonb_build_object(
        'removalId', v_removal, 'providerKey', p_provider_key,
        'providerSubscriptionId', v_sub, 'removed', v_count, 'bytes', v_bytes,
        'openCases', v_open, 'alreadyRemoved', pg_catalog.cardinality(v_all) - v_count,
        'inboxIds', pg_catalog.to_jsonb(v_ids), 'erasedBy', session_user::text);
END;
$$;
REVOKE ALL ON FUNCTION public.erase_inbox_bodies(text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.erase_inbox_bodies(text, text, text) TO renewal_operator;
