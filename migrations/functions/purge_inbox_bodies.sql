REVOKE ALL ON FUNCTION public.purge_inbox_bodies(integer,boolean,uuid,timestamp with time zone,bigint,integer)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.purge_inbox_bodies(integer,boolean,uuid,timestamp with time zone,bigint,integer) TO renewal_viewer;

-- One batch of a retention sweep: the bodies of at most p_batch processed deliveries received
-- before now() - the retention, whose case (webhook_inbox.case_id, or a case whose evidence
-- it is: reconciliation_cases.inbox_id) is not open, and that are not invalid deliveries
-- nobody has reviewed (0034: the body is what a review or a re-run needs), oldest first,
-- after the key (p_after_received_at, p_after_id) the previous batch returned. Each batch is its own short
-- transaction: rows locked by someone else are skipped (the next sweep takes them), and no
-- subscription is ever locked. A batch that removed something writes its record; the batches
-- of one run share p_run. The last batch ("done") moves swept_before to the oldest body still
-- kept in the range swept (or the cutoff less an hour, for deliveries still committing): the
-- configured retention's sweeps start there; an operator's age sweeps from the start.
-- p_older_than_days NULL: the configured retention (RD020 when none); otherwise the caller
-- must be an operator (RD021). p_dry_run: counts what would go, writes nothing.
CREATE OR REPLACE FUNCTION public.purge_inbox_bodies(
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
    v_candidates integer;
    v_last_at timestamptz;
    v_last_id bigint;
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
        -- What a sweep would remove now, and what it would keep for an open case or a review.
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
                                    WHERE k.inbox_id = w.id AND k.status = 'open')
                        OR (w.outcome = 'invalid'
                            AND NOT EXISTS (SELECT 1 FROM public.webhook_inbox_reviews v
                                             WHERE v.inbox_id = w.id))) AS open
                  FROM public.webhook_inbox w
                 WHERE w.received_at >= v_from AND w.received_at < v_cutoff
                   AND w.body_removal_id IS NULL AND w.outcome IS NOT NULL) x;
        RETURN v_result || pg_catalog.jsonb_build_object(
            'dryRun', true, 'retentionDays', v_days, 'configured', v_configured,
            'receivedBefore', public.rd_rfc3339(v_cutoff), 'removed', v_count, 'bytes', v_bytes,
            'keptForOpenCases', v_open, 'done', true);
    END IF;

    -- The batch: the next p_batch deliveries with a body in (received_at, id) order, locked;
    -- rows another transaction holds are left for the next sweep. Whether a case is still
    -- open is asked of these rows only, after the LIMIT: asked inside it (NOT EXISTS), the
    -- planner took the anti-joins for near-empty and read, sorted and joined the whole inbox
    -- for every batch (4 minutes a batch at 1 M deliveries, bench/purge-bench.sh); here the
    -- batch walks webhook_inbox_recent backwards from the key the previous batch returned.
    SELECT coalesce(pg_catalog.array_agg(c.id ORDER BY c.received_at, c.id)
                        FILTER (WHERE NOT c.open), '{}'),
           pg_catalog.array_agg(c.received_at ORDER BY c.received_at, c.id)
               FILTER (WHERE NOT c.open),
           coalesce(sum(c.bytes) FILTER (WHERE NOT c.open), 0),
           count(*) FILTER (WHERE NOT c.open),
           count(*),
           max(c.received_at),
           (pg_catalog.array_agg(c.id ORDER BY c.received_at DESC, c.id DESC))[1]
      INTO v_ids, v_at, v_bytes, v_count, v_candidates, v_last_at, v_last_id
      FROM (SELECT b.id, b.received_at, b.bytes,
                   (EXISTS (SELECT 1 FROM public.reconciliation_cases k
                             WHERE k.id = b.case_id AND k.status = 'open')
                    OR EXISTS (SELECT 1 FROM public.reconciliation_cases k
                                WHERE k.inbox_id = b.id AND k.status = 'open')
                    OR (b.outcome = 'invalid'
                        AND NOT EXISTS (SELECT 1 FROM public.webhook_inbox_reviews v
                                         WHERE v.inbox_id = b.id))) AS open
              FROM (SELECT w.id, w.received_at, w.case_id, w.outcome,
                           pg_catalog.octet_length(w.raw_body) AS bytes
                      FROM public.webhook_inbox w
                     WHERE w.received_at >= v_from AND w.received_at < v_cutoff
                       AND (w.received_at, w.id)
                           > (coalesce(p_after_received_at, '-infinity'), coalesce(p_after_id, 0))
                       AND w.body_removal_id IS NULL AND w.outcome IS NOT NULL
                     ORDER BY w.received_at, w.id
                     LIMIT p_batch
                       FOR UPDATE OF w SKIP LOCKED) b) c;
    v_done := v_candidates < p_batch;

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
        -- The key of the batch's last delivery, removed or kept for its open case.
        'afterReceivedAt', public.rd_rfc3339(v_last_at), 'afterId', v_last_id,
        'done', v_done, 'kept', CASE WHEN v_done THEN v_open END);
END;
$$;
