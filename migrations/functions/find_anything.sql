REVOKE ALL ON FUNCTION public.find_anything(text,integer)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.find_anything(text,integer) TO renewal_viewer;

-- Find anything (#15, #42): what an id, a number or a customer's e-mail address names, for the
-- desk (ui/models/finder.cpp) and `renewalctl find` alike. p_text as pasted: white space
-- trimmed, one pair of surrounding quotes dropped; "case 42" and "#42" name a case only; a
-- bare number may be a case, a delivery or a text id; a uuid may be ours; text with an '@' is
-- also an e-mail address (rd_customer_email_hmac), which names the deliveries that carried it,
-- the subscriptions they name and the renewals, failed payments and cases of those. A provider
-- subscription id not known here names the cases and deliveries that carry it.
--
-- Every lookup is an index probe: `provider_key = ANY(keys) AND <id column> = p`, one descent
-- of a (provider_key, id) index per provider key, whatever the server's collation (equality
-- needs no bytewise order). The keys: every provider with subscriptions (a loose index scan of
-- the browse index, one probe per provider) and every registered one. A delivery is found by
-- webhook_inbox_by_provider_subscription and _by_customer_email (0054), never by a scan.
-- At most p_limit rows (1 to 1000), subscriptions first, then renewals and failed payments,
-- cases and deliveries; one thing found by two of its ids is one row. 22023 for text that can
-- be no id (empty, longer than 255 characters, a line break or control character).
CREATE OR REPLACE FUNCTION public.find_anything(p_text text, p_limit integer DEFAULT 50)
    RETURNS TABLE (kind text, matched_by text, subscription_id uuid, billing_period_id uuid,
                   case_id bigint, delivery_id bigint, provider_key text,
                   provider_subscription_id text, status text, reason text, renewal_key text,
                   event_id text, period_start timestamptz, period_end timestamptz,
                   at timestamptz, amount_minor bigint, currency text, attempts integer)
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, public, pg_temp
AS $$
#variable_conflict use_column
DECLARE
    v_text text := pg_catalog.regexp_replace(coalesce(p_text, ''),
                                             '^[[:space:]]+|[[:space:]]+$', '', 'g');
    v_case_only boolean := false;
    v_number bigint;
    v_uuid uuid;
    v_hash text;
    v_keys text[];
    v_unknown_keys text[];
    v_m text[];
BEGIN
    IF pg_catalog.length(v_text) >= 2 AND pg_catalog.left(v_text, 1) IN ('"', '''', '`')
       AND pg_catalog.left(v_text, 1) = pg_catalog.right(v_text, 1) THEN
        v_text := pg_catalog.regexp_replace(pg_catalog.substr(v_text, 2,
                                                              pg_catalog.length(v_text) - 2),
                                            '^[[:space:]]+|[[:space:]]+$', '', 'g');
    END IF;
    IF v_text = '' THEN
        RAISE EXCEPTION 'nothing to find: give an id (a subscription, invoice or transaction, provider event, case number or inbox delivery) or a customer''s e-mail address'
            USING ERRCODE = '22023';
    END IF;
    IF pg_catalog.length(v_text) > 255 THEN
        RAISE EXCEPTION 'that is % characters long; no id is longer than 255: give the id alone',
            pg_catalog.length(v_text) USING ERRCODE = '22023';
    END IF;
    IF v_text ~ '[[:cntrl:]\u2028\u2029]' THEN
        RAISE EXCEPTION 'an id has no line breaks, tabs or control characters: give one id alone'
            USING ERRCODE = '22023';
    END IF;
    IF p_limit IS NULL OR p_limit < 1 OR p_limit > 1000 THEN
        RAISE EXCEPTION 'a limit is 1 to 1000, not %', p_limit USING ERRCODE = '22023';
    END IF;

    v_m := pg_catalog.regexp_match(v_text, '^(?:case\s*(?:no\.?\s*)?#?|#)\s*([0-9]{1,18})$', 'i');
    IF v_m IS NOT NULL THEN
        v_case_only := true;
        v_number := v_m[1]::bigint;
    ELSIF v_text ~ '^[0-9]{1,19}$' AND v_text::numeric <= 9223372036854775807 THEN
        v_number := v_text::bigint;
    END IF;
    IF v_text ~* '^(\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$' THEN
        v_uuid := pg_catalog.btrim(v_text, '{}')::uuid;
    END IF;
    IF NOT v_case_only AND pg_catalog.strpos(v_text, '@') > 0 THEN
        v_hash := public.rd_customer_email_hmac(v_text);
    END IF;

    WITH RECURSIVE sp(k) AS (
        SELECT min(s.provider_key) FROM public.subscriptions s
        UNION ALL
        SELECT (SELECT min(s.provider_key) FROM public.subscriptions s WHERE s.provider_key > sp.k)
          FROM sp WHERE sp.k IS NOT NULL)
    SELECT ARRAY(SELECT sp.k FROM sp WHERE sp.k IS NOT NULL
                 UNION SELECT p.provider_key FROM public.billing_providers p)
      INTO v_keys;
    IF v_case_only THEN
        v_text := NULL; -- no text id is looked up
    END IF;
    -- The providers at which no subscription has the id: there its cases and deliveries are
    -- what has it (#42, "subscription not found"). Where the subscription is known, it is the
    -- answer (its page shows its renewals and cases), not each of its deliveries.
    SELECT ARRAY(SELECT k FROM pg_catalog.unnest(v_keys) k
                  WHERE NOT EXISTS (SELECT 1 FROM public.subscriptions s
                                     WHERE s.provider_key = k
                                       AND s.provider_subscription_id = v_text))
      INTO v_unknown_keys;

    RETURN QUERY
    WITH mail AS (
        -- The deliveries that carried the address, and the subscriptions they name.
        SELECT w.id, w.provider_key, w.normalized ->> 'providerSubscriptionId' AS ref,
               w.case_id
          FROM public.webhook_inbox w
         WHERE v_hash IS NOT NULL AND (w.normalized ->> 'customerEmailHmac') = v_hash
    ), mail_subs AS (
        SELECT DISTINCT m.provider_key, m.ref FROM mail m WHERE m.ref IS NOT NULL
    ), subs AS (
        SELECT 'provider_id' AS matched, s.* FROM public.subscriptions s
         WHERE s.provider_key = ANY (v_keys) AND s.provider_subscription_id = v_text
        UNION ALL
        SELECT 'uuid', s.* FROM public.subscriptions s WHERE s.id = v_uuid
        UNION ALL
        SELECT 'email', s.* FROM mail_subs m JOIN public.subscriptions s
            ON s.provider_key = m.provider_key AND s.provider_subscription_id = m.ref
    ), periods AS (
        SELECT 'renewal_key' AS matched, b.* FROM public.subscription_billing_periods b
         WHERE b.provider_key = ANY (v_keys) AND b.provider_renewal_key = v_text
        UNION ALL
        -- billing_periods_by_event_id (0019).
        SELECT 'event_id', b.* FROM public.subscription_billing_periods b
         WHERE b.provider_key = ANY (v_keys) AND b.provider_event_id = v_text
        UNION ALL
        SELECT 'uuid', b.* FROM public.subscription_billing_periods b WHERE b.id = v_uuid
        UNION ALL
        SELECT 'email', b.* FROM subs s JOIN public.subscription_billing_periods b
            ON b.subscription_id = s.id
         WHERE s.matched = 'email'
    ), attempts AS (
        -- A failed payment's invoice (#41) that was never paid is in payment_attempts alone.
        SELECT 'failed_invoice' AS matched, a.subscription_id, a.provider_key, a.invoice_key,
               max(a.failed_at) AS failed_at, max(a.attempt) AS attempts
          FROM public.payment_attempts a
         WHERE a.provider_key = ANY (v_keys) AND a.invoice_key = v_text
         GROUP BY a.subscription_id, a.provider_key, a.invoice_key
        UNION ALL
        SELECT 'email', a.subscription_id, a.provider_key, a.invoice_key, max(a.failed_at),
               max(a.attempt)
          FROM subs s JOIN public.payment_attempts a ON a.subscription_id = s.id
         WHERE s.matched = 'email'
         GROUP BY a.subscription_id, a.provider_key, a.invoice_key
    ), cases AS (
        -- A rejected renewal is only in its case (reconciliation_cases_by_renewal_key, 0019),
        -- and one rejected outside the inbox keeps its event ids only there (0021).
        SELECT 'renewal_key' AS matched, c.* FROM public.reconciliation_cases c
         WHERE c.provider_key = ANY (v_keys) AND c.provider_renewal_key = v_text
        UNION ALL
        SELECT 'event_id', c.* FROM public.reconciliation_cases c
         WHERE c.provider_key = ANY (v_keys) AND c.first_provider_event_id = v_text
        UNION ALL
        SELECT 'event_id', c.* FROM public.reconciliation_cases c
         WHERE c.provider_key = ANY (v_keys) AND c.last_provider_event_id = v_text
        UNION ALL
        -- The subscription a case is about, where it is not known here (#42).
        SELECT 'provider_id', c.* FROM public.reconciliation_cases c
         WHERE c.provider_key = ANY (v_unknown_keys) AND c.provider_subscription_id = v_text
        UNION ALL
        SELECT 'number', c.* FROM public.reconciliation_cases c WHERE c.id = v_number
        UNION ALL
        -- An address's: the cases its deliveries opened or re-occurred in, and every case of
        -- the subscriptions they name.
        SELECT 'email', c.* FROM public.reconciliation_cases c
         WHERE c.id IN (SELECT m.case_id FROM mail m)
        UNION ALL
        SELECT 'email', c.* FROM mail_subs m JOIN public.reconciliation_cases c
            ON c.provider_key = m.provider_key AND c.provider_subscription_id = m.ref
    ), deliveries AS (
        SELECT 'event_id' AS matched, w.id, w.provider_key, w.provider_event_id, w.outcome,
               w.reason, w.received_at, w.normalized ->> 'providerSubscriptionId' AS ref
          FROM public.webhook_inbox w
         WHERE w.provider_key = ANY (v_keys) AND w.provider_event_id = v_text
        UNION ALL
        -- The subscription its normalized event names, where it is not known here
        -- (webhook_inbox_by_provider_subscription).
        SELECT 'provider_id', w.id, w.provider_key, w.provider_event_id, w.outcome,
               w.reason, w.received_at, w.normalized ->> 'providerSubscriptionId'
          FROM public.webhook_inbox w
         WHERE w.provider_key = ANY (v_unknown_keys)
           AND (w.normalized ->> 'providerSubscriptionId') = v_text
        UNION ALL
        SELECT 'number', w.id, w.provider_key, w.provider_event_id, w.outcome, w.reason,
               w.received_at,
               w.normalized ->> 'providerSubscriptionId'
          FROM public.webhook_inbox w WHERE w.id = v_number AND NOT v_case_only
        UNION ALL
        SELECT 'email', w.id, w.provider_key, w.provider_event_id, w.outcome, w.reason,
               w.received_at,
               w.normalized ->> 'providerSubscriptionId'
          FROM mail m JOIN public.webhook_inbox w ON w.id = m.id
    ), found AS (
        SELECT 1 AS ord, 'subscription' AS kind, s.matched, s.id AS sub, NULL::uuid AS period,
               NULL::bigint AS case_no, NULL::bigint AS delivery, s.provider_key AS provider,
               s.provider_subscription_id AS ref, s.status::text AS status,
               NULL::text AS reason, NULL::text AS renewal_key, NULL::text AS event_id,
               s.current_period_start AS period_start, s.current_period_end AS period_end,
               NULL::timestamptz AS at, NULL::bigint AS amount, NULL::text AS currency,
               NULL::integer AS attempts, s.status::text AS sort_text
          FROM subs s
        UNION ALL
        SELECT 2, 'renewal', b.matched, b.subscription_id, b.id, NULL, NULL, b.provider_key,
               s.provider_subscription_id, NULL, NULL, b.provider_renewal_key, b.provider_event_id,
               b.period_start, b.period_end, b.paid_at, b.paid_amount_minor, b.currency, NULL,
               b.provider_renewal_key
          FROM periods b JOIN public.subscriptions s ON s.id = b.subscription_id
        UNION ALL
        SELECT 2, 'failed_payment', a.matched, a.subscription_id, NULL, NULL, NULL,
               a.provider_key, s.provider_subscription_id, NULL, NULL, a.invoice_key, NULL, NULL,
               NULL, a.failed_at, NULL, NULL, a.attempts, a.invoice_key
          FROM attempts a JOIN public.subscriptions s ON s.id = a.subscription_id
        UNION ALL
        SELECT 3, 'case', c.matched, c.subscription_id, NULL, c.id, NULL, c.provider_key,
               c.provider_subscription_id, c.status, c.error_code, c.provider_renewal_key,
               c.last_provider_event_id, NULL, NULL, c.first_seen_at, NULL, NULL, NULL,
               c.error_code
          FROM cases c
        UNION ALL
        SELECT 4, 'delivery', d.matched, NULL, NULL, NULL, d.id, d.provider_key,
               coalesce(d.ref, ''), d.outcome, d.reason, NULL, d.provider_event_id, NULL, NULL,
               d.received_at, NULL, NULL, NULL, coalesce(d.outcome, '')
          FROM deliveries d
    ), once AS (
        -- One thing found by two of its ids (a subscription's uuid that is also its provider
        -- id) is listed once, under the id that was given rather than the address.
        SELECT DISTINCT ON (f.kind, f.sub, f.period, f.case_no, f.delivery, f.renewal_key) f.*
          FROM found f
         ORDER BY f.kind, f.sub, f.period, f.case_no, f.delivery, f.renewal_key,
                  f.matched = 'email'
    )
    SELECT o.kind::text, o.matched::text, o.sub, o.period, o.case_no, o.delivery,
           o.provider::text, o.ref::text, o.status::text, o.reason::text, o.renewal_key::text,
           o.event_id::text, o.period_start, o.period_end, o.at, o.amount::bigint,
           o.currency::text, o.attempts::integer
      FROM once o
     ORDER BY o.ord, o.provider, o.ref, o.sort_text, o.at DESC NULLS LAST, o.case_no, o.delivery
     LIMIT p_limit;
END;
$$;
