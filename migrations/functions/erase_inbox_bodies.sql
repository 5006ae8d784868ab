REVOKE ALL ON FUNCTION public.erase_inbox_bodies(text,text,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.erase_inbox_bodies(text,text,text) TO renewal_operator;

-- A data-subject request: removes the bodies of every delivery of provider subscription
-- p_provider_subscription_id (of provider p_provider_key, or of every provider when NULL),
-- whatever their age. A delivery is the subscription's when its normalized event names it
-- (every outcome the adapter could read the id from, invalid ones included), when it is the
-- evidence or an occurrence of one of the subscription's cases, when it recorded one of its
-- billing periods, or, for a delivery whose adapter named no subscription at all, when its
-- body contains the id as a JSON string ("sub_123", quotes included). An open case's delivery
-- is erased too: the request is the law's; the case keeps its normalized event as evidence,
-- and the record counts them. Always recorded, also when nothing was left to erase.
CREATE OR REPLACE FUNCTION public.erase_inbox_bodies(p_provider_key text, p_provider_subscription_id text,
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
