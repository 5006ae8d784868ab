REVOKE ALL ON FUNCTION public.erase_customer_email(text,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.erase_customer_email(text,text) TO renewal_operator;

-- A data-subject request by e-mail address (#42): every delivery whose normalized event carries
-- the address's keyed hash (webhook_inbox_by_customer_email) loses its body, whatever its age,
-- and the hash, so that Find anything no longer finds anything by the address. As
-- erase_inbox_bodies: an open case's delivery is erased too (the case keeps its normalized
-- event, which holds no address), and the erasure is recorded, also when nothing was left; the
-- record names no subscription and not the address, only how many hashes went.
CREATE OR REPLACE FUNCTION public.erase_customer_email(p_email text, p_request text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_request text := public.rd_note_text(p_request);
    v_hash text := public.rd_customer_email_hmac(p_email);
    v_all bigint[];
    v_ids bigint[];
    v_at timestamptz[];
    v_count integer;
    v_bytes bigint;
    v_open integer;
    v_removal bigint;
BEGIN
    IF v_request IS NULL THEN
        RAISE EXCEPTION 'an erasure needs the request it serves (a ticket or reference)'
            USING ERRCODE = 'RD004';
    END IF;
    IF v_hash IS NULL THEN
        -- The address is not repeated: the message reaches the server's log.
        RAISE EXCEPTION 'that is no e-mail address: an address has an @ between its local part and its domain, no spaces, at most 254 bytes'
            USING ERRCODE = '22023';
    END IF;

    SELECT coalesce(pg_catalog.array_agg(x.id ORDER BY x.id), '{}') INTO v_all
      FROM (SELECT w.id FROM public.webhook_inbox w
             WHERE (w.normalized ->> 'customerEmailHmac') = v_hash
               FOR UPDATE OF w) x;

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
             WHERE w.id = ANY (v_all) AND w.body_removal_id IS NULL) x;

    INSERT INTO public.webhook_inbox_removals (kind, request, bodies, bytes, first_inbox_id,
        last_inbox_id, first_received_at, last_received_at, open_cases, already_removed,
        customer_email_hashes)
    VALUES ('erasure', v_request, v_count, v_bytes, v_ids[1], v_ids[v_count],
            (SELECT min(t) FROM pg_catalog.unnest(v_at) t),
            (SELECT max(t) FROM pg_catalog.unnest(v_at) t), v_open,
            pg_catalog.cardinality(v_all) - v_count, pg_catalog.cardinality(v_all))
    RETURNING id INTO v_removal;
    IF v_count > 0 THEN
        UPDATE public.webhook_inbox w SET raw_body = NULL, body_removal_id = v_removal
         WHERE w.id = ANY (v_ids);
    END IF;
    UPDATE public.webhook_inbox w SET normalized = w.normalized - 'customerEmailHmac'
     WHERE w.id = ANY (v_all);
    RETURN pg_catalog.jsonb_build_object(
        'removalId', v_removal, 'removed', v_count, 'bytes', v_bytes, 'openCases', v_open,
        'alreadyRemoved', pg_catalog.cardinality(v_all) - v_count,
        'hashesRemoved', pg_catalog.cardinality(v_all),
        'inboxIds', pg_catalog.to_jsonb(v_all), 'erasedBy', session_user::text);
END;
$$;
