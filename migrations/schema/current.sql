SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
COMMENT ON EXTENSION pg_trgm IS 'text similarity measurement and index searching based on trigrams';
CREATE DOMAIN public.rd_actor_type AS text;
CREATE DOMAIN public.rd_amount_minor AS bigint
	CONSTRAINT rd_amount_minor_bounded CHECK ((VALUE <= '1000000000000'::bigint))
	CONSTRAINT rd_amount_minor_non_negative CHECK ((VALUE >= 0));
CREATE DOMAIN public.rd_audit_transition AS text
	CONSTRAINT rd_audit_transition_known CHECK ((VALUE = ANY (ARRAY['subscription_imported'::text, 'subscription_renewed'::text, 'subscription_reconciled'::text, 'money_movement_recorded'::text, 'payment_failed'::text, 'provider_standing'::text, 'access_extended'::text, 'access_changed'::text])));
CREATE DOMAIN public.rd_currency_code AS text
	CONSTRAINT rd_currency_code_iso CHECK ((VALUE = ANY (ARRAY['USD'::text, 'EUR'::text, 'GBP'::text, 'AED'::text, 'AFN'::text, 'ALL'::text, 'AMD'::text, 'AOA'::text, 'ARS'::text, 'AUD'::text, 'AWG'::text, 'AZN'::text, 'BAM'::text, 'BBD'::text, 'BDT'::text, 'BHD'::text, 'BIF'::text, 'BMD'::text, 'BND'::text, 'BOB'::text, 'BOV'::text, 'BRL'::text, 'BSD'::text, 'BTN'::text, 'BWP'::text, 'BYN'::text, 'BZD'::text, 'CAD'::text, 'CDF'::text, 'CHE'::text, 'CHF'::text, 'CHW'::text, 'CLF'::text, 'CLP'::text, 'CNY'::text, 'COP'::text, 'COU'::text, 'CRC'::text, 'CUC'::text, 'CUP'::text, 'CVE'::text, 'CZK'::text, 'DJF'::text, 'DKK'::text, 'DOP'::text, 'DZD'::text, 'EGP'::text, 'ERN'::text, 'ETB'::text, 'FJD'::text, 'FKP'::text, 'GEL'::text, 'GHS'::text, 'GIP'::text, 'GMD'::text, 'GNF'::text, 'GTQ'::text, 'GYD'::text, 'HKD'::text, 'HNL'::text, 'HTG'::text, 'HUF'::text, 'IDR'::text, 'ILS'::text, 'INR'::text, 'IQD'::text, 'IRR'::text, 'ISK'::text, 'JMD'::text, 'JOD'::text, 'JPY'::text, 'KES'::text, 'KGS'::text, 'KHR'::text, 'KMF'::text, 'KPW'::text, 'KRW'::text, 'KWD'::text, 'KYD'::text, 'KZT'::text, 'LAK'::text, 'LBP'::text, 'LKR'::text, 'LRD'::text, 'LSL'::text, 'LYD'::text, 'MAD'::text, 'MDL'::text, 'MGA'::text, 'MKD'::text, 'MMK'::text, 'MNT'::text, 'MOP'::text, 'MRU'::text, 'MUR'::text, 'MVR'::text, 'MWK'::text, 'MXN'::text, 'MXV'::text, 'MYR'::text, 'MZN'::text, 'NAD'::text, 'NGN'::text, 'NIO'::text, 'NOK'::text, 'NPR'::text, 'NZD'::text, 'OMR'::text, 'PAB'::text, 'PEN'::text, 'PGK'::text, 'PHP'::text, 'PKR'::text, 'PLN'::text, 'PYG'::text, 'QAR'::text, 'RON'::text, 'RSD'::text, 'RUB'::text, 'RWF'::text, 'SAR'::text, 'SBD'::text, 'SCR'::text, 'SDG'::text, 'SEK'::text, 'SGD'::text, 'SHP'::text, 'SLE'::text, 'SOS'::text, 'SRD'::text, 'SSP'::text, 'STN'::text, 'SVC'::text, 'SYP'::text, 'SZL'::text, 'THB'::text, 'TJS'::text, 'TMT'::text, 'TND'::text, 'TOP'::text, 'TRY'::text, 'TTD'::text, 'TWD'::text, 'TZS'::text, 'UAH'::text, 'UGX'::text, 'USN'::text, 'UYI'::text, 'UYU'::text, 'UYW'::text, 'UZS'::text, 'VED'::text, 'VES'::text, 'VND'::text, 'VUV'::text, 'WST'::text, 'XAF'::text, 'XCD'::text, 'XCG'::text, 'XOF'::text, 'XPF'::text, 'YER'::text, 'ZAR'::text, 'ZMW'::text, 'ZWG'::text])));
CREATE DOMAIN public.rd_event_id AS text
	CONSTRAINT rd_event_id_bounded CHECK ((octet_length(VALUE) <= 255));
CREATE DOMAIN public.rd_key AS text
	CONSTRAINT rd_key_bounded CHECK ((octet_length(VALUE) <= 255))
	CONSTRAINT rd_key_not_empty CHECK ((VALUE <> ''::text));
CREATE DOMAIN public.rd_recorded_by AS text;
CREATE DOMAIN public.rd_subscription_status AS text
	CONSTRAINT rd_subscription_status_known CHECK ((VALUE = ANY (ARRAY['trialing'::text, 'active'::text, 'past_due'::text, 'paused'::text, 'unpaid'::text, 'incomplete'::text, 'canceled'::text])));
CREATE FUNCTION public.access_sweep(p_now timestamp with time zone, p_after uuid, p_limit integer, OUT examined integer, OUT changed integer, OUT last_id uuid) RETURNS record
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    v_id uuid;
    v_actor text := SESSION_USER;
BEGIN
    IF p_now IS NULL OR p_limit IS NULL OR p_limit < 1 OR p_limit > 10000 THEN
        RAISE EXCEPTION 'access_sweep: an instant and a batch of 1 to 10000 subscriptions'
            USING ERRCODE = '22023';
    END IF;
    examined := 0;
    changed := 0;
    FOR v_id IN SELECT c.subscription_id
                   FROM public.rd_access_candidates(p_now, p_after, p_limit) c
    LOOP
        PERFORM 1 FROM public.subscriptions x WHERE x.id = v_id FOR UPDATE;
        examined := examined + 1;
        last_id := v_id;
        IF public.rd_access_settle(v_id, p_now, 'sweep', v_actor) THEN
            changed := changed + 1;
        END IF;
    END LOOP;
    IF examined < p_limit THEN
        last_id := NULL; -- the last batch
    END IF;
END;
$$;
CREATE FUNCTION public.access_trouble(p_now timestamp with time zone, p_provider_key text, p_limit integer) RETURNS TABLE(subscription_id uuid, provider_key text, provider_subscription_id text, verdict text, since timestamp with time zone, until timestamp with time zone, source text, reason text, attempts bigint, last_failed_at timestamp with time zone, decline_code text)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    SET jit TO 'off'
    AS $$
    SELECT s.id, s.provider_key, s.provider_subscription_id, v.verdict, v.since, v.until,
           v.source, v.reason, a.attempts, a.last_failed_at, a.decline_code
      FROM public.rd_access_candidates(p_now, NULL, 2147483647) c
      JOIN public.subscriptions s ON s.id = c.subscription_id
     CROSS JOIN LATERAL public.rd_access_verdict(s.id, p_now) v
     CROSS JOIN LATERAL (
         SELECT pg_catalog.count(*) AS attempts, pg_catalog.max(x.failed_at) AS last_failed_at,
                (pg_catalog.array_agg(x.decline_code ORDER BY x.failed_at DESC, x.attempt DESC))[1]
                    AS decline_code
           FROM public.payment_attempts x
          WHERE x.subscription_id = s.id AND x.failed_at <= p_now
            AND x.failed_at > coalesce((SELECT pg_catalog.max(b.paid_at)
                                          FROM public.subscription_billing_periods b
                                         WHERE b.subscription_id = s.id), '-infinity')) a
     WHERE v.verdict IN ('in_grace', 'blocked')
       AND (p_provider_key IS NULL OR s.provider_key = p_provider_key)
     ORDER BY s.id LIMIT p_limit;
$$;
CREATE FUNCTION public.rd_access_verdict(p_subscription_id uuid, p_now timestamp with time zone, OUT verdict text, OUT since timestamp with time zone, OUT until timestamp with time zone, OUT source text, OUT reason text) RETURNS record
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    s public.subscriptions%ROWTYPE;
    f public.provider_standing_facts%ROWTYPE;
    o public.access_overrides%ROWTYPE;
    v_days integer;
    v_grace interval;
    v_give_up text;
    v_paid_at timestamptz;
    v_settled timestamptz;
    v_grace_end timestamptz;
    v_first timestamptz;
    v_last_at timestamptz;
    v_next timestamptz;
    v_attempts integer;
BEGIN
    SELECT * INTO s FROM public.subscriptions x WHERE x.id = p_subscription_id;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT p.grace_days, p.when_provider_gives_up INTO v_days, v_give_up
      FROM public.access_policies p WHERE p.provider_key = s.provider_key;
    v_days := coalesce(v_days, 7);
    v_give_up := coalesce(v_give_up, 'block');
    v_grace := pg_catalog.make_interval(days => v_days);
    v_grace_end := s.current_period_end + v_grace;
    SELECT pg_catalog.max(b.paid_at) INTO v_paid_at
      FROM public.subscription_billing_periods b
     WHERE b.subscription_id = s.id AND b.paid_at <= p_now;
    SELECT * INTO f FROM public.provider_standing_facts x
     WHERE x.subscription_id = s.id AND x.observed_at <= p_now
     ORDER BY x.observed_at DESC, x.id DESC LIMIT 1;
    -- A past_due or unpaid older than the last payment: the payment ended that trouble.
    IF f.standing IN ('past_due', 'unpaid') AND f.observed_at < v_paid_at THEN
        f := NULL;
    END IF;
    v_settled := GREATEST(v_paid_at, CASE WHEN f.standing = 'active' THEN f.observed_at END);
    SELECT pg_catalog.count(*), pg_catalog.min(a.failed_at), pg_catalog.max(a.failed_at)
      INTO v_attempts, v_first, v_last_at
      FROM public.payment_attempts a
     WHERE a.subscription_id = s.id AND a.failed_at <= p_now
       AND a.failed_at > coalesce(v_settled, '-infinity')
       AND NOT EXISTS (SELECT 1 FROM public.subscription_billing_periods b
                        WHERE b.provider_key = a.provider_key
                          AND b.provider_renewal_key = a.invoice_key);
    IF v_attempts > 0 THEN
        SELECT a.next_attempt_at INTO v_next FROM public.payment_attempts a
         WHERE a.subscription_id = s.id AND a.failed_at = v_last_at
         ORDER BY a.attempt DESC LIMIT 1;
    END IF;
    IF s.status = 'canceled' OR f.standing = 'canceled' THEN
        verdict := 'ended';
        source := 'provider';
        since := CASE WHEN f.standing = 'canceled' THEN f.observed_at ELSE s.updated_at END;
        reason := CASE WHEN f.reason = 'not_paid' THEN 'canceled by the provider for non-payment'
                       ELSE 'canceled by the provider' END;
        RETURN;
    ELSIF s.cancel_at_period_end AND s.current_period_end <= p_now THEN
        verdict := 'ended';
        source := 'provider';
        since := s.current_period_end;
        reason := 'canceled at the end of its period';
        RETURN;
    ELSIF f.standing = 'paused' THEN
        verdict := 'blocked';
        source := 'provider';
        since := f.observed_at;
        reason := 'paused by the provider';
    ELSIF f.standing = 'unpaid' THEN
        IF v_give_up = 'keep_until_period_end' AND p_now < v_grace_end THEN
            verdict := 'in_grace';
            source := 'policy';
            since := f.observed_at;
            until := v_grace_end;
            reason := pg_catalog.format('the provider gave up collecting (%s); kept until the '
                                        'paid period''s end and %s grace days',
                                        coalesce(f.reason, 'unpaid'), v_days);
        ELSE
            verdict := 'blocked';
            source := CASE WHEN v_give_up = 'keep_until_period_end' THEN 'policy'
                           ELSE 'provider' END;
            since := CASE WHEN v_give_up = 'keep_until_period_end'
                          THEN GREATEST(f.observed_at, v_grace_end) ELSE f.observed_at END;
            reason := pg_catalog.format('the provider gave up collecting (%s)',
                                        coalesce(f.reason, 'unpaid'));
        END IF;
    ELSIF f.standing = 'past_due' OR v_attempts > 0 THEN
        until := GREATEST(v_grace_end, v_next);
        since := LEAST(v_first, CASE WHEN f.standing = 'past_due' THEN f.observed_at END);
        IF until IS NULL OR p_now < until THEN
            verdict := 'in_grace';
            source := 'provider';
            reason := CASE WHEN v_attempts > 0
                           THEN pg_catalog.format('%s failed payment attempt%s; %s', v_attempts,
                                    CASE WHEN v_attempts = 1 THEN '' ELSE 's' END,
                                    CASE WHEN v_next IS NOT NULL
                                         THEN 'the provider retries at '
                                              || public.rd_rfc3339(v_next)
                                         ELSE 'the provider retries' END)
                           ELSE 'past due: the provider retries its payment' END;
        ELSE
            verdict := 'blocked';
            source := 'policy';
            since := until;
            until := NULL;
            reason := pg_catalog.format('no payment by the end of the grace (%s days after the '
                                        'period''s end, or the provider''s last retry)', v_days);
        END IF;
    ELSIF s.current_period_end <= p_now THEN
        since := s.current_period_end;
        IF p_now < v_grace_end THEN
            verdict := 'in_grace';
            source := 'policy';
            until := v_grace_end;
            reason := pg_catalog.format('the period ended without its renewal; %s grace days',
                                        v_days);
        ELSE
            verdict := 'blocked';
            source := 'policy';
            since := v_grace_end;
            reason := pg_catalog.format('the period ended %s without its renewal, and its %s '
                                        'grace days passed',
                                        public.rd_rfc3339(s.current_period_end), v_days);
        END IF;
    ELSE
        verdict := 'good_standing';
        source := 'provider';
        since := coalesce(v_settled, s.current_period_start, s.created_at);
        reason := CASE WHEN s.current_period_end IS NOT NULL
                       THEN 'paid through ' || public.rd_rfc3339(s.current_period_end)
                       ELSE 'no payment trouble' END;
        RETURN;
    END IF;
    -- An operator's extension running at p_now.
    SELECT * INTO o FROM public.access_overrides x
     WHERE x.subscription_id = s.id AND x.created_at <= p_now AND x.until > p_now
     ORDER BY x.created_at DESC, x.id DESC LIMIT 1;
    IF FOUND AND (verdict = 'blocked' OR until IS NULL OR until < o.until) THEN
        verdict := 'in_grace';
        source := 'operator';
        since := o.created_at;
        until := o.until;
        reason := pg_catalog.format('grace extended by %s: %s', o.granted_by, o.note);
    END IF;
END;
$$;
CREATE FUNCTION public.rd_rfc3339(t timestamp with time zone) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN to_char((t AT TIME ZONE 'UTC'::text), 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'::text);
SET default_tablespace = '';
SET default_table_access_method = heap;
CREATE TABLE public.access_transitions (
    id bigint NOT NULL,
    subscription_id uuid NOT NULL,
    seq integer NOT NULL,
    verdict text NOT NULL,
    previous_verdict text NOT NULL,
    since timestamp with time zone NOT NULL,
    until timestamp with time zone,
    source text NOT NULL,
    reason text NOT NULL,
    evaluated_at timestamp with time zone NOT NULL,
    recorded_by text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT access_transitions_previous_verdict_check CHECK ((previous_verdict = ANY (ARRAY['good_standing'::text, 'in_grace'::text, 'blocked'::text, 'ended'::text]))),
    CONSTRAINT access_transitions_recorded_by_check CHECK ((recorded_by = ANY (ARRAY['webhook'::text, 'sweep'::text, 'operator'::text, 'cli'::text]))),
    CONSTRAINT access_transitions_seq_check CHECK ((seq > 0)),
    CONSTRAINT access_transitions_source_check CHECK ((source = ANY (ARRAY['provider'::text, 'policy'::text, 'operator'::text]))),
    CONSTRAINT access_transitions_verdict_check CHECK ((verdict = ANY (ARRAY['good_standing'::text, 'in_grace'::text, 'blocked'::text, 'ended'::text])))
);
CREATE TABLE public.access_verdicts (
    subscription_id uuid NOT NULL,
    verdict text NOT NULL,
    since timestamp with time zone NOT NULL,
    until timestamp with time zone,
    source text NOT NULL,
    reason text NOT NULL,
    seq integer NOT NULL,
    transition_id bigint NOT NULL,
    changed_at timestamp with time zone NOT NULL,
    CONSTRAINT access_verdicts_source_check CHECK ((source = ANY (ARRAY['provider'::text, 'policy'::text, 'operator'::text]))),
    CONSTRAINT access_verdicts_verdict_check CHECK ((verdict = ANY (ARRAY['good_standing'::text, 'in_grace'::text, 'blocked'::text, 'ended'::text])))
);
CREATE TABLE public.payment_attempts (
    id bigint NOT NULL,
    provider_key public.rd_key NOT NULL,
    invoice_key public.rd_key NOT NULL,
    attempt integer NOT NULL,
    subscription_id uuid NOT NULL,
    failed_at timestamp with time zone NOT NULL,
    next_attempt_at timestamp with time zone,
    decline_code text,
    amount_minor public.rd_amount_minor,
    currency public.rd_currency_code,
    provider_event_id public.rd_event_id NOT NULL,
    recorded_by public.rd_recorded_by DEFAULT 'webhook'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT payment_attempts_amount_minor_check CHECK (((amount_minor)::bigint >= 0)),
    CONSTRAINT payment_attempts_attempt_check CHECK (((attempt >= 1) AND (attempt <= 1000))),
    CONSTRAINT payment_attempts_check CHECK (((amount_minor IS NULL) = (currency IS NULL))),
    CONSTRAINT payment_attempts_decline_code_check CHECK (((octet_length(decline_code) >= 1) AND (octet_length(decline_code) <= 100)))
);
CREATE TABLE public.provider_standing_facts (
    id bigint NOT NULL,
    subscription_id uuid NOT NULL,
    provider_key public.rd_key NOT NULL,
    standing text NOT NULL,
    observed_at timestamp with time zone NOT NULL,
    reason text,
    provider_event_id public.rd_event_id NOT NULL,
    recorded_by public.rd_recorded_by DEFAULT 'webhook'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT provider_standing_facts_reason_check CHECK (((octet_length(reason) >= 1) AND (octet_length(reason) <= 100))),
    CONSTRAINT provider_standing_facts_standing_check CHECK ((standing = ANY (ARRAY['active'::text, 'past_due'::text, 'unpaid'::text, 'paused'::text, 'canceled'::text])))
);
CREATE TABLE public.subscription_billing_periods (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    subscription_id uuid NOT NULL,
    provider_key text NOT NULL,
    provider_renewal_key public.rd_key NOT NULL,
    provider_event_id public.rd_event_id NOT NULL,
    period_start timestamp with time zone NOT NULL,
    period_end timestamp with time zone NOT NULL,
    paid_amount_minor public.rd_amount_minor NOT NULL,
    currency public.rd_currency_code NOT NULL,
    paid_at timestamp with time zone NOT NULL,
    recorded_by public.rd_recorded_by DEFAULT 'webhook'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT billing_period_valid_range CHECK ((period_end > period_start))
);
CREATE TABLE public.subscriptions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    provider_key public.rd_key NOT NULL,
    provider_subscription_id public.rd_key NOT NULL,
    status public.rd_subscription_status NOT NULL,
    current_period_start timestamp with time zone,
    current_period_end timestamp with time zone,
    cancel_at_period_end boolean DEFAULT false NOT NULL,
    provider_version text,
    revision bigint DEFAULT 1 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT subscriptions_current_period_valid CHECK ((((current_period_start IS NULL) = (current_period_end IS NULL)) AND ((current_period_end IS NULL) OR (current_period_end > current_period_start))))
);
ALTER TABLE ONLY public.subscriptions ALTER COLUMN provider_subscription_id SET STATISTICS 1000;
CREATE FUNCTION public.access_verdict_json(p_provider_key text, p_provider_subscription_id text, p_now timestamp with time zone) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    RETURN (SELECT jsonb_build_object('subscriptionId', s.id, 'providerKey', s.provider_key, 'providerSubscriptionId', s.provider_subscription_id, 'verdict', v.verdict, 'since', public.rd_rfc3339(v.since), 'until', public.rd_rfc3339(v.until), 'source', v.source, 'reason', v.reason, 'evaluatedAt', public.rd_rfc3339(access_verdict_json.p_now), 'attempts', COALESCE((SELECT jsonb_agg(jsonb_build_object('invoiceKey', a.invoice_key, 'attempt', a.attempt, 'at', public.rd_rfc3339(a.failed_at), 'nextAttemptAt', public.rd_rfc3339(a.next_attempt_at), 'declineCode', a.decline_code, 'recovered', (EXISTS (SELECT 1 FROM public.subscription_billing_periods b WHERE ((b.provider_key = (a.provider_key)::text) AND ((b.provider_renewal_key)::text = (a.invoice_key)::text))))) ORDER BY a.failed_at, a.attempt) AS jsonb_agg FROM public.payment_attempts a WHERE ((a.subscription_id = s.id) AND (a.failed_at <= access_verdict_json.p_now) AND (a.failed_at > COALESCE((SELECT max(b.paid_at) AS max FROM public.subscription_billing_periods b WHERE ((b.subscription_id = s.id) AND (b.paid_at <= access_verdict_json.p_now) AND (NOT (EXISTS (SELECT 1 FROM public.payment_attempts r WHERE (((r.provider_key)::text = b.provider_key) AND ((r.invoice_key)::text = (b.provider_renewal_key)::text))))))), '-infinity'::timestamp with time zone)))), '[]'::jsonb), 'standing', (SELECT jsonb_build_object('standing', f.standing, 'observedAt', public.rd_rfc3339(f.observed_at), 'reason', f.reason) AS jsonb_build_object FROM public.provider_standing_facts f WHERE ((f.subscription_id = s.id) AND (f.observed_at <= access_verdict_json.p_now)) ORDER BY f.observed_at DESC, f.id DESC LIMIT 1), 'recorded', (SELECT jsonb_build_object('verdict', r.verdict, 'since', public.rd_rfc3339(r.since), 'until', public.rd_rfc3339(r.until), 'source', r.source, 'seq', r.seq, 'changedAt', public.rd_rfc3339(r.changed_at)) AS jsonb_build_object FROM public.access_verdicts r WHERE (r.subscription_id = s.id)), 'history', COALESCE((SELECT jsonb_agg(jsonb_build_object('seq', t.seq, 'verdict', t.verdict, 'previousVerdict', t.previous_verdict, 'since', public.rd_rfc3339(t.since), 'until', public.rd_rfc3339(t.until), 'source', t.source, 'reason', t.reason, 'recordedBy', t.recorded_by, 'recordedAt', public.rd_rfc3339(t.created_at)) ORDER BY t.seq) AS jsonb_agg FROM public.access_transitions t WHERE (t.subscription_id = s.id)), '[]'::jsonb)) AS jsonb_build_object FROM (public.subscriptions s CROSS JOIN LATERAL public.rd_access_verdict(s.id, access_verdict_json.p_now) v(verdict, since, until, source, reason)) WHERE (((s.provider_key)::text = access_verdict_json.p_provider_key) AND ((s.provider_subscription_id)::text = access_verdict_json.p_provider_subscription_id)));
CREATE FUNCTION public.apply_cli_renewal(p_provider_key text, p_provider_event_id text, p_provider_subscription_id text, p_provider_renewal_key text, p_provider_version text, p_period_start timestamp with time zone, p_period_end timestamp with time zone, p_paid_amount_minor bigint, p_currency text, p_paid_at timestamp with time zone, p_billing_period_id uuid DEFAULT NULL::uuid, OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb) RETURNS record
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    a record;
BEGIN
    a := public.apply_successful_renewal(
             p_provider_key, p_provider_event_id, p_provider_subscription_id,
             p_provider_renewal_key, p_provider_version, p_period_start, p_period_end,
             p_paid_amount_minor, p_currency, p_paid_at, 'cli', session_user::text,
             p_billing_period_id);
    result := a.result;
    billing_period_id := a.billing_period_id;
    error_code := a.error_code;
    local_state := a.local_state;
    IF result = 'applied' THEN
        -- The money back that waited for it (#40), as a delivery's renewal does.
        PERFORM public.rd_heal_money_back(p_provider_key, billing_period_id,
            pg_catalog.jsonb_build_object('providerRenewalKey', p_provider_renewal_key,
                                          'providerEventId', p_provider_event_id));
    END IF;
END;
$$;
CREATE FUNCTION public.apply_successful_renewal(p_provider_key text, p_provider_event_id text, p_provider_subscription_id text, p_provider_renewal_key text, p_provider_version text, p_period_start timestamp with time zone, p_period_end timestamp with time zone, p_paid_amount_minor bigint, p_currency text, p_paid_at timestamp with time zone, p_actor_type text, p_actor_id text, p_billing_period_id uuid DEFAULT NULL::uuid, OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb) RETURNS record
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    SET "renewal_desk.core_counts" TO 'on'
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
                    CASE WHEN k_actor_type IN ('operator', 'statement', 'cli') THEN k_actor_type
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
                        CASE WHEN k_actor_type IN ('operator', 'statement', 'cli') THEN k_actor_type
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
CREATE FUNCTION public.apply_webhook_renewal(p_provider_key text, p_provider_event_id text, p_provider_subscription_id text, p_provider_renewal_key text, p_provider_version text, p_period_start timestamp with time zone, p_period_end timestamp with time zone, p_paid_amount_minor bigint, p_currency text, p_paid_at timestamp with time zone, p_billing_period_id uuid DEFAULT NULL::uuid, OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb) RETURNS record
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    a record;
BEGIN
    -- An assignment, not SELECT ... FROM: a plain expression skips the executor's function
    -- scan and its tuplestore. Over calling the core directly this wrapper costs 30,800
    -- instructions a renewal (1.1 %; SELECT ... FROM cost 48,000), counted with
    -- count-instructions.sh and webhook-statement.sql. The delivery path (ingest_delivery)
    -- calls the core directly and pays nothing.
    a := public.apply_successful_renewal(
             p_provider_key, p_provider_event_id, p_provider_subscription_id,
             p_provider_renewal_key, p_provider_version, p_period_start, p_period_end,
             p_paid_amount_minor, p_currency, p_paid_at, 'webhook', p_provider_key,
             p_billing_period_id);
    result := a.result;
    billing_period_id := a.billing_period_id;
    error_code := a.error_code;
    local_state := a.local_state;
END;
$$;
CREATE FUNCTION public.attach_provider_snapshot(p_snapshot jsonb, p_case_id bigint, p_reason text, p_comment text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    SET "renewal_desk.core_counts" TO 'off'
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
CREATE FUNCTION public.audit_billing_period_breaks() RETURNS TABLE(chain text, chain_id text, row_id bigint, chain_seq bigint, problem text)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    WITH recorded AS (
        SELECT t.billing_period_id, t.id, t.chain_seq,
               (t.transition = 'subscription_renewed' AND t.details ? 'paidAmountMinor')
                   OR t.details ? 'billingPeriod' AS kept,
               CASE WHEN t.transition = 'subscription_renewed' THEN t.details->>'paidAmountMinor'
                    ELSE t.details->'billingPeriod'->>'paidAmountMinor' END AS amount,
               CASE WHEN t.transition = 'subscription_renewed' THEN t.details->>'currency'
                    ELSE t.details->'billingPeriod'->>'currency' END AS currency,
               CASE WHEN t.transition = 'subscription_renewed' THEN t.period_start
                    ELSE (t.details->'billingPeriod'->'period'->>'start')::timestamptz
               END AS period_start,
               CASE WHEN t.transition = 'subscription_renewed' THEN t.period_end
                    ELSE (t.details->'billingPeriod'->'period'->>'end')::timestamptz
               END AS period_end
          FROM public.subscription_transition_audits t
         WHERE t.billing_period_id IS NOT NULL
           AND t.transition IN ('subscription_renewed', 'subscription_reconciled'))
    SELECT 'subscription_transition_audits'::text, b.subscription_id::text,
           coalesce(a.id, 0), coalesce(a.chain_seq, 0),
           CASE WHEN a.id IS NULL
                THEN 'billing period of renewal ' || b.provider_renewal_key
                     || ' has no audit row recording it (added, or its record removed)'
                ELSE 'billing period of renewal ' || b.provider_renewal_key || ' holds '
                     || b.paid_amount_minor || ' ' || b.currency || ' for '
                     || public.rd_rfc3339(b.period_start) || ' to '
                     || public.rd_rfc3339(b.period_end) || ', its audit row recorded '
                     || coalesce(a.amount, '?') || ' ' || coalesce(a.currency, '?') || ' for '
                     || coalesce(public.rd_rfc3339(a.period_start), '?') || ' to '
                     || coalesce(public.rd_rfc3339(a.period_end), '?') || ' (altered)' END
      FROM public.subscription_billing_periods b
      LEFT JOIN recorded a ON a.billing_period_id = b.id
     WHERE a.id IS NULL
        OR (a.kept AND (a.amount IS DISTINCT FROM b.paid_amount_minor::text
                        OR a.currency IS DISTINCT FROM b.currency
                        OR a.period_start IS DISTINCT FROM b.period_start
                        OR a.period_end IS DISTINCT FROM b.period_end))
     ORDER BY 2, 4, 5;
$$;
CREATE FUNCTION public.audit_case_history_heads() RETURNS TABLE(chain text, chain_id text, chain_seq bigint, row_hash text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT DISTINCT ON (case_id) 'reconciliation_case_history', case_id::text, chain_seq, row_hash
      FROM reconciliation_case_history ORDER BY case_id, chain_seq DESC;
$$;
CREATE FUNCTION public.audit_chain_breaks() RETURNS TABLE(chain text, chain_id text, row_id bigint, chain_seq bigint, problem text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
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
        SELECT 'reconciliation_case_history', * FROM h),
    found AS (
        SELECT 0 AS part, chain, cid, id, chain_seq,
               CASE WHEN expected <> row_hash THEN 'row content does not match its hash (altered)'
                    WHEN prev_seq IS NULL AND chain_seq <> 1
                        THEN 'rows before this one are missing (removed)'
                    WHEN prev_seq IS NOT NULL AND chain_seq <> prev_seq + 1
                        THEN 'the row before this one is missing (removed)'
                    ELSE 'the previous row''s hash does not match (altered or removed)'
               END AS problem
          FROM checked
         WHERE expected <> row_hash
            OR (prev_seq IS NULL AND (chain_seq <> 1 OR prev_hash <> ''))
            OR (prev_seq IS NOT NULL AND (chain_seq <> prev_seq + 1 OR prev_hash <> prev_row_hash))
        -- Then every billing period against the hashed audit row that recorded it (#39).
        UNION ALL
        SELECT 1, p.chain, p.chain_id, p.row_id, p.chain_seq, p.problem
          FROM public.audit_billing_period_breaks() p)
    SELECT chain, cid, id, chain_seq, problem
      FROM found
     ORDER BY part, chain DESC, cid, chain_seq, CASE WHEN part = 1 THEN problem END;
$$;
CREATE FUNCTION public.audit_chain_hash_at(p_chain text, p_chain_id text, p_seq bigint) RETURNS text
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT row_hash FROM subscription_transition_audits
     WHERE p_chain = 'subscription_transition_audits'
       AND subscription_id = p_chain_id::uuid AND chain_seq = p_seq
    UNION ALL
    SELECT row_hash FROM reconciliation_case_history
     WHERE p_chain = 'reconciliation_case_history'
       AND case_id = p_chain_id::bigint AND chain_seq = p_seq;
$$;
CREATE FUNCTION public.audit_chain_heads() RETURNS TABLE(chain text, chain_id text, chain_seq bigint, row_hash text)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT DISTINCT ON (subscription_id) 'subscription_transition_audits', subscription_id::text,
           chain_seq, row_hash
      FROM subscription_transition_audits ORDER BY subscription_id, chain_seq DESC;
$$;
CREATE FUNCTION public.case_detail(p_case_id bigint) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT jsonb_build_object(
        'id', c.id, 'status', c.status, 'resolution', c.resolution,
        'errorCode', c.error_code, 'providerKey', c.provider_key,
        'providerSubscriptionId', c.provider_subscription_id,
        'subscriptionId', c.subscription_id,
        'providerRenewalKey', c.provider_renewal_key, 'occurrences', c.occurrences,
        'firstSeenAt', public.rd_rfc3339(c.first_seen_at),
        'lastSeenAt', public.rd_rfc3339(c.last_seen_at),
        'resolvedBy', c.resolved_by, 'resolvedAt', public.rd_rfc3339(c.resolved_at),
        'resolutionComment', c.resolution_comment, 'snapshotId', c.snapshot_id,
        'assignedTo', c.assigned_to, 'assignedAt', public.rd_rfc3339(c.assigned_at),
        'event', c.event, 'localState', c.local_state,
        'applicableNow', public.rd_case_is_applicable(c),
        'reopenable', public.rd_case_reopen_refusal(c) IS NULL,
        'reopenRefusal', public.rd_case_reopen_refusal(c),
        'history', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                'seq', h.chain_seq, 'action', h.action, 'outcome', h.outcome,
                'error', h.error_code, 'actor', h.actor, 'reason', h.reason,
                'comment', h.comment, 'at', public.rd_rfc3339(h.created_at),
                'details', h.details,
                'recordedBy', public.rd_case_step_recorded_by(c, h)) ORDER BY h.chain_seq), '[]')
             FROM public.reconciliation_case_history h WHERE h.case_id = c.id))
      FROM public.reconciliation_cases c WHERE c.id = p_case_id
$$;
CREATE FUNCTION public.claim_case(p_case_id bigint, p_comment text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    v_note text := public.rd_note_text(p_comment);
BEGIN
    c := public.rd_lock_open_case(p_case_id);
    IF c.assigned_to = session_user THEN
        RETURN jsonb_build_object('caseId', p_case_id, 'result', 'already_yours',
                                  'assignedTo', c.assigned_to);
    END IF;
    IF c.assigned_to IS NOT NULL AND v_note IS NULL THEN
        RAISE EXCEPTION 'case % is claimed by %: taking it over needs a note saying why',
            p_case_id, c.assigned_to USING ERRCODE = 'RD004';
    END IF;
    UPDATE public.reconciliation_cases
       SET assigned_to = session_user, assigned_at = now()
     WHERE id = p_case_id;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, comment, details,
                                                    chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'claimed', 'claimed', v_note,
            jsonb_strip_nulls(jsonb_build_object('takenFrom', c.assigned_to)), 0, '', '');
    RETURN jsonb_strip_nulls(jsonb_build_object('caseId', p_case_id, 'result', 'claimed',
                                                'assignedTo', session_user,
                                                'takenFrom', c.assigned_to));
END;
$$;
CREATE FUNCTION public.close_month(p_provider_key text, p_month date) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    v_why text;
    v_lo timestamptz := p_month::timestamp AT TIME ZONE 'UTC';
    v_hi timestamptz := (p_month + interval '1 month')::timestamp AT TIME ZONE 'UTC';
    v_runs bigint[];
    v_shas text[];
    v_newest bigint;
    v_after uuid[];
    c public.month_closes%ROWTYPE;
BEGIN
    -- The provider's statement imports' lock (statement_begin): an import commits wholly
    -- before the close reads, or begins after it; two closes of one provider queue here too.
    PERFORM public.rd_lock_provider_statements(p_provider_key);
    v_why := public.month_close_refusal(p_provider_key, p_month);
    IF v_why IS NOT NULL THEN
        RAISE EXCEPTION '%', v_why USING ERRCODE = 'RD015';
    END IF;
    -- Money back (0051): the table's SHARE lock waits for the movements being recorded and
    -- holds new ones until this close commits (record_money_movements takes ROW EXCLUSIVE
    -- before it asks whether the month is closed): a movement of the month is counted here or
    -- sees the close and is after close, never neither. Every provider's movements wait, for
    -- the moment a close takes.
    LOCK TABLE public.money_movements IN SHARE MODE;
    -- The movements recorded after their own month's close that no close has counted: this
    -- one counts and lists them.
    v_after := ARRAY(SELECT m.id FROM public.money_movements m
                      WHERE m.provider_key = p_provider_key AND m.after_close
                        AND NOT EXISTS (SELECT 1 FROM public.month_closes o
                                         WHERE o.provider_key = p_provider_key
                                           AND m.id = ANY (o.after_close_movement_ids))
                      ORDER BY m.occurred_at, m.id);
    SELECT pg_catalog.array_agg(r.id ORDER BY r.id),
           pg_catalog.array_agg(r.statement_sha256 ORDER BY r.id), pg_catalog.max(r.id)
      INTO v_runs, v_shas, v_newest
      FROM public.statement_runs r
     WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
       AND r.covers_from <= p_month AND r.covers_to >= (p_month + interval '1 month')::date - 1
       -- The runs that may speak for the month (month_close_refusal): an unproven one's open
       -- cases still hold the month open, but it is not the close's statement.
       AND r.completeness IS DISTINCT FROM 'unproven';
    INSERT INTO public.month_closes AS mc
        (provider_key, month, statement_run_ids, statement_sha256s, statement_totals,
         ledger_totals, matched, backfilled, unapplied, differing, not_in_statement,
         cases_resolved, cases_dismissed, audit_anchor_digest, audit_anchor_heads,
         money_back_totals, after_close_totals, after_close_movement_ids)
    SELECT p_provider_key, p_month, v_runs, v_shas,
           coalesce((SELECT pg_catalog.jsonb_object_agg(t.currency, pg_catalog.jsonb_build_object(
                         'renewals', t.n, 'amountMinor', t.amount))
                       FROM (SELECT l.event->>'currency' AS currency, pg_catalog.count(*) AS n,
                                    pg_catalog.sum((l.event->>'paidAmountMinor')::numeric)
                                        AS amount
                               FROM public.rd_month_close_lines(p_provider_key, p_month) l
                              WHERE l.run_id = v_newest AND l.event IS NOT NULL
                                AND l.finding <> 'unreadable'
                                AND l.event->'movements' IS NULL -- money back: not paid
                              GROUP BY 1) t), '{}'),
           public.rd_ledger_totals(p_provider_key, v_lo, v_hi),
           f.matched, f.backfilled, f.unapplied, f.differing, f.not_in_statement,
           k.resolved, k.dismissed, a.digest, a.heads,
           -- By each movement's own date (occurred_at, UTC), never its renewal's.
           public.rd_money_back_by_currency(ARRAY(
               SELECT m.id FROM public.money_movements m
                WHERE m.provider_key = p_provider_key
                  AND m.occurred_at >= v_lo AND m.occurred_at < v_hi)),
           public.rd_money_back_by_currency(v_after), v_after
      FROM (SELECT pg_catalog.count(*) FILTER (WHERE l.finding = 'matched') AS matched,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'backfilled') AS backfilled,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'unapplied') AS unapplied,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'differing') AS differing,
                   pg_catalog.count(*) FILTER (WHERE l.finding = 'not_in_statement')
                       AS not_in_statement
              FROM public.rd_month_close_lines(p_provider_key, p_month) l
             WHERE l.run_id = v_newest) f,
           (SELECT pg_catalog.count(*) FILTER (WHERE x.status = 'resolved') AS resolved,
                   pg_catalog.count(*) FILTER (WHERE x.status = 'dismissed') AS dismissed
              FROM (SELECT DISTINCT oc.id, oc.status
                      FROM public.rd_month_close_lines(p_provider_key, p_month) l
                      JOIN public.reconciliation_cases oc ON oc.id = l.case_id) x) k,
           public.rd_audit_anchor_digest() a
    RETURNING * INTO c;
    -- The report's head (month_close_report, below) without its findings; the movements after
    -- close it counted are listed.
    RETURN pg_catalog.jsonb_build_object('result', 'closed')
           || (public.month_close_report(c.provider_key, c.month) - 'findings');
END;
$$;
CREATE FUNCTION public.dismiss_case(p_case_id bigint, p_reason text, p_comment text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    PERFORM public.rd_require_reason(p_reason);
    IF public.rd_note_text(p_comment) IS NULL THEN
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
CREATE FUNCTION public.erase_customer_email(p_email text, p_request text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
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
CREATE FUNCTION public.erase_inbox_bodies(p_provider_key text, p_provider_subscription_id text, p_request text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
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
CREATE FUNCTION public.extend_access(p_provider_key text, p_provider_subscription_id text, p_until timestamp with time zone, p_note text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    v_note text := public.rd_note_text(p_note);
    s public.subscriptions%ROWTYPE;
    v record;
    v_override bigint;
BEGIN
    IF v_note IS NULL THEN
        RAISE EXCEPTION 'an extension of grace needs a note' USING ERRCODE = 'RD004';
    END IF;
    SELECT * INTO s FROM public.subscriptions x
     WHERE x.provider_key = p_provider_key AND x.provider_subscription_id = p_provider_subscription_id
       FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'subscription % of provider % is not known here',
            p_provider_subscription_id, p_provider_key USING ERRCODE = 'RD023';
    END IF;
    IF p_until IS NULL OR p_until <= pg_catalog.now()
       OR p_until > pg_catalog.now() + interval '90 days' THEN
        RAISE EXCEPTION 'grace can be extended to an instant after now and at most 90 days ahead'
            USING ERRCODE = 'RD024';
    END IF;
    v := public.rd_access_verdict(s.id, pg_catalog.now());
    IF v.verdict = 'ended' THEN
        RAISE EXCEPTION 'the access of subscription % has ended (%): there is no grace to extend',
            p_provider_subscription_id, v.reason USING ERRCODE = 'RD024';
    END IF;
    INSERT INTO public.access_overrides AS o (subscription_id, until, note)
    VALUES (s.id, p_until, v_note) RETURNING o.id INTO v_override;
    INSERT INTO public.subscription_transition_audits
        (subscription_id, transition, actor_type, actor_id, comment, details)
    VALUES (s.id, 'access_extended', 'operator', SESSION_USER, v_note,
            pg_catalog.jsonb_build_object('accessOverrideId', v_override,
                'until', public.rd_rfc3339(p_until)));
    PERFORM public.rd_access_settle(s.id, pg_catalog.now(), 'operator', SESSION_USER);
    RETURN public.access_verdict_json(p_provider_key, p_provider_subscription_id,
                                      pg_catalog.now());
END;
$$;
CREATE FUNCTION public.find_anything(p_text text, p_limit integer DEFAULT 50) RETURNS TABLE(kind text, matched_by text, subscription_id uuid, billing_period_id uuid, case_id bigint, delivery_id bigint, provider_key text, provider_subscription_id text, status text, reason text, renewal_key text, event_id text, period_start timestamp with time zone, period_end timestamp with time zone, at timestamp with time zone, amount_minor bigint, currency text, attempts integer)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $_$
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
$_$;
CREATE FUNCTION public.fold_inbox_days() RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_from date;
    v_to date := ((pg_catalog.now() OPERATOR(pg_catalog.-) interval '10 minutes')
                  AT TIME ZONE 'UTC')::date;
    v_rows bigint;
BEGIN
    IF pg_catalog.pg_is_in_recovery() THEN
        RETURN 0;
    END IF;
    IF NOT public.rd_try_work_lock('fold inbox days') THEN
        RETURN 0;
    END IF;
    SELECT s.folded_before INTO v_from FROM public.webhook_inbox_daily_state s;
    IF v_from IS NULL OR v_from OPERATOR(pg_catalog.>=) v_to THEN
        RETURN 0;
    END IF;
    INSERT INTO public.webhook_inbox_daily (day, outcome, deliveries)
    SELECT (w.received_at AT TIME ZONE 'UTC')::date, COALESCE(w.outcome, ''), pg_catalog.count(*)
      FROM public.webhook_inbox w
     WHERE w.received_at OPERATOR(pg_catalog.>=) (v_from::timestamp AT TIME ZONE 'UTC')
       AND w.received_at OPERATOR(pg_catalog.<) (v_to::timestamp AT TIME ZONE 'UTC')
     GROUP BY 1, 2;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    UPDATE public.webhook_inbox_daily_state SET folded_before = v_to;
    RETURN v_rows;
END;
$$;
CREATE FUNCTION public.fold_money_back_totals() RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_folded bigint;
BEGIN
    IF pg_catalog.pg_is_in_recovery() THEN
        RETURN 0;
    END IF;
    IF NOT public.rd_try_work_lock('fold money back totals') THEN
        RETURN 0;
    END IF;
    WITH taken AS (
        DELETE FROM public.money_back_deltas RETURNING *
    ), counted AS (
        SELECT pg_catalog.count(*) AS n FROM taken
    ), folded AS (
        INSERT INTO public.money_back_daily_totals AS t (day, provider_key, currency, kind,
                                                         movements, amount_minor)
        SELECT day, provider_key, currency, kind, pg_catalog.sum(movements),
               pg_catalog.sum(amount_minor)
          FROM taken
         GROUP BY day, provider_key, currency, kind
        ON CONFLICT (day, provider_key, currency, kind) DO UPDATE
           SET movements = t.movements OPERATOR(pg_catalog.+) excluded.movements,
               amount_minor = t.amount_minor OPERATOR(pg_catalog.+) excluded.amount_minor
        RETURNING 1
    )
    SELECT n INTO v_folded FROM counted, (SELECT pg_catalog.count(*) FROM folded) f;
    RETURN v_folded;
END;
$$;
CREATE FUNCTION public.fold_renewal_totals() RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_folded bigint;
BEGIN
    IF pg_catalog.pg_is_in_recovery() THEN
        RETURN 0;
    END IF;
    IF NOT public.rd_try_work_lock('fold renewal totals') THEN
        RETURN 0;
    END IF;
    WITH taken AS (
        DELETE FROM public.renewal_total_deltas RETURNING *
    ), counted AS (
        SELECT pg_catalog.count(*) AS n FROM taken
    ), by_paid AS (
        INSERT INTO public.renewal_daily_totals AS t (day, provider_key, currency, recorded_by,
                                                      renewals, amount_minor)
        SELECT day, provider_key, currency, recorded_by, pg_catalog.sum(renewals),
               pg_catalog.sum(amount_minor)
          FROM taken
         GROUP BY day, provider_key, currency, recorded_by
        ON CONFLICT (day, provider_key, currency, recorded_by) DO UPDATE
           SET renewals = t.renewals OPERATOR(pg_catalog.+) excluded.renewals,
               amount_minor = t.amount_minor OPERATOR(pg_catalog.+) excluded.amount_minor
        RETURNING 1
    ), by_start AS (
        INSERT INTO public.renewal_period_start_totals AS t (day, provider_key, currency,
                                                             recorded_by, renewals, amount_minor)
        SELECT period_start_day, provider_key, currency, recorded_by, pg_catalog.sum(renewals),
               pg_catalog.sum(amount_minor)
          FROM taken
         GROUP BY period_start_day, provider_key, currency, recorded_by
        ON CONFLICT (day, provider_key, currency, recorded_by) DO UPDATE
           SET renewals = t.renewals OPERATOR(pg_catalog.+) excluded.renewals,
               amount_minor = t.amount_minor OPERATOR(pg_catalog.+) excluded.amount_minor
        RETURNING 1
    )
    SELECT n INTO v_folded
      FROM counted, (SELECT pg_catalog.count(*) FROM by_paid) p,
           (SELECT pg_catalog.count(*) FROM by_start) s;
    RETURN v_folded;
END;
$$;
CREATE FUNCTION public.ingest_delivery(p_provider_key text, p_provider_event_id text, p_raw_body bytea, p_body_size bigint, p_body_sha256 text, p_outcome text, p_reason text, p_error text, p_normalized jsonb, p_event jsonb, p_token uuid, OUT outcome text, OUT inbox_id bigint, OUT billing_period_id uuid, OUT error_code text, OUT case_id bigint, OUT local_state jsonb) RETURNS record
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    v_inbox bigint;
    v_is_new boolean;
    v_stored text;
    v_bp uuid;
    v_case bigint;
    v_error text;
    v_state jsonb;
    v_result text;
    v_final boolean := p_event IS NULL;
    v_attempt integer := 0;
    v_normalized jsonb := p_normalized;
    v_email_hmac text;
BEGIN
    -- Where this body is stored matters to every call. Compressed, it is a little over the
    -- 2,000 bytes PostgreSQL keeps in a pg_proc row, so it moves out of the row; compressed to
    -- less, it stayed in the row, and the toaster then compressed the argument arrays as well,
    -- which every call decompresses again (docs/migrations.md, "Why grants first").
    IF p_event IS NULL AND p_outcome IS NULL THEN
        RAISE EXCEPTION 'ingest_delivery: a renewal needs its event' USING ERRCODE = '22023';
    END IF;
    UPDATE public.webhook_inbox w
       SET deliveries = w.deliveries + 1, last_delivery_at = pg_catalog.now()
     WHERE w.provider_key = p_provider_key AND w.provider_event_id = p_provider_event_id
    RETURNING w.id, w.outcome, w.billing_period_id, w.case_id
         INTO v_inbox, v_stored, v_bp, v_case;
    -- Not found: a new event id, whose row is written once, with its outcome, at the end.
    v_is_new := NOT FOUND;
    inbox_id := v_inbox;
    IF v_stored IS NOT NULL AND NOT v_is_new THEN
        -- Transport-level duplicate: the first delivery's outcome stands.
        outcome := 'duplicate_delivery';
        billing_period_id := v_bp;
        case_id := v_case;
        RETURN;
    END IF;
    -- A new renewal or snapshot case, or a row an earlier delivery left without outcome.
    v_bp := NULL;
    v_case := NULL;
    IF v_final THEN
        v_result := p_outcome;
        v_error := p_error;
    ELSIF p_outcome = 'needs_snapshot' THEN
        SELECT public.rd_subscription_state_json(s) INTO v_state FROM public.subscriptions s
         WHERE s.provider_key = p_event->>'providerKey'
           AND s.provider_subscription_id = p_event->>'providerSubscriptionId';
        v_case := public.record_reconciliation_case(
            p_event, 'needs_snapshot',
            coalesce(v_state, pg_catalog.jsonb_build_object('subscriptionId', NULL)));
        v_result := 'needs_snapshot';
        v_state := NULL;
    ELSIF p_outcome = 'payment_trouble' THEN
        -- Failed attempts and the provider's standing (#41): recorded, duplicate, or
        -- not_a_renewal for a subscription not known here.
        SELECT r.result, r.error_code INTO v_result, v_error
          FROM public.record_payment_trouble(p_event, 'webhook', p_provider_key) r;
    ELSIF p_outcome = 'money_movement' THEN
        -- Refunds, chargebacks and their reversals (#40): recorded, duplicate, or a case.
        SELECT r.result, r.billing_period_id, r.error_code, r.case_id, r.local_state
          INTO v_result, v_bp, v_error, v_case, v_state
          FROM public.record_money_movements(p_event, 'webhook', p_provider_key) r;
    ELSE
        LOOP
            v_attempt := v_attempt + 1;
            SELECT a.result, a.billing_period_id, a.error_code, a.local_state
              INTO v_result, v_bp, v_error, v_state
              FROM public.apply_successful_renewal(
                       p_event->>'providerKey', p_event->>'providerEventId',
                       p_event->>'providerSubscriptionId', p_event->>'providerRenewalKey',
                       p_event->>'providerVersion',
                       (p_event->'period'->>'start')::timestamptz,
                       (p_event->'period'->>'end')::timestamptz,
                       (p_event->>'paidAmountMinor')::bigint, p_event->>'currency',
                       (p_event->>'paidAt')::timestamptz, 'webhook', p_provider_key,
                       p_token) a;
            IF v_result = 'applied' THEN
                -- Its payment refs kept, and the money back that waited for it recorded.
                PERFORM public.rd_heal_money_back(p_provider_key, v_bp, p_event);
                -- A paid renewal ends a payment trouble (#41): its recorded verdict moves now,
                -- under the row lock the renewal holds, not at the next sweep.
                PERFORM public.rd_access_settle(a.subscription_id, pg_catalog.now(), 'webhook',
                                                p_provider_key)
                   FROM public.subscription_billing_periods b
                   JOIN public.access_verdicts a ON a.subscription_id = b.subscription_id
                  WHERE b.id = v_bp AND a.verdict IN ('in_grace', 'blocked');
            END IF;
            EXIT WHEN v_result <> 'rejected';
            v_case := public.record_reconciliation_case(p_event, v_error, v_state);
            EXIT WHEN v_case IS NOT NULL;
            IF v_attempt >= 5 THEN
                -- Retried as a whole by the client (nothing of this call is kept).
                RAISE EXCEPTION 'renewal % kept changing between its rejection and its case',
                    p_event->>'providerRenewalKey' USING ERRCODE = '40001';
            END IF;
        END LOOP;
    END IF;
    IF v_is_new THEN
        -- The customer's e-mail (#42) is never stored in clear outside the body: its keyed hash
        -- replaces it, for Find anything after the body has gone (one HMAC, two sha256 calls).
        IF p_normalized ? 'customerEmail' THEN
            v_email_hmac := public.rd_customer_email_hmac(p_normalized ->> 'customerEmail');
            v_normalized := p_normalized - 'customerEmail';
            IF v_email_hmac IS NOT NULL THEN
                v_normalized := v_normalized
                    || pg_catalog.jsonb_build_object('customerEmailHmac', v_email_hmac);
            END IF;
        END IF;
        INSERT INTO public.webhook_inbox AS w (
            provider_key, provider_event_id, raw_body, body_size, body_sha256, outcome, reason,
            error, normalized, billing_period_id, case_id, processed_at, ingest_token)
        VALUES (p_provider_key, p_provider_event_id, p_raw_body, p_body_size, p_body_sha256,
                v_result, p_reason, v_error, v_normalized, v_bp, v_case, pg_catalog.now(),
                p_token)
        ON CONFLICT (provider_key, provider_event_id) DO NOTHING
        RETURNING w.id INTO v_inbox;
        IF v_inbox IS NULL THEN
            -- A concurrent delivery of this event id committed its row first. Nothing of
            -- this call is kept; the client runs it again and gets duplicate_delivery.
            RAISE EXCEPTION 'event % was delivered concurrently', p_provider_event_id
                USING ERRCODE = '40001';
        END IF;
        inbox_id := v_inbox;
    ELSE
        UPDATE public.webhook_inbox w
           SET outcome = v_result, error = v_error, billing_period_id = v_bp, case_id = v_case,
               processed_at = pg_catalog.now(), ingest_token = p_token
         WHERE w.id = v_inbox;
    END IF;
    IF v_case IS NOT NULL THEN
        -- The first payload that opened (or re-occurred in) the case is its evidence.
        UPDATE public.reconciliation_cases c SET inbox_id = v_inbox
         WHERE c.id = v_case AND c.inbox_id IS NULL;
    END IF;
    outcome := v_result;
    billing_period_id := v_bp;
    error_code := v_error;
    case_id := v_case;
    local_state := v_state;
END;
$$;
CREATE FUNCTION public.money_back_totals(p_from date, p_to date) RETURNS TABLE(day date, provider_key text, currency text, movements bigint, refunded_minor numeric, disputed_minor numeric)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT u.day, u.provider_key, u.currency, pg_catalog.sum(u.movements)::bigint,
           pg_catalog.sum(CASE u.kind WHEN 'refund' THEN u.amount_minor
                                      WHEN 'refund_reversal' THEN -u.amount_minor
                                      ELSE 0 END),
           pg_catalog.sum(CASE u.kind WHEN 'chargeback' THEN u.amount_minor
                                      WHEN 'chargeback_reversal' THEN -u.amount_minor
                                      ELSE 0 END)
      FROM (SELECT t.day, t.provider_key, t.currency, t.kind, t.movements, t.amount_minor
              FROM public.money_back_daily_totals t
             WHERE t.day >= p_from AND t.day < p_to
            UNION ALL
            SELECT d.day, d.provider_key, d.currency, d.kind, d.movements, d.amount_minor
              FROM public.money_back_deltas d
             WHERE d.day >= p_from AND d.day < p_to) u
     GROUP BY u.day, u.provider_key, u.currency
$$;
CREATE FUNCTION public.month_close_refusal(p_provider_key text, p_month date) RETURNS text
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    r jsonb := public.month_close_refusal_reason(p_provider_key, p_month);
BEGIN
    RETURN CASE r->>'code'
        WHEN 'not_first_day' THEN
            pg_catalog.format('%s is not the first day of a month', coalesce(r->>'day', 'NULL'))
        WHEN 'provider_not_registered' THEN
            pg_catalog.format('provider %s is not registered', r->>'provider')
        WHEN 'closed_already' THEN
            pg_catalog.format('%s %s was closed already, by %s at %s', r->>'provider',
                              r->>'month', r->>'closedBy', r->>'closedAt')
        WHEN 'not_ended' THEN
            pg_catalog.format('%s has not ended yet (it ends at %s)', r->>'month',
                              r->>'endsAt')
        -- With a run of part of the month, what differs from what was imported (#42, 4): the
        -- days it covers, and the days the close needs.
        WHEN 'no_covering_run' THEN
            CASE WHEN r ? 'latestRun' THEN
                pg_catalog.format('no statement run of %s covers all of %s: run %s covers only '
                                  '%s to %s; closing %s needs one covering %s to %s (import '
                                  'the statement again with those days)', r->>'provider',
                                  r->>'month', r->>'latestRun', r->>'latestFrom',
                                  r->>'latestTo', r->>'month', r->>'from', r->>'to')
            ELSE
                pg_catalog.format('no statement run of %s covers all of %s (%s to %s); import '
                                  'a statement of the whole month first', r->>'provider',
                                  r->>'month', r->>'from', r->>'to')
            END
        WHEN 'not_proven' THEN
            pg_catalog.format('no statement run of %s covering %s is proven complete (run%s '
                              '%s: pages given without their manifest); import the pages '
                              'with the manifest `statement fetch --save` wrote, fetch them, '
                              'or state --pages-complete', r->>'provider', r->>'month',
                              CASE WHEN pg_catalog.jsonb_array_length(r->'runs') = 1 THEN ''
                                   ELSE 's' END,
                              (SELECT pg_catalog.string_agg(x.id, ', ' ORDER BY x.n)
                                 FROM pg_catalog.jsonb_array_elements_text(r->'runs')
                                      WITH ORDINALITY AS x(id, n)))
        WHEN 'open_cases' THEN
            pg_catalog.format('%s %s has %s open statement case%s (case%s %s%s); resolve or '
                              'dismiss them first', r->>'provider', r->>'month', r->>'count',
                              CASE WHEN (r->>'count')::bigint = 1 THEN '' ELSE 's' END,
                              CASE WHEN (r->>'count')::bigint = 1 THEN '' ELSE 's' END,
                              (SELECT pg_catalog.string_agg(x.id, ', ' ORDER BY x.n)
                                 FROM pg_catalog.jsonb_array_elements_text(r->'first')
                                      WITH ORDINALITY AS x(id, n)),
                              CASE WHEN (r->>'count')::bigint > 5 THEN ', ...' ELSE '' END)
    END;
END;
$$;
CREATE FUNCTION public.month_close_refusal_reason(p_provider_key text, p_month date) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    v_month text := pg_catalog.to_char(p_month, 'YYYY-MM');
    v_last date := (p_month + interval '1 month')::date - 1;
    v_end timestamptz := (p_month + interval '1 month')::timestamp AT TIME ZONE 'UTC';
    c public.month_closes%ROWTYPE;
    v_latest public.statement_runs%ROWTYPE;
    v_open bigint;
    v_first jsonb;
BEGIN
    IF p_month IS NULL OR pg_catalog.date_part('day', p_month) <> 1 THEN
        RETURN pg_catalog.jsonb_build_object('code', 'not_first_day', 'day', p_month);
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.billing_providers p
                    WHERE p.provider_key = p_provider_key) THEN
        RETURN pg_catalog.jsonb_build_object('code', 'provider_not_registered',
                                             'provider', p_provider_key);
    END IF;
    SELECT * INTO c FROM public.month_closes mc
     WHERE mc.provider_key = p_provider_key AND mc.month = p_month;
    IF FOUND THEN
        RETURN pg_catalog.jsonb_build_object('code', 'closed_already', 'provider', p_provider_key,
                                             'month', v_month, 'closedBy', c.closed_by,
                                             'closedAt', public.rd_rfc3339(c.closed_at));
    END IF;
    IF pg_catalog.now() < v_end THEN
        RETURN pg_catalog.jsonb_build_object('code', 'not_ended', 'month', v_month,
                                             'endsAt', public.rd_rfc3339(v_end));
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.statement_runs r
                    WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
                      AND r.covers_from <= p_month AND r.covers_to >= v_last) THEN
        SELECT * INTO v_latest FROM public.statement_runs r
         WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
           AND r.covers_from <= v_last AND r.covers_to >= p_month
         ORDER BY r.id DESC LIMIT 1;
        RETURN pg_catalog.jsonb_build_object('code', 'no_covering_run',
                                             'provider', p_provider_key, 'month', v_month,
                                             'from', p_month, 'to', v_last)
            || CASE WHEN v_latest.id IS NULL THEN '{}'::jsonb
                    ELSE pg_catalog.jsonb_build_object('latestRun', v_latest.id,
                             'latestFrom', v_latest.covers_from,
                             'latestTo', v_latest.covers_to) END;
    END IF;
    -- A run whose completeness is unproven looked for no renewal missing from it: it cannot
    -- say that the month's statement and ledger agree.
    IF NOT EXISTS (SELECT 1 FROM public.statement_runs r
                    WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
                      AND r.covers_from <= p_month AND r.covers_to >= v_last
                      AND r.completeness IS DISTINCT FROM 'unproven') THEN
        RETURN pg_catalog.jsonb_build_object('code', 'not_proven', 'provider', p_provider_key,
                   'month', v_month,
                   'runs', (SELECT pg_catalog.jsonb_agg(r.id ORDER BY r.id)
                              FROM public.statement_runs r
                             WHERE r.provider_key = p_provider_key
                               AND r.finished_at IS NOT NULL
                               AND r.covers_from <= p_month AND r.covers_to >= v_last));
    END IF;
    SELECT pg_catalog.count(*),
           coalesce(pg_catalog.jsonb_agg(o.id ORDER BY o.id) FILTER (WHERE o.n <= 5), '[]')
      INTO v_open, v_first
      FROM (SELECT oc.id, pg_catalog.row_number() OVER (ORDER BY oc.id) AS n
              FROM public.rd_month_close_lines(p_provider_key, p_month) l
              JOIN public.reconciliation_cases oc ON oc.id = l.case_id
             WHERE oc.status = 'open'
             GROUP BY oc.id) o;
    IF v_open > 0 THEN
        RETURN pg_catalog.jsonb_build_object('code', 'open_cases', 'provider', p_provider_key,
                                             'month', v_month, 'count', v_open,
                                             'first', v_first);
    END IF;
    RETURN NULL;
END;
$$;
CREATE TABLE public.money_movements (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    provider_key public.rd_key NOT NULL,
    movement_key public.rd_key NOT NULL,
    kind text NOT NULL,
    subscription_id uuid NOT NULL,
    billing_period_id uuid NOT NULL,
    amount_minor public.rd_amount_minor NOT NULL,
    currency public.rd_currency_code NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    provider_event_id public.rd_event_id NOT NULL,
    recorded_by public.rd_recorded_by DEFAULT 'webhook'::text NOT NULL,
    after_close boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT money_movements_amount_minor_check CHECK (((amount_minor)::bigint > 0)),
    CONSTRAINT money_movements_kind_check CHECK ((kind = ANY (ARRAY['refund'::text, 'refund_reversal'::text, 'chargeback'::text, 'chargeback_reversal'::text])))
);
CREATE TABLE public.month_closes (
    id bigint NOT NULL,
    provider_key public.rd_key NOT NULL,
    month date NOT NULL,
    closed_by text DEFAULT SESSION_USER NOT NULL,
    closed_at timestamp with time zone DEFAULT now() NOT NULL,
    statement_run_ids bigint[] NOT NULL,
    statement_sha256s text[] NOT NULL,
    statement_totals jsonb NOT NULL,
    ledger_totals jsonb NOT NULL,
    matched integer NOT NULL,
    backfilled integer NOT NULL,
    unapplied integer NOT NULL,
    differing integer NOT NULL,
    not_in_statement integer NOT NULL,
    cases_resolved integer NOT NULL,
    cases_dismissed integer NOT NULL,
    audit_anchor_digest text NOT NULL,
    audit_anchor_heads bigint NOT NULL,
    money_back_totals jsonb,
    after_close_totals jsonb,
    after_close_movement_ids uuid[],
    CONSTRAINT month_closes_audit_anchor_digest_check CHECK ((audit_anchor_digest ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT month_closes_digests CHECK ((cardinality(statement_sha256s) = cardinality(statement_run_ids))),
    CONSTRAINT month_closes_month_check CHECK ((date_part('day'::text, month) = (1)::double precision)),
    CONSTRAINT month_closes_statement_run_ids_check CHECK ((cardinality(statement_run_ids) > 0))
);
CREATE TABLE public.reconciliation_cases (
    id bigint NOT NULL,
    provider_key text NOT NULL,
    provider_subscription_id text NOT NULL,
    subscription_id uuid,
    provider_renewal_key text NOT NULL,
    first_provider_event_id text NOT NULL,
    last_provider_event_id text NOT NULL,
    error_code text NOT NULL,
    event jsonb NOT NULL,
    event_fingerprint text NOT NULL,
    local_state jsonb NOT NULL,
    status text DEFAULT 'open'::text NOT NULL,
    resolution text,
    first_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    last_seen_at timestamp with time zone DEFAULT now() NOT NULL,
    occurrences integer DEFAULT 1 NOT NULL,
    resolved_at timestamp with time zone,
    resolved_by text,
    resolution_comment text,
    snapshot_id bigint,
    inbox_id bigint,
    billing_period_id uuid,
    renewal_period_start timestamp with time zone,
    assigned_to text,
    assigned_at timestamp with time zone,
    statement_run_id bigint,
    CONSTRAINT reconciliation_case_resolution_consistent CHECK (((status = 'open'::text) = (resolution IS NULL))),
    CONSTRAINT reconciliation_case_resolved_has_renewal CHECK (((status <> 'resolved'::text) OR (billing_period_id IS NOT NULL))),
    CONSTRAINT reconciliation_cases_assignment_consistent CHECK (((assigned_to IS NULL) = (assigned_at IS NULL))),
    CONSTRAINT reconciliation_cases_ids_bounded CHECK (((octet_length(provider_key) <= 255) AND (octet_length(provider_subscription_id) <= 255) AND (octet_length(provider_renewal_key) <= 255) AND (octet_length(first_provider_event_id) <= 255) AND (octet_length(last_provider_event_id) <= 255))),
    CONSTRAINT reconciliation_cases_occurrences_check CHECK ((occurrences > 0)),
    CONSTRAINT reconciliation_cases_resolution_check CHECK ((resolution = ANY (ARRAY['reapplied'::text, 'snapshot_attached'::text, 'already_applied'::text, 'dismissed'::text]))),
    CONSTRAINT reconciliation_cases_status_check CHECK ((status = ANY (ARRAY['open'::text, 'resolved'::text, 'dismissed'::text])))
);
ALTER TABLE ONLY public.reconciliation_cases ALTER COLUMN provider_subscription_id SET STATISTICS 1000;
CREATE TABLE public.statement_lines (
    run_id bigint NOT NULL,
    line_no integer NOT NULL,
    provider_renewal_key public.rd_key NOT NULL,
    finding text NOT NULL,
    object_id text,
    object_sha256 text,
    event jsonb,
    billing_period_id uuid,
    case_id bigint,
    money_back boolean DEFAULT false NOT NULL,
    occurred_at timestamp with time zone,
    money_movement_id uuid,
    CONSTRAINT statement_lines_evidence CHECK ((((finding = 'not_in_statement'::text) = (event IS NULL)) AND ((finding <> ALL (ARRAY['differing'::text, 'not_in_statement'::text, 'unapplied'::text, 'unreadable'::text])) OR (case_id IS NOT NULL)) AND ((finding <> ALL (ARRAY['matched'::text, 'backfilled'::text, 'differing'::text, 'not_in_statement'::text])) OR (billing_period_id IS NOT NULL)))),
    CONSTRAINT statement_lines_finding_check CHECK ((finding = ANY (ARRAY['matched'::text, 'backfilled'::text, 'unapplied'::text, 'differing'::text, 'not_in_statement'::text, 'unreadable'::text]))),
    CONSTRAINT statement_lines_line_no_check CHECK ((line_no > 0)),
    CONSTRAINT statement_lines_money_back_dated CHECK ((money_back = (occurred_at IS NOT NULL))),
    CONSTRAINT statement_lines_object_id_check CHECK ((octet_length(object_id) <= 255)),
    CONSTRAINT statement_lines_object_sha256_check CHECK ((object_sha256 ~ '^[0-9a-f]{64}$'::text))
);
CREATE TABLE public.statement_runs (
    id bigint NOT NULL,
    provider_key public.rd_key NOT NULL,
    covers_from date NOT NULL,
    covers_to date NOT NULL,
    statement_sha256 text NOT NULL,
    files jsonb NOT NULL,
    objects integer NOT NULL,
    imported_by text DEFAULT SESSION_USER NOT NULL,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    begun_in xid8 DEFAULT pg_current_xact_id() NOT NULL,
    finished_at timestamp with time zone,
    renewals integer,
    matched integer,
    backfilled integer,
    unapplied integer,
    differing integer,
    not_in_statement integer,
    open_cases integer,
    statement_totals jsonb,
    ledger_totals jsonb,
    completeness text,
    repeats_run bigint,
    lists_money_back boolean DEFAULT false NOT NULL,
    money_back jsonb,
    CONSTRAINT statement_runs_completeness_check CHECK ((completeness = ANY (ARRAY['fetched'::text, 'manifest'::text, 'stated'::text, 'unproven'::text]))),
    CONSTRAINT statement_runs_files_check CHECK ((jsonb_typeof(files) = 'array'::text)),
    CONSTRAINT statement_runs_finished CHECK (((finished_at IS NULL) = (open_cases IS NULL))),
    CONSTRAINT statement_runs_objects_check CHECK ((objects >= 0)),
    CONSTRAINT statement_runs_range CHECK ((covers_to >= covers_from)),
    CONSTRAINT statement_runs_statement_sha256_check CHECK ((statement_sha256 ~ '^[0-9a-f]{64}$'::text))
);
CREATE FUNCTION public.month_close_report(p_provider_key text, p_month date) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    RETURN (SELECT jsonb_build_object('closeId', c.id, 'providerKey', c.provider_key, 'month', to_char((c.month)::timestamp with time zone, 'YYYY-MM'::text), 'closedBy', c.closed_by, 'closedAt', public.rd_rfc3339(c.closed_at), 'statementRunIds', to_jsonb(c.statement_run_ids), 'statementSha256s', to_jsonb(c.statement_sha256s), 'statementCompleteness', (SELECT jsonb_agg(jsonb_build_object('runId', r.id, 'completeness', r.completeness) ORDER BY r.id) AS jsonb_agg FROM public.statement_runs r WHERE (r.id = ANY (c.statement_run_ids))), 'statementTotals', c.statement_totals, 'ledgerTotals', c.ledger_totals, 'matched', c.matched, 'backfilled', c.backfilled, 'unapplied', c.unapplied, 'differing', c.differing, 'notInStatement', c.not_in_statement, 'casesResolved', c.cases_resolved, 'casesDismissed', c.cases_dismissed, 'auditAnchorDigest', c.audit_anchor_digest, 'auditAnchorHeads', c.audit_anchor_heads, 'moneyBackTotals', c.money_back_totals, 'afterCloseTotals', c.after_close_totals, 'afterClose', CASE WHEN (c.after_close_movement_ids IS NOT NULL) THEN (SELECT COALESCE(jsonb_agg(jsonb_build_object('movementKey', m.movement_key, 'kind', m.kind, 'amountMinor', m.amount_minor, 'currency', m.currency, 'occurredAt', public.rd_rfc3339(m.occurred_at), 'recordedAt', public.rd_rfc3339(m.created_at), 'renewalKey', b.provider_renewal_key, 'subscription', s.provider_subscription_id) ORDER BY m.occurred_at, m.id), '[]'::jsonb) AS "coalesce" FROM ((public.money_movements m JOIN public.subscription_billing_periods b ON ((b.id = m.billing_period_id))) JOIN public.subscriptions s ON ((s.id = m.subscription_id))) WHERE (m.id = ANY (c.after_close_movement_ids))) ELSE NULL::jsonb END, 'findings', COALESCE((SELECT jsonb_agg(jsonb_build_object('runId', l.run_id, 'line', l.line_no, 'renewalKey', l.provider_renewal_key, 'finding', l.finding, 'subscription', COALESCE((l.event ->> 'providerSubscriptionId'::text), (s.provider_subscription_id)::text), 'amountMinor', CASE WHEN l.money_back THEN COALESCE(((((l.event -> 'movements'::text) -> 0) ->> 'amountMinor'::text))::bigint, (mv.amount_minor)::bigint) ELSE COALESCE(((l.event ->> 'paidAmountMinor'::text))::bigint, (b.paid_amount_minor)::bigint) END, 'currency', CASE WHEN l.money_back THEN COALESCE((((l.event -> 'movements'::text) -> 0) ->> 'currency'::text), (mv.currency)::text) ELSE COALESCE((l.event ->> 'currency'::text), (b.currency)::text) END, 'paidAt', CASE WHEN l.money_back THEN public.rd_rfc3339(l.occurred_at) ELSE COALESCE((l.event ->> 'paidAt'::text), public.rd_rfc3339(b.paid_at)) END, 'moneyBack', CASE WHEN l.money_back THEN COALESCE((((l.event -> 'movements'::text) -> 0) ->> 'kind'::text), mv.kind) ELSE NULL::text END, 'caseId', l.case_id, 'caseStatus', k.status, 'caseReason', k.error_code, 'resolution', k.resolution, 'resolvedBy', k.resolved_by, 'resolvedAt', public.rd_rfc3339(k.resolved_at), 'note', k.resolution_comment) ORDER BY l.run_id DESC, l.line_no) AS jsonb_agg FROM (((((public.statement_runs r JOIN public.statement_lines l ON ((l.run_id = r.id))) LEFT JOIN public.subscription_billing_periods b ON ((b.id = l.billing_period_id))) LEFT JOIN public.subscriptions s ON ((s.id = b.subscription_id))) LEFT JOIN public.reconciliation_cases k ON ((k.id = l.case_id))) LEFT JOIN public.money_movements mv ON ((mv.id = l.money_movement_id))) WHERE ((r.id = ANY (c.statement_run_ids)) AND ((r.id = c.statement_run_ids[cardinality(c.statement_run_ids)]) OR (l.case_id IS NOT NULL)) AND ((l.finding = 'unreadable'::text) OR ((CASE WHEN l.money_back THEN l.occurred_at ELSE COALESCE(((l.event ->> 'paidAt'::text))::timestamp with time zone, b.paid_at) END >= ((c.month)::timestamp without time zone AT TIME ZONE 'UTC'::text)) AND (CASE WHEN l.money_back THEN l.occurred_at ELSE COALESCE(((l.event ->> 'paidAt'::text))::timestamp with time zone, b.paid_at) END < ((c.month + '1 mon'::interval) AT TIME ZONE 'UTC'::text)))))), '[]'::jsonb)) AS jsonb_build_object FROM public.month_closes c WHERE (((c.provider_key)::text = month_close_report.p_provider_key) AND (c.month = month_close_report.p_month)));
CREATE FUNCTION public.note_case(p_case_id bigint, p_comment text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    v_note text := public.rd_note_text(p_comment);
BEGIN
    IF v_note IS NULL THEN
        RAISE EXCEPTION 'a note needs text' USING ERRCODE = 'RD004';
    END IF;
    -- The row lock orders the note among the case's other history entries.
    PERFORM 1 FROM public.reconciliation_cases WHERE id = p_case_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'there is no case %', p_case_id USING ERRCODE = 'RD001';
    END IF;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, comment,
                                                    chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'noted', 'noted', v_note, 0, '', '');
    RETURN jsonb_build_object('caseId', p_case_id, 'result', 'noted');
END;
$$;
CREATE FUNCTION public.outbox_claim(p_batch integer, p_max_attempts integer) RETURNS TABLE(id uuid, event_type text, subscription_id uuid, billing_period_id uuid, payload jsonb, attempts integer, created_at timestamp with time zone)
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT o.id, o.event_type, o.subscription_id, o.billing_period_id, o.payload, o.attempts,
           o.created_at
      FROM subscription_outbox o
     WHERE o.published_at IS NULL AND o.next_attempt_at <= now()
       AND (p_max_attempts IS NULL OR o.attempts < p_max_attempts)
     ORDER BY o.next_attempt_at, o.created_at
     LIMIT greatest(p_batch, 1)
       FOR UPDATE SKIP LOCKED;
$$;
CREATE FUNCTION public.outbox_mark_failed(p_id uuid, p_error text, p_base_delay interval, p_max_delay interval) RETURNS timestamp with time zone
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    UPDATE subscription_outbox
       SET attempts = attempts + 1, last_error = left(p_error, 2000),
           next_attempt_at = now() + least(p_max_delay,
                                           p_base_delay * power(2, least(attempts, 30)))
     WHERE id = p_id AND published_at IS NULL
    RETURNING next_attempt_at;
$$;
CREATE FUNCTION public.outbox_mark_published(p_ids uuid[]) RETURNS integer
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    WITH done AS (
        UPDATE subscription_outbox
           SET published_at = now(), attempts = attempts + 1, last_error = NULL
         WHERE id = ANY (p_ids) AND published_at IS NULL
        RETURNING 1)
    SELECT count(*)::integer FROM done;
$$;
CREATE FUNCTION public.overdue_subscription_counts(p_grace interval DEFAULT NULL::interval) RETURNS TABLE(provider_key text, grace interval, overdue bigint)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    SET jit TO 'off'
    AS $$
    WITH RECURSIVE watched(k) AS (
        (SELECT s.provider_key FROM public.subscriptions s
          WHERE s.status = 'active' AND NOT s.cancel_at_period_end
          ORDER BY s.provider_key LIMIT 1)
        UNION ALL
        SELECT (SELECT s.provider_key FROM public.subscriptions s
                 WHERE s.status = 'active' AND NOT s.cancel_at_period_end
                   AND s.provider_key > w.k
                 ORDER BY s.provider_key LIMIT 1)
          FROM watched w
         WHERE w.k IS NOT NULL
    ), keys AS (
        SELECT w.k FROM watched w WHERE w.k IS NOT NULL
        UNION
        SELECT bp.provider_key FROM public.billing_providers bp
    )
    SELECT keys.k, g.grace,
           (SELECT pg_catalog.count(*) FROM public.subscriptions s
             WHERE s.status = 'active' AND NOT s.cancel_at_period_end
               AND s.provider_key = keys.k
               AND s.current_period_end < pg_catalog.now() - g.grace)
      FROM keys
      LEFT JOIN public.billing_providers bp ON bp.provider_key = keys.k
     CROSS JOIN LATERAL (SELECT COALESCE(p_grace, bp.overdue_grace, interval '24 hours')
                                AS grace) g
     ORDER BY keys.k;
$$;
CREATE FUNCTION public.overdue_subscriptions(p_grace interval DEFAULT NULL::interval, p_provider_key text DEFAULT NULL::text, p_after_provider_key text DEFAULT NULL::text, p_after_period_end timestamp with time zone DEFAULT NULL::timestamp with time zone, p_after_subscription_id text DEFAULT NULL::text, p_limit integer DEFAULT 500) RETURNS TABLE(provider_key text, provider_subscription_id text, subscription_id uuid, current_period_end timestamp with time zone, overdue_for interval, grace interval)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    SET jit TO 'off'
    AS $$
    SELECT s.provider_key, s.provider_subscription_id, s.id, s.current_period_end,
           pg_catalog.now() - s.current_period_end,
           COALESCE(p_grace, bp.overdue_grace, interval '24 hours')
      FROM public.subscriptions s
      LEFT JOIN public.billing_providers bp ON bp.provider_key = s.provider_key
     WHERE s.status = 'active' AND NOT s.cancel_at_period_end
       AND s.current_period_end
           < pg_catalog.now() - COALESCE(p_grace, bp.overdue_grace, interval '24 hours')
       AND (p_provider_key IS NULL OR s.provider_key = p_provider_key)
       AND (p_after_provider_key IS NULL
            OR (s.provider_key, s.current_period_end, s.provider_subscription_id)
               > (p_after_provider_key, p_after_period_end, p_after_subscription_id))
     ORDER BY s.provider_key, s.current_period_end, s.provider_subscription_id
     LIMIT p_limit;
$$;
CREATE FUNCTION public.preview_provider_snapshot(p_snapshot jsonb, p_case_id bigint) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    outcome text;
    state text;
    message text;
BEGIN
    BEGIN
        -- A preview's rows take no number users cite (rd_new_id, #42, 12); the setting goes
        -- with the subtransaction.
        PERFORM pg_catalog.set_config('renewal_desk.preview', 'on', true);
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
CREATE FUNCTION public.purge_inbox_bodies(p_older_than_days integer DEFAULT NULL::integer, p_dry_run boolean DEFAULT false, p_run uuid DEFAULT NULL::uuid, p_after_received_at timestamp with time zone DEFAULT NULL::timestamp with time zone, p_after_id bigint DEFAULT NULL::bigint, p_batch integer DEFAULT 5000) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
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
CREATE FUNCTION public.rd_access_candidates(p_now timestamp with time zone, p_after uuid, p_limit integer) RETURNS TABLE(subscription_id uuid)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    SET jit TO 'off'
    AS $$
BEGIN
    -- PL/pgSQL, not SQL: a SQL function with SET clauses is never inlined and is planned
    -- without p_now and p_after, so each batch walked the whole primary key (1 M entries);
    -- RETURN QUERY plans it with the values (docs/benchmarks.md, "Payment trouble and access").
    RETURN QUERY
    SELECT c.id FROM (
        SELECT v.subscription_id AS id FROM public.access_verdicts v
         WHERE v.verdict IN ('in_grace', 'blocked')
           AND v.subscription_id > coalesce(p_after, '00000000-0000-0000-0000-000000000000')
        UNION
        SELECT s.id FROM public.subscriptions s
         WHERE s.current_period_end <= p_now
           AND s.id > coalesce(p_after, '00000000-0000-0000-0000-000000000000')
           AND NOT EXISTS (SELECT 1 FROM public.access_verdicts v
                            WHERE v.subscription_id = s.id AND v.verdict = 'ended')
        UNION
        SELECT s.id FROM public.subscriptions s
         WHERE s.status = 'canceled'
           AND s.id > coalesce(p_after, '00000000-0000-0000-0000-000000000000')
           AND NOT EXISTS (SELECT 1 FROM public.access_verdicts v
                            WHERE v.subscription_id = s.id AND v.verdict = 'ended')
    ) c ORDER BY c.id LIMIT p_limit;
END;
$$;
CREATE FUNCTION public.rd_access_settle(p_subscription_id uuid, p_now timestamp with time zone, p_actor_type text, p_actor_id text) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    v record;
    cur public.access_verdicts%ROWTYPE;
    s public.subscriptions%ROWTYPE;
    v_transition bigint;
    v_seq integer;
    v_previous text;
BEGIN
    v := public.rd_access_verdict(p_subscription_id, p_now);
    IF v.verdict IS NULL THEN
        RETURN false;
    END IF;
    SELECT * INTO cur FROM public.access_verdicts x WHERE x.subscription_id = p_subscription_id;
    IF FOUND THEN
        IF v.verdict = cur.verdict AND v.source = cur.source
           AND v.until IS NOT DISTINCT FROM cur.until THEN
            RETURN false;
        END IF;
        v_seq := cur.seq + 1;
        v_previous := cur.verdict;
    ELSE
        IF v.verdict = 'good_standing' THEN
            RETURN false;
        END IF;
        v_seq := 1;
        v_previous := 'good_standing';
    END IF;
    SELECT * INTO s FROM public.subscriptions x WHERE x.id = p_subscription_id;
    INSERT INTO public.access_transitions AS t
        (subscription_id, seq, verdict, previous_verdict, since, until, source, reason,
         evaluated_at, recorded_by)
    VALUES (p_subscription_id, v_seq, v.verdict, v_previous, v.since, v.until, v.source,
            v.reason, p_now, p_actor_type)
    RETURNING t.id INTO v_transition;
    INSERT INTO public.access_verdicts AS a
        (subscription_id, verdict, since, until, source, reason, seq, transition_id, changed_at)
    VALUES (p_subscription_id, v.verdict, v.since, v.until, v.source, v.reason, v_seq,
            v_transition, pg_catalog.now())
    ON CONFLICT (subscription_id) DO UPDATE
       SET verdict = EXCLUDED.verdict, since = EXCLUDED.since, until = EXCLUDED.until,
           source = EXCLUDED.source, reason = EXCLUDED.reason, seq = EXCLUDED.seq,
           transition_id = EXCLUDED.transition_id, changed_at = EXCLUDED.changed_at;
    INSERT INTO public.subscription_transition_audits
        (subscription_id, transition, actor_type, actor_id, reason, details)
    VALUES (p_subscription_id, 'access_changed', p_actor_type, p_actor_id, v.reason,
            pg_catalog.jsonb_build_object('accessTransitionId', v_transition,
                'verdict', v.verdict, 'previousVerdict', v_previous, 'seq', v_seq,
                'since', public.rd_rfc3339(v.since), 'until', public.rd_rfc3339(v.until),
                'source', v.source, 'evaluatedAt', public.rd_rfc3339(p_now)));
    INSERT INTO public.subscription_outbox (event_type, subscription_id, payload)
    VALUES ('access.changed', p_subscription_id, pg_catalog.jsonb_build_object(
                'type', 'access.changed', 'accessTransitionId', v_transition,
                'subscriptionId', p_subscription_id, 'providerKey', s.provider_key,
                'providerSubscriptionId', s.provider_subscription_id,
                'verdict', v.verdict, 'previousVerdict', v_previous,
                'since', public.rd_rfc3339(v.since), 'until', public.rd_rfc3339(v.until),
                'source', v.source, 'reason', v.reason));
    RETURN true;
END;
$$;
CREATE FUNCTION public.rd_after_reanchor(p_subscription_id uuid, p_snapshot_id bigint) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    r record;
    tried_after bigint := 0;
BEGIN
    LOOP
        SELECT oc.* INTO c FROM public.reconciliation_cases oc
          JOIN public.subscriptions s ON s.id = oc.subscription_id
         WHERE s.id = p_subscription_id AND oc.status = 'open'
           AND oc.error_code = 'renewal_period_is_not_contiguous'
           AND oc.renewal_period_start = s.current_period_end AND oc.id > tried_after
         ORDER BY oc.id LIMIT 1
           FOR UPDATE OF oc;
        EXIT WHEN NOT FOUND;
        SELECT * INTO r FROM public.rd_apply_case_event(c.event, 'system', 'auto-reapply');
        PERFORM public.rd_settle_waiting_case(c.id, r.result, r.billing_period_id,
                                              r.error_code, r.local_state,
                                              'snapshot ' || p_snapshot_id);
        EXIT WHEN r.result = 'applied';
        tried_after := c.id;
    END LOOP;
    RETURN 0;
END;
$$;
CREATE FUNCTION public.rd_apply_case_event(e jsonb, p_actor_type text, p_actor_id text, OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb) RETURNS record
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    SELECT a.result, a.billing_period_id, a.error_code, a.local_state
      INTO result, billing_period_id, error_code, local_state
      FROM public.apply_successful_renewal(
        e->>'providerKey', e->>'providerEventId', e->>'providerSubscriptionId',
        e->>'providerRenewalKey', e->>'providerVersion',
        (e->'period'->>'start')::timestamptz, (e->'period'->>'end')::timestamptz,
        (e->>'paidAmountMinor')::bigint, e->>'currency', (e->>'paidAt')::timestamptz,
        p_actor_type, p_actor_id) a;
    IF result = 'applied' THEN
        PERFORM public.rd_heal_money_back(e->>'providerKey', billing_period_id, e);
    END IF;
END;
$$;
CREATE FUNCTION public.rd_audit_anchor_digest(OUT digest text, OUT heads bigint) RETURNS record
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(coalesce(
               pg_catalog.string_agg(h.chain || ':' || h.chain_id || ':' || h.chain_seq::text
                                     || ':' || h.row_hash || E'\n', '' ORDER BY h.chain,
                                     h.chain_id), ''), 'UTF8')), 'hex'),
           pg_catalog.count(*)
      FROM (SELECT * FROM public.audit_chain_heads()
            UNION ALL SELECT * FROM public.audit_case_history_heads()) h;
$$;
CREATE TABLE public.subscription_transition_audits (
    id bigint NOT NULL,
    subscription_id uuid NOT NULL,
    transition public.rd_audit_transition NOT NULL,
    billing_period_id uuid,
    actor_type public.rd_actor_type NOT NULL,
    actor_id text NOT NULL,
    db_role text DEFAULT SESSION_USER NOT NULL,
    provider_event_id text,
    provider_renewal_key text,
    period_start timestamp with time zone,
    period_end timestamp with time zone,
    reason text,
    comment text,
    details jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    chain_seq bigint NOT NULL,
    prev_hash text NOT NULL,
    row_hash text NOT NULL,
    provider_key text NOT NULL,
    CONSTRAINT audit_renewal_has_period CHECK ((((transition)::text <> 'subscription_renewed'::text) OR (billing_period_id IS NOT NULL)))
);
CREATE FUNCTION public.rd_audit_canonical(a public.subscription_transition_audits) RETURNS text
    LANGUAGE sql STABLE
    RETURN (jsonb_build_object('subscriptionId', (a).subscription_id, 'transition', (a).transition, 'billingPeriodId', (a).billing_period_id, 'actorType', (a).actor_type, 'actorId', (a).actor_id, 'dbRole', (a).db_role, 'providerEventId', (a).provider_event_id, 'providerRenewalKey', (a).provider_renewal_key, 'periodStart', public.rd_rfc3339((a).period_start), 'periodEnd', public.rd_rfc3339((a).period_end), 'reason', (a).reason, 'comment', (a).comment, 'details', (a).details, 'createdAt', public.rd_rfc3339((a).created_at), 'chainSeq', (a).chain_seq, 'prevHash', (a).prev_hash))::text;
CREATE FUNCTION public.rd_period_json(period_start timestamp with time zone, period_end timestamp with time zone) RETURNS jsonb
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN CASE WHEN (period_start IS NULL) THEN 'null'::jsonb ELSE jsonb_build_object('start', public.rd_rfc3339(period_start), 'end', public.rd_rfc3339(period_end)) END;
CREATE FUNCTION public.rd_billing_period_json(bp public.subscription_billing_periods) RETURNS jsonb
    LANGUAGE sql STABLE
    RETURN jsonb_build_object('id', (bp).id, 'subscriptionId', (bp).subscription_id, 'providerKey', (bp).provider_key, 'providerRenewalKey', (bp).provider_renewal_key, 'providerEventId', (bp).provider_event_id, 'period', public.rd_period_json((bp).period_start, (bp).period_end), 'paidAmountMinor', (bp).paid_amount_minor, 'currency', (bp).currency, 'paidAt', public.rd_rfc3339((bp).paid_at), 'recordedBy', (bp).recorded_by);
CREATE FUNCTION public.rd_billing_period_to_delta() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    INSERT INTO public.renewal_total_deltas (day, period_start_day, provider_key, currency,
                                             recorded_by, renewals, amount_minor)
    VALUES ((NEW.paid_at AT TIME ZONE 'UTC')::date, (NEW.period_start AT TIME ZONE 'UTC')::date,
            NEW.provider_key, NEW.currency, NEW.recorded_by, 1, NEW.paid_amount_minor);
    RETURN NULL;
END;
$$;
CREATE FUNCTION public.rd_billing_periods_insert_only() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    RAISE EXCEPTION 'billing periods are insert-only (% refused)', TG_OP
        USING ERRCODE = 'RD004';
END;
$$;
CREATE TABLE public.reconciliation_case_history (
    id bigint NOT NULL,
    case_id bigint NOT NULL,
    action text NOT NULL,
    outcome text NOT NULL,
    error_code text,
    actor text DEFAULT SESSION_USER NOT NULL,
    reason text,
    comment text,
    details jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    chain_seq bigint NOT NULL,
    prev_hash text NOT NULL,
    row_hash text NOT NULL,
    provider_key text NOT NULL,
    CONSTRAINT reconciliation_case_history_action_check CHECK ((action = ANY (ARRAY['opened'::text, 'occurrence'::text, 'reapply'::text, 'snapshot_attached'::text, 'dismissed'::text, 'reopened'::text, 'claimed'::text, 'released'::text, 'noted'::text])))
);
CREATE FUNCTION public.rd_case_history_canonical(h public.reconciliation_case_history) RETURNS text
    LANGUAGE sql STABLE
    RETURN (jsonb_build_object('caseId', (h).case_id, 'action', (h).action, 'outcome', (h).outcome, 'errorCode', (h).error_code, 'actor', (h).actor, 'reason', (h).reason, 'comment', (h).comment, 'details', (h).details, 'createdAt', public.rd_rfc3339((h).created_at), 'chainSeq', (h).chain_seq, 'prevHash', (h).prev_hash))::text;
CREATE FUNCTION public.rd_renewal_verdict(s public.subscriptions, p_provider_key text, p_provider_renewal_key text, p_period_start timestamp with time zone, p_period_end timestamp with time zone, p_paid_amount_minor bigint, p_currency text, OUT verdict text, OUT existing_id uuid, OUT conflicting jsonb) RETURNS record
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
CREATE FUNCTION public.rd_case_is_applicable(c public.reconciliation_cases) RETURNS boolean
    LANGUAGE sql STABLE
    RETURN (((c).status = 'open'::text) AND (jsonb_typeof(((c).event -> 'period'::text)) = 'object'::text) AND COALESCE((SELECT ((v.verdict = 'applicable'::text) AND (NOT (EXISTS (SELECT 1 FROM public.subscription_billing_periods b WHERE ((b.subscription_id = s.id) AND (b.period_start = ((((rd_case_is_applicable.c).event -> 'period'::text) ->> 'start'::text))::timestamp with time zone) AND (b.period_end = ((((rd_case_is_applicable.c).event -> 'period'::text) ->> 'end'::text))::timestamp with time zone)))))) FROM public.subscriptions s, LATERAL public.rd_renewal_verdict(s.*, (rd_case_is_applicable.c).provider_key, (rd_case_is_applicable.c).provider_renewal_key, ((((rd_case_is_applicable.c).event -> 'period'::text) ->> 'start'::text))::timestamp with time zone, ((((rd_case_is_applicable.c).event -> 'period'::text) ->> 'end'::text))::timestamp with time zone, (((rd_case_is_applicable.c).event ->> 'paidAmountMinor'::text))::bigint, ((rd_case_is_applicable.c).event ->> 'currency'::text)) v(verdict, existing_id, conflicting) WHERE (((s.provider_key)::text = (rd_case_is_applicable.c).provider_key) AND ((s.provider_subscription_id)::text = (rd_case_is_applicable.c).provider_subscription_id))), false));
CREATE FUNCTION public.rd_case_reopen_refusal(c public.reconciliation_cases) RETURNS text
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT CASE
        WHEN c.status = 'open' THEN
            pg_catalog.format('case %s is open: there is nothing to reopen', c.id)
        WHEN c.status = 'resolved' THEN
            pg_catalog.format('case %s was resolved (%s)%s: its renewal is recorded, and only a dismissed case can be reopened',
                c.id, c.resolution, coalesce(' by ' || c.resolved_by, ''))
        -- A closed month stays as it was closed: its close counted this case as dismissed.
        WHEN m.month IS NOT NULL THEN
            pg_catalog.format('case %s''s renewal was paid in %s, a month of %s closed by %s: a closed month''s cases stay as they were closed; add a note instead',
                c.id, pg_catalog.to_char(m.month, 'YYYY-MM'), c.provider_key, m.closed_by)
        -- Recorded after the case opened: nothing is left to reconcile. A payload conflict's
        -- case opened against the period already recorded (local_state names it), which is
        -- therefore no reason to refuse; the renewal key has only that one period.
        WHEN b.id IS NOT NULL THEN
            pg_catalog.format('case %s''s renewal %s has been recorded since it was %s (billing period %s, recorded %s): there is nothing left to reconcile',
                c.id, c.provider_renewal_key,
                CASE WHEN b.created_at >= c.resolved_at THEN 'dismissed' ELSE 'opened' END,
                b.id, public.rd_rfc3339(b.created_at))
        WHEN o.id IS NOT NULL THEN
            pg_catalog.format('case %s is open for the same renewal (%s): work that case instead of reopening case %s',
                o.id, c.provider_renewal_key, c.id)
    END
      FROM (SELECT 1) one
      LEFT JOIN public.month_closes m
        ON m.provider_key = c.provider_key
       AND m.month = pg_catalog.date_trunc('month',
               (c.event->>'paidAt')::timestamptz AT TIME ZONE 'UTC')::date
      LEFT JOIN public.subscription_billing_periods b
        ON b.provider_key = c.provider_key AND b.provider_renewal_key = c.provider_renewal_key
       AND b.id IS DISTINCT FROM (c.local_state->'conflictingBillingPeriod'->>'id')::uuid
      LEFT JOIN LATERAL (
            SELECT x.id FROM public.reconciliation_cases x
             WHERE x.status = 'open' AND x.provider_key = c.provider_key
               AND x.provider_renewal_key = c.provider_renewal_key AND x.id <> c.id
             ORDER BY x.id LIMIT 1) o ON true
$$;
CREATE FUNCTION public.rd_case_step_recorded_by(p_case public.reconciliation_cases, p_step public.reconciliation_case_history) RETURNS text
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT CASE
        WHEN p_step.action NOT IN ('opened', 'occurrence') THEN p_step.details->>'recordedBy'
        WHEN p_step.details ? 'recordedBy' THEN p_step.details->>'recordedBy'
        WHEN p_step.details ? 'statementRunId' THEN 'statement'
        WHEN EXISTS (SELECT 1 FROM public.statement_runs r
                      WHERE r.id = p_case.statement_run_id
                        AND r.started_at = p_step.created_at) THEN 'statement'
        ELSE 'webhook' END
$$;
CREATE FUNCTION public.rd_chain_link() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    IF TG_RELID OPERATOR(pg_catalog.=) 'public.subscription_transition_audits'::pg_catalog.regclass THEN
        SELECT a.chain_seq OPERATOR(pg_catalog.+) 1, a.row_hash, a.provider_key
          INTO NEW.chain_seq, NEW.prev_hash, NEW.provider_key
          FROM public.subscription_transition_audits a
         WHERE a.subscription_id OPERATOR(pg_catalog.=) NEW.subscription_id
         ORDER BY a.chain_seq DESC LIMIT 1;
        IF NOT FOUND THEN
            NEW.chain_seq := 1;
            NEW.prev_hash := '';
            SELECT s.provider_key INTO NEW.provider_key
              FROM public.subscriptions s WHERE s.id OPERATOR(pg_catalog.=) NEW.subscription_id;
        END IF;
        NEW.row_hash := public.rd_sha256_hex(public.rd_audit_canonical(NEW));
    ELSE
        SELECT h.chain_seq OPERATOR(pg_catalog.+) 1, h.row_hash, h.provider_key
          INTO NEW.chain_seq, NEW.prev_hash, NEW.provider_key
          FROM public.reconciliation_case_history h
         WHERE h.case_id OPERATOR(pg_catalog.=) NEW.case_id
         ORDER BY h.chain_seq DESC LIMIT 1;
        IF NOT FOUND THEN
            NEW.chain_seq := 1;
            NEW.prev_hash := '';
            SELECT c.provider_key INTO NEW.provider_key
              FROM public.reconciliation_cases c WHERE c.id OPERATOR(pg_catalog.=) NEW.case_id;
        END IF;
        NEW.row_hash := public.rd_sha256_hex(public.rd_case_history_canonical(NEW));
    END IF;
    RETURN NEW;
END;
$$;
CREATE TABLE public.customer_email_key (
    only_row boolean DEFAULT true NOT NULL,
    inner_pad bytea NOT NULL,
    outer_pad bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT customer_email_key_inner_pad_check CHECK ((octet_length(inner_pad) = 64)),
    CONSTRAINT customer_email_key_only_row_check CHECK (only_row),
    CONSTRAINT customer_email_key_outer_pad_check CHECK ((octet_length(outer_pad) = 64))
);
CREATE FUNCTION public.rd_customer_email_hmac(p_email text) RETURNS text
    LANGUAGE sql STABLE STRICT SECURITY DEFINER PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    RETURN (SELECT encode(sha256((k.outer_pad || sha256((k.inner_pad || convert_to(a.v, 'UTF8'::name))))), 'hex'::text) AS encode FROM public.customer_email_key k, (SELECT translate(btrim(rd_customer_email_hmac.p_email, ' 	
'::text), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'::text, 'abcdefghijklmnopqrstuvwxyz'::text) AS v) a WHERE ((octet_length(a.v) <= 254) AND (a.v ~ '^[^\x01-\x20\x7f]+@[^@\x01-\x20\x7f]+$'::text)));
CREATE FUNCTION public.rd_heal_money_back(p_provider_key text, p_billing_period_id uuid, p_event jsonb) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    v_refs text[];
    c public.reconciliation_cases%ROWTYPE;
    r record;
BEGIN
    v_refs := ARRAY(SELECT pg_catalog.jsonb_array_elements_text(
                               coalesce(p_event->'paymentRefs', '[]'::jsonb)));
    IF pg_catalog.cardinality(v_refs) > 0 THEN
        INSERT INTO public.billing_period_payment_refs (provider_key, payment_ref,
                                                        billing_period_id)
        SELECT p_provider_key, u.ref, p_billing_period_id
          FROM (SELECT DISTINCT x.ref FROM pg_catalog.unnest(v_refs) AS x(ref)) u
        ON CONFLICT DO NOTHING;
    END IF;
    v_refs := v_refs || (p_event->>'providerRenewalKey');
    PERFORM public.rd_lock_payment_refs(p_provider_key, v_refs);
    FOR c IN SELECT * FROM public.reconciliation_cases k
              WHERE k.status = 'open' AND k.error_code = 'refund_without_renewal'
                AND k.provider_key = p_provider_key
                AND EXISTS (SELECT 1
                              FROM pg_catalog.jsonb_array_elements(k.event->'movements') mv,
                                   pg_catalog.jsonb_array_elements_text(mv->'renewalRefs') rf
                             WHERE rf = ANY (v_refs))
              ORDER BY k.id FOR UPDATE LOOP
        BEGIN
            SELECT * INTO r FROM public.record_money_movements(c.event, 'system', 'money-back');
            IF r.result = 'rejected' AND r.case_id IS DISTINCT FROM c.id THEN
                -- Refused now for another reason (more back than was paid, a conflict): that
                -- opened a second case about the same movement. It is undone; this case says
                -- the new reason (rd_keep_case_open), one case a movement. RX001 is this
                -- block's own signal, caught below: no refusal the programs see (class RD).
                RAISE EXCEPTION 'refused for another reason' USING ERRCODE = 'RX001';
            END IF;
        EXCEPTION WHEN SQLSTATE 'RX001' THEN
            PERFORM public.rd_keep_case_open(c.id, r.error_code, r.local_state);
            -- It waited under 'unknown': its renewal, and so its subscription, is known now.
            UPDATE public.reconciliation_cases k
               SET subscription_id = s.id, provider_subscription_id = s.provider_subscription_id
              FROM public.subscription_billing_periods b
              JOIN public.subscriptions s ON s.id = b.subscription_id
             WHERE k.id = c.id AND k.subscription_id IS NULL AND b.id = p_billing_period_id;
        END;
        IF r.result IN ('recorded', 'duplicate') THEN
            UPDATE public.reconciliation_cases
               SET status = 'resolved',
                   resolution = CASE r.result WHEN 'recorded' THEN 'reapplied'
                                              ELSE 'already_applied' END,
                   resolved_at = pg_catalog.now(), resolved_by = 'system',
                   resolution_comment = 'recorded automatically after renewal '
                       || (p_event->>'providerRenewalKey') || ' arrived',
                   billing_period_id = r.billing_period_id
             WHERE id = c.id;
        END IF;
        INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code,
            actor, comment, details, chain_seq, prev_hash, row_hash)
        VALUES (c.id, 'reapply', CASE r.result WHEN 'recorded' THEN 'applied'
                                                WHEN 'duplicate' THEN 'duplicate'
                                                ELSE 'rejected' END,
                r.error_code, 'system',
                CASE WHEN r.result IN ('recorded', 'duplicate')
                     THEN 'recorded automatically after renewal '
                     ELSE 'tried automatically after renewal ' END
                    || (p_event->>'providerRenewalKey') || ' arrived',
                pg_catalog.jsonb_build_object('automatic', true,
                    'unblockedBy', p_event->>'providerEventId',
                    'billingPeriodId', r.billing_period_id, 'localState', r.local_state),
                0, '', '');
    END LOOP;
END;
$$;
CREATE FUNCTION public.rd_keep_case_open(p_case_id bigint, p_error_code text, p_local_state jsonb) RETURNS void
    LANGUAGE sql
    BEGIN ATOMIC
 UPDATE public.reconciliation_cases c SET local_state = rd_keep_case_open.p_local_state, error_code =
         CASE
             WHEN ((rd_keep_case_open.p_error_code IS NULL) OR (EXISTS ( SELECT 1
                FROM public.reconciliation_cases o
               WHERE ((o.status = 'open'::text) AND (o.id <> c.id) AND (o.provider_key = c.provider_key) AND (o.provider_renewal_key = c.provider_renewal_key) AND (o.event_fingerprint = c.event_fingerprint) AND (o.error_code = rd_keep_case_open.p_error_code))))) THEN c.error_code
             ELSE rd_keep_case_open.p_error_code
         END
   WHERE (c.id = rd_keep_case_open.p_case_id);
END;
CREATE FUNCTION public.rd_ledger_totals(p_provider_key text, p_lo timestamp with time zone, p_hi timestamp with time zone) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    RETURN COALESCE((SELECT jsonb_object_agg(t.currency, jsonb_build_object('renewals', t.n, 'amountMinor', t.amount)) AS jsonb_object_agg FROM (SELECT (b.currency)::text AS currency, count(*) AS n, sum((b.paid_amount_minor)::numeric) AS amount FROM public.subscription_billing_periods b WHERE ((b.provider_key = rd_ledger_totals.p_provider_key) AND (b.paid_at >= rd_ledger_totals.p_lo) AND (b.paid_at < rd_ledger_totals.p_hi)) GROUP BY (b.currency)::text) t), '{}'::jsonb);
CREATE FUNCTION public.rd_lock_open_case(p_case_id bigint) RETURNS public.reconciliation_cases
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    v_text text;
BEGIN
    SELECT * INTO c FROM public.reconciliation_cases WHERE id = p_case_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'there is no case %', p_case_id USING ERRCODE = 'RD001';
    END IF;
    IF c.status <> 'open' THEN
        -- Built first: RAISE's format has no way to put two placeholders side by side.
        v_text := pg_catalog.format('case %s was already %s', p_case_id, c.status)
            || CASE WHEN c.resolution IS DISTINCT FROM c.status
                    THEN ' (' || c.resolution || ')' ELSE '' END
            || coalesce(' by ' || c.resolved_by, '')
            || coalesce(' at ' || public.rd_rfc3339(c.resolved_at), '')
            || CASE WHEN c.status = 'dismissed'
                    THEN '; reopen it (with a note saying why) to work it again' ELSE '' END;
        RAISE EXCEPTION '%', v_text
            USING ERRCODE = 'RD002';
    END IF;
    RETURN c;
END;
$$;
CREATE FUNCTION public.rd_lock_payment_refs(p_provider_key text, p_refs text[]) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    v_names text[];
BEGIN
    v_names := ARRAY(
        SELECT DISTINCT 'money-back/' || p_provider_key || '/'
               || (pg_catalog.hashtextextended(u.ref, 0) & 1023)::text AS name
          FROM pg_catalog.unnest(p_refs) AS u(ref)
         WHERE u.ref IS NOT NULL
         ORDER BY 1);
    INSERT INTO public.rd_work_locks AS l (name)
    SELECT n FROM pg_catalog.unnest(v_names) AS n ORDER BY n
    ON CONFLICT (name) DO NOTHING;
    PERFORM 1 FROM public.rd_work_locks l WHERE l.name = ANY (v_names) ORDER BY l.name
        FOR UPDATE;
END;
$$;
CREATE FUNCTION public.rd_lock_provider_statements(p_provider_key text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.billing_providers p
                    WHERE p.provider_key = p_provider_key) THEN
        RAISE EXCEPTION 'provider % is not registered', p_provider_key USING ERRCODE = 'RD013';
    END IF;
    PERFORM public.rd_take_work_lock('statements ' OPERATOR(pg_catalog.||) p_provider_key,
        'another statement import or month close of ' OPERATOR(pg_catalog.||) p_provider_key);
END;
$$;
CREATE FUNCTION public.rd_money_back_by_currency(p_ids uuid[]) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    RETURN COALESCE((SELECT jsonb_object_agg(t.currency, jsonb_build_object('movements', t.n, 'refundedMinor', t.refunded, 'disputedMinor', t.disputed)) AS jsonb_object_agg FROM (SELECT (m.currency)::text AS currency, count(*) AS n, sum(CASE m.kind WHEN 'refund'::text THEN (m.amount_minor)::numeric WHEN 'refund_reversal'::text THEN (- (m.amount_minor)::numeric) ELSE (0)::numeric END) AS refunded, sum(CASE m.kind WHEN 'chargeback'::text THEN (m.amount_minor)::numeric WHEN 'chargeback_reversal'::text THEN (- (m.amount_minor)::numeric) ELSE (0)::numeric END) AS disputed FROM public.money_movements m WHERE (m.id = ANY (rd_money_back_by_currency.p_ids)) GROUP BY (m.currency)::text) t), '{}'::jsonb);
CREATE FUNCTION public.rd_money_movement_case(p_event jsonb, p_movement_key text, p_error_code text, p_local_state jsonb, s public.subscriptions) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    v_case bigint;
    v_inserted boolean;
BEGIN
    -- Numbered by rd_new_id: none of the numbers users cite for a preview (#42, 12).
    INSERT INTO public.reconciliation_cases AS c
        (id, provider_key, provider_subscription_id, subscription_id, provider_renewal_key,
         first_provider_event_id, last_provider_event_id, error_code, event, event_fingerprint,
         local_state)
    OVERRIDING SYSTEM VALUE
    VALUES (public.rd_new_id('public.reconciliation_cases_id_seq'), p_event->>'providerKey',
            coalesce(s.provider_subscription_id, p_event->>'providerSubscriptionId', 'unknown'),
            s.id, p_movement_key, p_event->>'providerEventId', p_event->>'providerEventId',
            p_error_code, p_event, pg_catalog.md5((p_event->'movements')::text), p_local_state)
    ON CONFLICT (provider_key, provider_renewal_key, event_fingerprint, error_code)
        WHERE status = 'open'
    DO UPDATE SET occurrences = c.occurrences + 1, last_seen_at = pg_catalog.now(),
                  last_provider_event_id = excluded.last_provider_event_id,
                  local_state = excluded.local_state
    RETURNING c.id, (c.xmax = 0) INTO v_case, v_inserted;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code,
                                                   details, chain_seq, prev_hash, row_hash)
    VALUES (v_case, CASE WHEN v_inserted THEN 'opened' ELSE 'occurrence' END, 'open',
            p_error_code,
            pg_catalog.jsonb_build_object('providerEventId', p_event->>'providerEventId',
                                          'localState', p_local_state),
            0, '', '');
    RETURN v_case;
END;
$$;
CREATE FUNCTION public.rd_month_close_lines(p_provider_key text, p_month date) RETURNS TABLE(run_id bigint, finding text, event jsonb, case_id bigint)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT l.run_id, l.finding, l.event, l.case_id
      FROM public.statement_runs r
      JOIN public.statement_lines l ON l.run_id = r.id
      LEFT JOIN public.subscription_billing_periods b ON b.id = l.billing_period_id
     WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
       AND r.covers_from <= p_month
       AND r.covers_to >= (p_month + interval '1 month')::date - 1
       AND (l.finding = 'unreadable'
            OR (CASE WHEN l.money_back THEN l.occurred_at
                     ELSE coalesce((l.event->>'paidAt')::timestamptz, b.paid_at) END
                    >= p_month::timestamp AT TIME ZONE 'UTC'
                AND CASE WHEN l.money_back THEN l.occurred_at
                         ELSE coalesce((l.event->>'paidAt')::timestamptz, b.paid_at) END
                    < (p_month + interval '1 month')::timestamp AT TIME ZONE 'UTC'));
$$;
CREATE FUNCTION public.rd_new_id(p_sequence regclass) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    IF pg_catalog.current_setting('renewal_desk.preview', true) = 'on' THEN
        RETURN -pg_catalog.nextval('public.rd_preview_ids');
    END IF;
    RETURN pg_catalog.nextval(p_sequence);
END;
$$;
CREATE FUNCTION public.rd_note_text(p_text text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN NULLIF(regexp_replace(p_text, '^[\u0001-\u0020\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]+|[\u0001-\u0020\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]+$'::text, ''::text, 'g'::text), ''::text);
CREATE FUNCTION public.rd_notify_case_changed() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    PERFORM pg_notify('renewal_desk_cases', NEW.id::text);
    -- The subscription's open-case count changed too.
    IF NEW.subscription_id IS NOT NULL THEN
        PERFORM pg_notify('renewal_desk_changes', NEW.subscription_id::text);
    END IF;
    RETURN NULL;
END;
$$;
CREATE FUNCTION public.rd_notify_subscriptions_changed() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    PERFORM pg_notify('renewal_desk_changes', '*');
    RETURN NULL;
END;
$$;
CREATE FUNCTION public.rd_open_statement_run(p_run bigint) RETURNS public.statement_runs
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
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
CREATE TABLE public.billing_providers (
    provider_key text NOT NULL,
    kind text NOT NULL,
    display_name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    created_by text DEFAULT SESSION_USER NOT NULL,
    overdue_grace interval DEFAULT '24:00:00'::interval NOT NULL,
    CONSTRAINT billing_providers_display_name_check CHECK ((display_name <> ''::text)),
    CONSTRAINT billing_providers_kind_check CHECK ((kind = ANY (ARRAY['stripe'::text, 'paddle'::text, 'chargebee'::text, 'recurly'::text, 'lemonsqueezy'::text]))),
    CONSTRAINT billing_providers_overdue_grace_range CHECK (((overdue_grace >= '00:00:00'::interval) AND (overdue_grace <= '90 days'::interval) AND (date_part('month'::text, overdue_grace) = (0)::double precision) AND (date_part('year'::text, overdue_grace) = (0)::double precision))),
    CONSTRAINT billing_providers_provider_key_check CHECK ((provider_key ~ '^[a-z0-9][a-z0-9_.-]{0,62}$'::text))
);
CREATE FUNCTION public.rd_overdue_cutoff(p_provider_key text, p_grace interval) RETURNS timestamp with time zone
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    RETURN (now() - COALESCE(p_grace, (SELECT bp.overdue_grace FROM public.billing_providers bp WHERE (bp.provider_key = rd_overdue_cutoff.p_provider_key)), '24:00:00'::interval));
CREATE FUNCTION public.rd_refuse_change() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    RAISE EXCEPTION 'append_only: % rows cannot be changed or removed (% refused)',
        TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE FUNCTION public.rd_refuse_preview_row() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    RAISE EXCEPTION 'preview_kept: a preview''s % row (%) cannot be committed', TG_TABLE_NAME,
        NEW.id USING ERRCODE = 'check_violation';
END;
$$;
CREATE FUNCTION public.rd_renewal_fingerprint(e jsonb) RETURNS text
    LANGUAGE sql STABLE
    RETURN md5((jsonb_build_object('providerSubscriptionId', (e ->> 'providerSubscriptionId'::text), 'periodStart', public.rd_rfc3339((((e -> 'period'::text) ->> 'start'::text))::timestamp with time zone), 'periodEnd', public.rd_rfc3339((((e -> 'period'::text) ->> 'end'::text))::timestamp with time zone), 'paidAmountMinor', (e -> 'paidAmountMinor'::text), 'currency', (e ->> 'currency'::text)))::text);
CREATE FUNCTION public.rd_renewal_named_by(p_provider_key text, p_refs text[]) RETURNS public.subscription_billing_periods
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    b public.subscription_billing_periods;
BEGIN
    SELECT * INTO b FROM public.subscription_billing_periods bp
     WHERE bp.provider_key = p_provider_key AND bp.provider_renewal_key = ANY (p_refs)
     ORDER BY bp.paid_at LIMIT 1;
    IF FOUND THEN
        RETURN b;
    END IF;
    SELECT bp.* INTO b FROM public.billing_period_payment_refs r
      JOIN public.subscription_billing_periods bp ON bp.id = r.billing_period_id
     WHERE r.provider_key = p_provider_key AND r.payment_ref = ANY (p_refs)
     ORDER BY bp.paid_at LIMIT 1;
    RETURN b;
END;
$$;
CREATE FUNCTION public.rd_require_reason(p_reason text) RETURNS void
    LANGUAGE plpgsql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    IF p_reason IS NULL
       OR NOT EXISTS (SELECT 1 FROM public.operator_reason_codes WHERE code = p_reason) THEN
        RAISE EXCEPTION 'a reason code is required, one of: %',
            (SELECT string_agg(code, ', ' ORDER BY code) FROM public.operator_reason_codes)
            USING ERRCODE = 'RD005';
    END IF;
END;
$$;
CREATE FUNCTION public.rd_resolve_case(p_case_id bigint, p_resolution text, p_billing_period_id uuid, p_comment text, p_snapshot_id bigint) RETURNS void
    LANGUAGE sql
    BEGIN ATOMIC
 UPDATE public.reconciliation_cases SET status = 'resolved'::text, resolution = rd_resolve_case.p_resolution, resolved_at = now(), resolved_by = SESSION_USER, resolution_comment = rd_resolve_case.p_comment, billing_period_id = rd_resolve_case.p_billing_period_id, snapshot_id = COALESCE(rd_resolve_case.p_snapshot_id, reconciliation_cases.snapshot_id)
   WHERE (reconciliation_cases.id = rd_resolve_case.p_case_id);
END;
CREATE FUNCTION public.rd_settle_waiting_case(p_case_id bigint, p_result text, p_billing_period_id uuid, p_error_code text, p_local_state jsonb, p_unblocked_by text) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    note text := 're-applied automatically after ' || p_unblocked_by || ' arrived';
BEGIN
    IF p_result IN ('applied', 'duplicate') THEN
        UPDATE public.reconciliation_cases
           SET status = 'resolved',
               resolution = CASE p_result WHEN 'applied' THEN 'reapplied'
                                          ELSE 'already_applied' END,
               resolved_at = now(), resolved_by = 'system', resolution_comment = note,
               billing_period_id = p_billing_period_id
         WHERE id = p_case_id;
    ELSE
        PERFORM public.rd_keep_case_open(p_case_id, p_error_code, p_local_state);
        note := 'tried automatically after ' || p_unblocked_by || ' arrived';
    END IF;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code, actor,
        comment, details, chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'reapply', p_result, p_error_code, 'system', note,
            jsonb_build_object('automatic', true, 'unblockedBy', p_unblocked_by,
                               'billingPeriodId', p_billing_period_id,
                               'localState', p_local_state),
            0, '', '');
END;
$$;
CREATE FUNCTION public.rd_sha256_hex(t text) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN encode(sha256(convert_to(t, 'UTF8'::name)), 'hex'::text);
CREATE FUNCTION public.rd_snapshot_not_from_the_future() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    -- now() is the transaction's start: five minutes cover clock skew between the machine
    -- that captured the snapshot and the server.
    IF NEW.captured_at > pg_catalog.now() + interval '5 minutes' THEN
        RAISE EXCEPTION 'the snapshot''s capturedAt % is later than the server''s clock (% plus 5 minutes allowed for skew); fix capturedAt',
            public.rd_rfc3339(NEW.captured_at), public.rd_rfc3339(pg_catalog.now())
            USING ERRCODE = 'RD012';
    END IF;
    RETURN NEW;
END;
$$;
CREATE FUNCTION public.rd_statement_case(p_run bigint, p_event jsonb, p_code text, p_state jsonb, OUT case_id bigint, OUT is_open boolean) RETURNS record
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
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
    -- Numbered by rd_new_id: none of the numbers users cite for a dry run (#42, 12).
    INSERT INTO public.reconciliation_cases AS c
        (id, provider_key, provider_subscription_id, subscription_id, provider_renewal_key,
         first_provider_event_id, last_provider_event_id, error_code, event, event_fingerprint,
         local_state, renewal_period_start, statement_run_id)
    OVERRIDING SYSTEM VALUE
    VALUES (public.rd_new_id('public.reconciliation_cases_id_seq'), p_event->>'providerKey', p_event->>'providerSubscriptionId',
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
CREATE FUNCTION public.rd_statement_run_finished() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
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
CREATE FUNCTION public.rd_statement_run_guard() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'statement_runs' THEN
        IF OLD.finished_at IS NULL AND NEW.finished_at IS NOT NULL
           AND OLD.begun_in = pg_catalog.pg_current_xact_id() AND NEW.id = OLD.id
           AND NEW.provider_key = OLD.provider_key AND NEW.covers_from = OLD.covers_from
           AND NEW.covers_to = OLD.covers_to AND NEW.statement_sha256 = OLD.statement_sha256
           AND NEW.files = OLD.files AND NEW.objects = OLD.objects
           AND NEW.imported_by = OLD.imported_by AND NEW.started_at = OLD.started_at
           AND NEW.begun_in = OLD.begun_in
           AND NEW.completeness IS NOT DISTINCT FROM OLD.completeness
           AND NEW.repeats_run IS NOT DISTINCT FROM OLD.repeats_run THEN
            RETURN NEW;
        END IF;
    END IF;
    RAISE EXCEPTION '% rows are written once (% refused)', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'RD014';
END;
$$;
CREATE FUNCTION public.rd_subscription_state_json(s public.subscriptions) RETURNS jsonb
    LANGUAGE sql STABLE
    RETURN jsonb_build_object('subscriptionId', (s).id, 'status', (s).status, 'currentPeriod', public.rd_period_json((s).current_period_start, (s).current_period_end), 'cancelAtPeriodEnd', (s).cancel_at_period_end, 'providerVersion', (s).provider_version, 'revision', (s).revision);
CREATE FUNCTION public.rd_take_work_lock(p_name text, p_what text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
DECLARE
    v_timeout text := pg_catalog.current_setting('lock_timeout');
BEGIN
    IF v_timeout OPERATOR(pg_catalog.=) '0' THEN
        PERFORM pg_catalog.set_config('lock_timeout', '30s', true);
    END IF;
    BEGIN
        INSERT INTO public.rd_work_locks AS l (name) VALUES (p_name)
            ON CONFLICT (name) DO NOTHING;
        PERFORM 1 FROM public.rd_work_locks l
         WHERE l.name OPERATOR(pg_catalog.=) p_name FOR UPDATE;
    EXCEPTION WHEN lock_not_available THEN
        RAISE EXCEPTION '% is running and has held its lock for longer than %: nothing was changed; run this again once it has finished',
            p_what,
            CASE WHEN v_timeout OPERATOR(pg_catalog.=) '0' THEN '30s' ELSE v_timeout END
            USING ERRCODE = 'RD022';
    END;
    PERFORM pg_catalog.set_config('lock_timeout', v_timeout, true);
END;
$$;
CREATE FUNCTION public.rd_try_work_lock(p_name text) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
BEGIN
    PERFORM 1 FROM public.rd_work_locks l
     WHERE l.name OPERATOR(pg_catalog.=) p_name FOR UPDATE SKIP LOCKED;
    IF FOUND THEN
        RETURN true;
    END IF;
    -- A lock no migration made would read as "another holds it" for ever: the work would
    -- silently never run. Said aloud instead.
    IF NOT EXISTS (SELECT 1 FROM public.rd_work_locks l
                    WHERE l.name OPERATOR(pg_catalog.=) p_name) THEN
        RAISE EXCEPTION 'no work lock named %', p_name USING ERRCODE = 'P0002';
    END IF;
    RETURN false;
END;
$$;
CREATE FUNCTION public.reapply_case(p_case_id bigint, p_reason text, p_comment text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    r record;
    v_resolution text;
BEGIN
    PERFORM public.rd_require_reason(p_reason);
    c := public.rd_lock_open_case(p_case_id);
    IF jsonb_typeof(c.event->'movements') = 'array' THEN
        -- Money back (#40): the movement through the same function its delivery went through,
        -- as this operator: recorded (or found recorded), the case resolves; refused for the
        -- same reason, the case stays open with this occurrence. Refused for another reason,
        -- record_money_movements has opened a second case about it: nothing is kept, and the
        -- operator is told the new reason.
        SELECT CASE m.result WHEN 'recorded' THEN 'applied' ELSE m.result END AS result,
               m.billing_period_id, m.error_code, m.local_state, m.case_id
          INTO r FROM public.record_money_movements(c.event, 'operator', session_user) m;
        IF r.result = 'rejected' AND r.case_id IS DISTINCT FROM p_case_id THEN
            RAISE EXCEPTION 'case %''s money movement is refused now as %, not as %: nothing was changed',
                p_case_id, r.error_code, c.error_code USING ERRCODE = 'RD003';
        END IF;
    ELSIF jsonb_typeof(c.event->'period') IS DISTINCT FROM 'object' THEN
        RAISE EXCEPTION 'case % has no complete renewal to apply (%); attach a provider snapshot instead',
            p_case_id, c.error_code USING ERRCODE = 'RD003';
    ELSE
        -- The very same core the webhooks use, as this operator.
        SELECT * INTO r FROM public.rd_apply_case_event(c.event, 'operator', session_user);
    END IF;
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
                              'localState', r.local_state,
                              'subscriptionAfter', (
                                  SELECT public.rd_subscription_state_json(s)
                                    FROM public.subscriptions s
                                   WHERE s.provider_key = c.provider_key
                                     AND s.provider_subscription_id = c.provider_subscription_id));
END;
$$;
CREATE FUNCTION public.record_money_movements(p_event jsonb, p_actor_type text, p_actor_id text, OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT case_id bigint, OUT local_state jsonb) RETURNS record
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    v_provider text := p_event->>'providerKey';
    m jsonb;
    v_key text;
    v_kind text;
    v_amount bigint;
    v_currency text;
    v_at timestamptz;
    v_refs text[];
    v_cumulative bigint;
    bp public.subscription_billing_periods%ROWTYPE;
    s public.subscriptions%ROWTYPE;
    v_existing public.money_movements%ROWTYPE;
    v_found boolean;
    v_new uuid;
    v_after_close boolean;
    v_error text;
    v_state jsonb;
    v_back bigint;
    v_case bigint;
    v_recorded integer := 0;
    v_refused text[] := '{}';
    v_recorded_by text := CASE WHEN p_actor_type IN ('operator', 'statement', 'cli')
                               THEN p_actor_type ELSE 'webhook' END;
BEGIN
    IF pg_catalog.jsonb_typeof(p_event->'movements') IS DISTINCT FROM 'array'
       OR pg_catalog.jsonb_array_length(p_event->'movements') = 0 THEN
        RAISE EXCEPTION 'record_money_movements: the event has no movements'
            USING ERRCODE = '22023';
    END IF;
    FOR m IN SELECT e.value FROM pg_catalog.jsonb_array_elements(p_event->'movements') e LOOP
        v_key := m->>'movementKey';
        v_kind := m->>'kind';
        v_amount := (m->>'amountMinor')::bigint;
        v_currency := m->>'currency';
        v_at := (m->>'occurredAt')::timestamptz;
        v_refs := ARRAY(SELECT pg_catalog.jsonb_array_elements_text(m->'renewalRefs'));
        -- A running total refunded (Lemon Squeezy): the movement is what it adds (below).
        v_cumulative := (m->>'cumulativeMinor')::bigint;
        IF v_cumulative IS NOT NULL AND (v_kind <> 'refund' OR v_cumulative <> v_amount) THEN
            RAISE EXCEPTION 'record_money_movements: a running total is a refund''s, and its '
                            'amount is the total' USING ERRCODE = '22023';
        END IF;
        IF v_key = ANY (v_refused) THEN
            CONTINUE; -- in the case of the movement it reverses
        END IF;
        v_error := NULL;
        s := NULL;
        -- 1. The renewal it pays back: by its renewal key, else by a payment ref. Not there,
        --    the refs' locks are taken and it is looked for again: a renewal that records one of
        --    them takes the same locks before it looks for the movements waiting for it
        --    (rd_heal_money_back), so that the one that commits second sees the other.
        bp := public.rd_renewal_named_by(v_provider, v_refs);
        IF bp.id IS NULL THEN
            PERFORM public.rd_lock_payment_refs(v_provider, v_refs);
            bp := public.rd_renewal_named_by(v_provider, v_refs);
        END IF;
        v_found := bp.id IS NOT NULL;
        IF NOT v_found THEN
            v_error := 'refund_without_renewal';
            v_state := pg_catalog.jsonb_build_object('subscriptionId', NULL);
        ELSE
            -- 2. Its subscription's row lock, as a renewal takes it: two deliveries of one
            --    refund, two refunds of one renewal, and a refund and a renewal queue here.
            SELECT * INTO s FROM public.subscriptions WHERE id = bp.subscription_id FOR UPDATE;
            -- The state a case would show is built only for a case (below): a recorded
            -- movement never needs it.
            v_state := '{}';
            SELECT * INTO v_existing FROM public.money_movements mm
             WHERE mm.provider_key = v_provider AND mm.movement_key = v_key
               AND mm.kind = v_kind;
            IF FOUND THEN
                -- A running total recorded before: its amount was what it added then.
                IF (v_existing.amount_minor = v_amount OR v_cumulative IS NOT NULL)
                   AND v_existing.currency = v_currency
                   AND v_existing.billing_period_id = bp.id THEN
                    billing_period_id := coalesce(billing_period_id, bp.id);
                    CONTINUE; -- recorded before: another event of the same movement
                END IF;
                v_error := 'money_movement_conflict';
                v_state := v_state || pg_catalog.jsonb_build_object('conflictingMovement',
                                                                    pg_catalog.to_jsonb(v_existing));
            ELSIF v_currency IS DISTINCT FROM bp.currency THEN
                v_error := 'money_movement_conflict';
            ELSIF v_kind IN ('refund_reversal', 'chargeback_reversal') AND NOT EXISTS (
                      SELECT 1 FROM public.money_movements mm
                       WHERE mm.provider_key = v_provider AND mm.movement_key = v_key
                         AND mm.kind = CASE v_kind WHEN 'refund_reversal' THEN 'refund'
                                                   ELSE 'chargeback' END) THEN
                v_error := 'money_movement_conflict';
            ELSE
                -- 3. A running total adds what it holds beyond the refunds recorded for the
                --    renewal (net of reversals), read under the subscription's lock: nothing
                --    when a larger total was recorded first.
                IF v_cumulative IS NOT NULL THEN
                    SELECT v_cumulative - coalesce(pg_catalog.sum(CASE mm.kind
                                                       WHEN 'refund' THEN mm.amount_minor
                                                       ELSE -mm.amount_minor END), 0)
                      INTO v_amount FROM public.money_movements mm
                     WHERE mm.billing_period_id = bp.id
                       AND mm.kind IN ('refund', 'refund_reversal');
                    IF v_amount <= 0 THEN
                        billing_period_id := coalesce(billing_period_id, bp.id);
                        CONTINUE;
                    END IF;
                END IF;
                --    Never past what was paid: the renewal's money back so far, net of
                --    reversals, read under the subscription's lock.
                SELECT coalesce(pg_catalog.sum(CASE WHEN mm.kind IN ('refund', 'chargeback')
                                                    THEN mm.amount_minor
                                                    ELSE -mm.amount_minor END), 0)
                  INTO v_back FROM public.money_movements mm WHERE mm.billing_period_id = bp.id;
                IF v_kind IN ('refund', 'chargeback')
                   AND v_back + v_amount > bp.paid_amount_minor THEN
                    v_error := 'refund_exceeds_payment';
                    v_state := v_state || pg_catalog.jsonb_build_object('moneyBackMinor', v_back);
                END IF;
            END IF;
        END IF;
        IF v_error IS NULL THEN
            -- 4. After close: its month's close and this movement queue on the table's lock
            --    (close_month takes it in SHARE mode), taken before the question is asked in a
            --    statement of its own: a close counts the movement, or the movement sees the
            --    close (0051).
            LOCK TABLE public.money_movements IN ROW EXCLUSIVE MODE;
            v_after_close := EXISTS (SELECT 1 FROM public.month_closes c
                                      WHERE c.provider_key = v_provider
                                        AND c.month = pg_catalog.date_trunc('month',
                                                          v_at AT TIME ZONE 'UTC')::date);
            -- 5. The movement, its audit row and its outbox intent: all or nothing.
            INSERT INTO public.money_movements AS mm
                (provider_key, movement_key, kind, subscription_id, billing_period_id,
                 amount_minor, currency, occurred_at, provider_event_id, recorded_by,
                 after_close)
            VALUES (v_provider, v_key, v_kind, s.id, bp.id, v_amount, v_currency, v_at,
                    p_event->>'providerEventId', v_recorded_by, v_after_close)
            RETURNING mm.id INTO v_new;
            INSERT INTO public.subscription_transition_audits
                (subscription_id, transition, billing_period_id, actor_type, actor_id,
                 provider_event_id, provider_renewal_key, details)
            VALUES (s.id, 'money_movement_recorded', bp.id,
                    p_actor_type,
                    p_actor_id, p_event->>'providerEventId', bp.provider_renewal_key,
                    pg_catalog.jsonb_build_object('movementId', v_new, 'movementKey', v_key,
                        'kind', v_kind, 'amountMinor', v_amount, 'currency', v_currency,
                        'occurredAt', public.rd_rfc3339(v_at)));
            INSERT INTO public.subscription_outbox (event_type, subscription_id,
                                                   billing_period_id, payload)
            VALUES (CASE v_kind WHEN 'refund' THEN 'refund.recorded'
                                WHEN 'refund_reversal' THEN 'refund.reversed'
                                WHEN 'chargeback' THEN 'dispute.funds_withdrawn'
                                ELSE 'dispute.funds_reinstated' END,
                    s.id, bp.id, pg_catalog.jsonb_build_object(
                        'type', v_kind, 'movementId', v_new, 'subscriptionId', s.id,
                        'providerKey', v_provider,
                        'providerSubscriptionId', s.provider_subscription_id,
                        'billingPeriodId', bp.id, 'providerRenewalKey', bp.provider_renewal_key,
                        'movementKey', v_key, 'amountMinor', v_amount, 'currency', v_currency,
                        'occurredAt', public.rd_rfc3339(v_at)));
            -- Its day's delta for the ledger's totals (0050): an insert, never an update.
            INSERT INTO public.money_back_deltas (day, provider_key, currency, kind, movements,
                                                  amount_minor)
            VALUES ((v_at AT TIME ZONE 'UTC')::date, v_provider, v_currency, v_kind, 1,
                    v_amount);
            v_recorded := v_recorded + 1;
            billing_period_id := coalesce(billing_period_id, bp.id);
        ELSE
            -- 6. A case about this movement (and its reversals in this event).
            v_refused := v_refused || v_key;
            IF v_found THEN
                v_state := public.rd_subscription_state_json(s)
                    || pg_catalog.jsonb_build_object('billingPeriod',
                                                     public.rd_billing_period_json(bp))
                    || v_state;
            END IF;
            v_case := public.rd_money_movement_case(
                p_event || pg_catalog.jsonb_build_object('movements', (
                    SELECT pg_catalog.jsonb_agg(e.value ORDER BY e.ordinality)
                      FROM pg_catalog.jsonb_array_elements(p_event->'movements')
                           WITH ORDINALITY e
                     WHERE e.value->>'movementKey' = v_key)),
                v_key, v_error, v_state, s);
            IF case_id IS NULL THEN
                case_id := v_case;
                error_code := v_error;
                local_state := v_state;
            END IF;
        END IF;
    END LOOP;
    result := CASE WHEN v_recorded > 0 THEN 'recorded'
                   WHEN case_id IS NOT NULL THEN 'rejected'
                   ELSE 'duplicate' END;
END;
$$;
CREATE FUNCTION public.record_payment_trouble(p_event jsonb, p_actor_type text, p_actor_id text, OUT result text, OUT error_code text) RETURNS record
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    v_provider text := p_event->>'providerKey';
    v_trouble jsonb := p_event->'trouble';
    s public.subscriptions%ROWTYPE;
    a jsonb;
    v_id bigint;
    v_new integer := 0;
    v_recorded_by text := CASE WHEN p_actor_type IN ('operator', 'statement', 'cli')
                               THEN p_actor_type ELSE 'webhook' END;
BEGIN
    IF pg_catalog.jsonb_typeof(v_trouble) IS DISTINCT FROM 'object' THEN
        RAISE EXCEPTION 'record_payment_trouble: the event tells no trouble'
            USING ERRCODE = '22023';
    END IF;
    SELECT * INTO s FROM public.subscriptions x
     WHERE x.provider_key = v_provider
       AND x.provider_subscription_id = p_event->>'providerSubscriptionId'
       FOR UPDATE;
    IF NOT FOUND THEN
        result := 'not_a_renewal';
        error_code := 'subscription_not_found';
        RETURN;
    END IF;
    FOR a IN SELECT e.value
               FROM pg_catalog.jsonb_array_elements(coalesce(v_trouble->'attempts', '[]')) e
    LOOP
        INSERT INTO public.payment_attempts AS p
            (provider_key, invoice_key, attempt, subscription_id, failed_at, next_attempt_at,
             decline_code, amount_minor, currency, provider_event_id, recorded_by)
        VALUES (v_provider, a->>'invoiceKey', (a->>'attempt')::integer, s.id,
                (a->>'failedAt')::timestamptz, (a->>'nextAttemptAt')::timestamptz,
                a->>'declineCode', (a->>'amountMinor')::bigint, a->>'currency',
                p_event->>'providerEventId', v_recorded_by)
        ON CONFLICT DO NOTHING
        RETURNING p.id INTO v_id;
        CONTINUE WHEN v_id IS NULL; -- told before, by this event or another
        v_new := v_new + 1;
        INSERT INTO public.subscription_transition_audits
            (subscription_id, transition, actor_type, actor_id, provider_event_id,
             provider_renewal_key, reason, details)
        VALUES (s.id, 'payment_failed', p_actor_type, p_actor_id, p_event->>'providerEventId',
                a->>'invoiceKey', a->>'declineCode',
                pg_catalog.jsonb_build_object('attemptId', v_id, 'invoiceKey', a->>'invoiceKey',
                    'attempt', (a->>'attempt')::integer,
                    'failedAt', public.rd_rfc3339((a->>'failedAt')::timestamptz),
                    'nextAttemptAt', public.rd_rfc3339((a->>'nextAttemptAt')::timestamptz),
                    'declineCode', a->>'declineCode'));
        INSERT INTO public.subscription_outbox (event_type, subscription_id, payload)
        VALUES ('payment.failed', s.id, pg_catalog.jsonb_build_object(
                    'type', 'payment.failed', 'attemptId', v_id, 'subscriptionId', s.id,
                    'providerKey', v_provider,
                    'providerSubscriptionId', s.provider_subscription_id,
                    'invoiceKey', a->>'invoiceKey', 'attempt', (a->>'attempt')::integer,
                    'failedAt', public.rd_rfc3339((a->>'failedAt')::timestamptz),
                    'nextAttemptAt', public.rd_rfc3339((a->>'nextAttemptAt')::timestamptz),
                    'declineCode', a->>'declineCode',
                    'amountMinor', (a->>'amountMinor')::bigint, 'currency', a->>'currency'));
    END LOOP;
    IF pg_catalog.jsonb_typeof(v_trouble->'standing') = 'object' THEN
        v_id := NULL;
        INSERT INTO public.provider_standing_facts AS f
            (subscription_id, provider_key, standing, observed_at, reason, provider_event_id,
             recorded_by)
        VALUES (s.id, v_provider, v_trouble->'standing'->>'standing',
                (v_trouble->'standing'->>'observedAt')::timestamptz,
                v_trouble->'standing'->>'reason', p_event->>'providerEventId', v_recorded_by)
        ON CONFLICT DO NOTHING
        RETURNING f.id INTO v_id;
        IF v_id IS NOT NULL THEN
            v_new := v_new + 1;
            INSERT INTO public.subscription_transition_audits
                (subscription_id, transition, actor_type, actor_id, provider_event_id, reason,
                 details)
            VALUES (s.id, 'provider_standing', p_actor_type, p_actor_id,
                    p_event->>'providerEventId', v_trouble->'standing'->>'reason',
                    pg_catalog.jsonb_build_object('standingFactId', v_id,
                        'standing', v_trouble->'standing'->>'standing',
                        'observedAt', public.rd_rfc3339(
                            (v_trouble->'standing'->>'observedAt')::timestamptz)));
        END IF;
    END IF;
    IF v_new = 0 THEN
        result := 'duplicate';
        RETURN;
    END IF;
    result := 'recorded';
    PERFORM public.rd_access_settle(s.id, pg_catalog.now(), p_actor_type, p_actor_id);
END;
$$;
CREATE FUNCTION public.record_reconciliation_case(p_event jsonb, p_error_code text, p_local_state jsonb, p_recorded_by text DEFAULT 'webhook'::text) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    case_id bigint;
    inserted boolean;
    s public.subscriptions%ROWTYPE;
    v_code text := p_error_code;
    v_state jsonb := p_local_state;
    v_conflicting jsonb;
    v_start timestamptz;
    v_end timestamptz;
BEGIN
    IF p_recorded_by IS NULL OR p_recorded_by NOT IN ('webhook', 'cli') THEN
        RAISE EXCEPTION 'a case is recorded by ''webhook'' or ''cli'', not %',
            coalesce(p_recorded_by, 'NULL') USING ERRCODE = '22023';
    END IF;
    IF jsonb_typeof(p_event->'period') = 'object' THEN
        v_start := (p_event->'period'->>'start')::timestamptz;
        v_end := (p_event->'period'->>'end')::timestamptz;
    END IF;
    IF p_error_code <> 'needs_snapshot' THEN
        SELECT * INTO s FROM public.subscriptions
         WHERE provider_key = p_event->>'providerKey'
           AND provider_subscription_id = p_event->>'providerSubscriptionId'
           FOR UPDATE;
        SELECT v.verdict, v.conflicting INTO v_code, v_conflicting
          FROM public.rd_renewal_verdict(s, p_event->>'providerKey',
                   p_event->>'providerRenewalKey', v_start, v_end,
                   (p_event->>'paidAmountMinor')::bigint, p_event->>'currency') v;
        IF v_code = 'applicable' THEN
            -- Only the core's INSERT sees this one: the same period under another key.
            SELECT public.rd_billing_period_json(b) INTO v_conflicting
              FROM public.subscription_billing_periods b
             WHERE b.subscription_id = s.id AND b.period_start = v_start
               AND b.period_end = v_end;
            IF FOUND THEN
                v_code := 'provider_renewal_key_payload_conflict';
            END IF;
        END IF;
        IF v_code IN ('applicable', 'duplicate') THEN
            RETURN NULL;
        END IF;
        v_state := CASE WHEN s.id IS NULL THEN jsonb_build_object('subscriptionId', NULL)
                        ELSE public.rd_subscription_state_json(s) END;
        IF v_conflicting IS NOT NULL THEN
            v_state := v_state || jsonb_build_object('conflictingBillingPeriod', v_conflicting);
        END IF;
    END IF;
    -- Numbered by rd_new_id: none of the numbers users cite for a preview (#42, 12).
    INSERT INTO public.reconciliation_cases AS c
        (id, provider_key, provider_subscription_id, subscription_id, provider_renewal_key,
         first_provider_event_id, last_provider_event_id, error_code, event, event_fingerprint,
         local_state, renewal_period_start)
    OVERRIDING SYSTEM VALUE
    VALUES (public.rd_new_id('public.reconciliation_cases_id_seq'), p_event->>'providerKey', p_event->>'providerSubscriptionId',
            (SELECT id FROM public.subscriptions
              WHERE provider_key = p_event->>'providerKey'
                AND provider_subscription_id = p_event->>'providerSubscriptionId'),
            p_event->>'providerRenewalKey', p_event->>'providerEventId',
            p_event->>'providerEventId', v_code, p_event,
            public.rd_renewal_fingerprint(p_event), v_state, v_start)
    ON CONFLICT (provider_key, provider_renewal_key, event_fingerprint, error_code)
        WHERE status = 'open'
    DO UPDATE SET occurrences = c.occurrences + 1, last_seen_at = now(),
                  last_provider_event_id = excluded.last_provider_event_id,
                  local_state = excluded.local_state
    RETURNING id, (xmax = 0) INTO case_id, inserted;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code,
                                                   details, chain_seq, prev_hash, row_hash)
    VALUES (case_id, CASE WHEN inserted THEN 'opened' ELSE 'occurrence' END, 'open', v_code,
            jsonb_build_object('providerEventId', p_event->>'providerEventId',
                               'localState', v_state)
            || CASE WHEN p_recorded_by = 'webhook' THEN '{}'::jsonb
                    ELSE jsonb_build_object('recordedBy', p_recorded_by) END,
            0, '', '');
    RETURN case_id;
END;
$$;
CREATE FUNCTION public.register_billing_provider(p_key text, p_kind text, p_display_name text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
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
CREATE FUNCTION public.release_case(p_case_id bigint, p_comment text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    v_note text := public.rd_note_text(p_comment);
BEGIN
    c := public.rd_lock_open_case(p_case_id);
    IF c.assigned_to IS NULL THEN
        RETURN jsonb_build_object('caseId', p_case_id, 'result', 'not_claimed');
    END IF;
    IF c.assigned_to <> session_user AND v_note IS NULL THEN
        RAISE EXCEPTION 'case % is claimed by %: releasing it needs a note saying why',
            p_case_id, c.assigned_to USING ERRCODE = 'RD004';
    END IF;
    UPDATE public.reconciliation_cases
       SET assigned_to = NULL, assigned_at = NULL
     WHERE id = p_case_id;
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, comment, details,
                                                    chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'released', 'released', v_note,
            jsonb_build_object('releasedFrom', c.assigned_to), 0, '', '');
    RETURN jsonb_build_object('caseId', p_case_id, 'result', 'released',
                              'releasedFrom', c.assigned_to);
END;
$$;
CREATE FUNCTION public.renewal_period_start_totals(p_from date, p_to date) RETURNS TABLE(day date, provider_key text, currency text, recorded_by text, renewals bigint, amount_minor numeric)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT u.day, u.provider_key, u.currency, u.recorded_by,
           pg_catalog.sum(u.renewals)::bigint, pg_catalog.sum(u.amount_minor)
      FROM (SELECT t.day, t.provider_key, t.currency, t.recorded_by, t.renewals, t.amount_minor
              FROM public.renewal_period_start_totals t
             WHERE t.day OPERATOR(pg_catalog.>=) p_from AND t.day OPERATOR(pg_catalog.<) p_to
            UNION ALL
            SELECT d.period_start_day, d.provider_key, d.currency, d.recorded_by, d.renewals,
                   d.amount_minor
              FROM public.renewal_total_deltas d
             WHERE d.period_start_day OPERATOR(pg_catalog.>=) p_from
               AND d.period_start_day OPERATOR(pg_catalog.<) p_to) u
     GROUP BY u.day, u.provider_key, u.currency, u.recorded_by
$$;
CREATE FUNCTION public.renewal_totals(p_from date, p_to date) RETURNS TABLE(day date, provider_key text, currency text, recorded_by text, renewals bigint, amount_minor numeric)
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    SELECT u.day, u.provider_key, u.currency, u.recorded_by,
           pg_catalog.sum(u.renewals)::bigint, pg_catalog.sum(u.amount_minor)
      FROM (SELECT t.day, t.provider_key, t.currency, t.recorded_by, t.renewals, t.amount_minor
              FROM public.renewal_daily_totals t
             WHERE t.day >= p_from AND t.day < p_to
            UNION ALL
            SELECT d.day, d.provider_key, d.currency, d.recorded_by, d.renewals, d.amount_minor
              FROM public.renewal_total_deltas d
             WHERE d.day >= p_from AND d.day < p_to) u
     GROUP BY u.day, u.provider_key, u.currency, u.recorded_by
$$;
CREATE FUNCTION public.reopen_case(p_case_id bigint, p_comment text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    c public.reconciliation_cases%ROWTYPE;
    v_note text := public.rd_note_text(p_comment);
    v_refusal text;
BEGIN
    IF v_note IS NULL THEN
        RAISE EXCEPTION 'reopening a case needs a note saying why' USING ERRCODE = 'RD004';
    END IF;
    SELECT * INTO c FROM public.reconciliation_cases WHERE id = p_case_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'there is no case %', p_case_id USING ERRCODE = 'RD001';
    END IF;
    -- The refusals are rd_case_reopen_refusal's, which case_detail shows too (#42, 5).
    v_refusal := public.rd_case_reopen_refusal(c);
    IF v_refusal IS NOT NULL THEN
        RAISE EXCEPTION '%', v_refusal USING ERRCODE = 'RD016';
    END IF;
    -- One reopen of a renewal at a time: the checks again and the update then see the same
    -- open cases (a second reopen of the same renewal waits here, then finds this one open).
    PERFORM public.rd_take_work_lock(
        'reopen ' OPERATOR(pg_catalog.||) c.provider_key OPERATOR(pg_catalog.||) ' '
            OPERATOR(pg_catalog.||) c.provider_renewal_key,
        'another reopen of renewal ' OPERATOR(pg_catalog.||) c.provider_renewal_key);
    v_refusal := public.rd_case_reopen_refusal(c);
    IF v_refusal IS NOT NULL THEN
        RAISE EXCEPTION '%', v_refusal USING ERRCODE = 'RD016';
    END IF;
    BEGIN
        UPDATE public.reconciliation_cases
           SET status = 'open', resolution = NULL, resolved_at = NULL, resolved_by = NULL,
               resolution_comment = NULL
         WHERE id = p_case_id;
    EXCEPTION WHEN unique_violation THEN
        -- reconciliation_cases_open_once: the core opened a case for the same rejection of the
        -- same renewal after the check above.
        RAISE EXCEPTION 'another case is open for the same renewal (%): work that case instead of reopening case %',
            c.provider_renewal_key, p_case_id USING ERRCODE = 'RD016';
    END;
    -- The dismissal undone stays in the history (its own row, and here who and why).
    INSERT INTO public.reconciliation_case_history (case_id, action, outcome, error_code, comment,
                                                   details, chain_seq, prev_hash, row_hash)
    VALUES (p_case_id, 'reopened', 'open', c.error_code, v_note,
            pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                'dismissedBy', c.resolved_by,
                'dismissedAt', public.rd_rfc3339(c.resolved_at),
                'dismissalNote', c.resolution_comment)),
            0, '', '');
    RETURN pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
        'caseId', p_case_id, 'result', 'reopened', 'errorCode', c.error_code,
        'dismissedBy', c.resolved_by));
END;
$$;
CREATE FUNCTION public.review_invalid_delivery(p_inbox_id bigint, p_note text, p_rerun_inbox_id bigint DEFAULT NULL::bigint) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    v_outcome text;
    v_by text;
    v_at timestamptz;
    -- Stored as every operator note is (0027): rd_note_text's form of it.
    v_note text := public.rd_note_text(p_note);
BEGIN
    IF v_note IS NULL THEN
        RAISE EXCEPTION 'marking a delivery reviewed needs a note saying why nothing more is to be done'
            USING ERRCODE = 'RD004';
    END IF;
    -- The row lock orders two reviews of one delivery: the second sees the first.
    SELECT w.outcome INTO v_outcome FROM public.webhook_inbox w WHERE w.id = p_inbox_id
       FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'there is no delivery %', p_inbox_id USING ERRCODE = 'RD017';
    END IF;
    IF v_outcome IS DISTINCT FROM 'invalid' THEN
        RAISE EXCEPTION 'delivery % is not invalid (its outcome is %): only invalid deliveries are reviewed',
            p_inbox_id, coalesce(v_outcome, 'not processed yet') USING ERRCODE = 'RD018';
    END IF;
    SELECT r.reviewed_by, r.reviewed_at INTO v_by, v_at
      FROM public.webhook_inbox_reviews r WHERE r.inbox_id = p_inbox_id;
    IF FOUND THEN
        RAISE EXCEPTION 'delivery % was already reviewed by % at %', p_inbox_id, v_by,
            public.rd_rfc3339(v_at) USING ERRCODE = 'RD019';
    END IF;
    IF p_rerun_inbox_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM public.webhook_inbox w WHERE w.id = p_rerun_inbox_id
           AND w.id <> p_inbox_id) THEN
        RAISE EXCEPTION 'there is no delivery % that re-ran delivery %', p_rerun_inbox_id,
            p_inbox_id USING ERRCODE = 'RD017';
    END IF;
    INSERT INTO public.webhook_inbox_reviews (inbox_id, note, rerun_inbox_id)
    VALUES (p_inbox_id, v_note, p_rerun_inbox_id);
    RETURN pg_catalog.jsonb_build_object('inboxId', p_inbox_id, 'result', 'reviewed',
        'reviewedBy', session_user::text);
END;
$$;
CREATE FUNCTION public.set_inbox_retention(p_days integer) RETURNS jsonb
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
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
CREATE FUNCTION public.statement_add_lines(p_run bigint, p_lines jsonb) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
DECLARE
    r public.statement_runs%ROWTYPE := public.rd_open_statement_run(p_run);
    l jsonb;
    e jsonb;
    s public.subscriptions%ROWTYPE;
    bp public.subscription_billing_periods%ROWTYPE;
    v_has_period boolean;
    v_recorded boolean;
    v_finding text;
    v_bp uuid;
    v_case bigint;
    v_open boolean;
    v_state jsonb;
    a record;
    v_attempt integer;
    v_count integer := 0;
    mv record;
    v_first jsonb;
BEGIN
    FOR l IN SELECT * FROM pg_catalog.jsonb_array_elements(p_lines) LOOP
        e := l->'event';
        IF e->>'providerKey' IS DISTINCT FROM r.provider_key THEN
            RAISE EXCEPTION 'line %: the renewal is of provider %, the statement of %',
                l->>'line', e->>'providerKey', r.provider_key USING ERRCODE = '22023';
        END IF;
        IF l->>'outcome' = 'money_back' THEN
            IF pg_catalog.jsonb_typeof(e->'movements') IS DISTINCT FROM 'array'
               OR pg_catalog.jsonb_array_length(e->'movements') = 0 THEN
                RAISE EXCEPTION 'line %: money back without movements', l->>'line'
                    USING ERRCODE = '22023';
            END IF;
            v_first := e->'movements'->0;
            SELECT * INTO mv
              FROM public.record_money_movements(e, 'statement', 'statement run ' || p_run);
            v_finding := CASE WHEN mv.result = 'recorded' THEN 'backfilled'
                              WHEN mv.result = 'duplicate' THEN 'matched'
                              WHEN mv.error_code = 'money_movement_conflict' THEN 'differing'
                              ELSE 'unapplied' END;
            -- The renewal it pays back, when one is recorded (a conflict's, too).
            v_bp := coalesce(mv.billing_period_id, (public.rd_renewal_named_by(r.provider_key,
                ARRAY(SELECT pg_catalog.jsonb_array_elements_text(v_first->'renewalRefs')))).id);
            IF mv.case_id IS NOT NULL THEN
                UPDATE public.reconciliation_cases c SET statement_run_id = p_run
                 WHERE c.id = mv.case_id AND c.statement_run_id IS NULL AND c.inbox_id IS NULL;
            END IF;
            INSERT INTO public.statement_lines (run_id, line_no, provider_renewal_key, finding,
                                                object_id, object_sha256, event,
                                                billing_period_id, case_id, money_back,
                                                occurred_at, money_movement_id)
            VALUES (p_run, (l->>'line')::integer, v_first->>'movementKey', v_finding,
                    l->>'objectId', l->>'objectSha256', e, v_bp, mv.case_id, true,
                    (v_first->>'occurredAt')::timestamptz,
                    (SELECT mm.id FROM public.money_movements mm
                      WHERE mm.provider_key = r.provider_key
                        AND mm.movement_key = v_first->>'movementKey'
                        AND mm.kind = v_first->>'kind'));
            v_count := v_count + 1;
            CONTINUE;
        END IF;
        v_has_period := coalesce(pg_catalog.jsonb_typeof(e->'period') = 'object', false);
        IF l->>'outcome' IS NULL
           OR l->>'outcome' NOT IN ('renewal', 'needs_snapshot', 'unreadable')
           OR (l->>'outcome' = 'renewal') IS DISTINCT FROM v_has_period
           OR (l->>'outcome' = 'unreadable')
              IS DISTINCT FROM coalesce(pg_catalog.jsonb_typeof(e->'unreadable') = 'object',
                                        false) THEN
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
        v_recorded := FOUND;
        IF l->>'outcome' = 'unreadable' THEN
            -- The statement lists an object nobody could read: a person looks at it. What is
            -- recorded under its id (if anything) is shown beside it, never changed.
            v_finding := 'unreadable';
            v_bp := CASE WHEN v_recorded THEN bp.id END;
            v_state := CASE WHEN s.id IS NULL
                            THEN pg_catalog.jsonb_build_object('subscriptionId', NULL)
                            ELSE public.rd_subscription_state_json(s) END
                       || CASE WHEN v_recorded
                               THEN pg_catalog.jsonb_build_object('recordedBillingPeriod',
                                        public.rd_billing_period_json(bp))
                               ELSE '{}'::jsonb END;
            SELECT x.case_id, x.is_open INTO v_case, v_open
              FROM public.rd_statement_case(p_run, e, 'statement_object_unreadable', v_state) x;
        ELSIF v_recorded THEN
            v_bp := bp.id;
            IF bp.subscription_id IS NOT DISTINCT FROM s.id
               AND bp.paid_amount_minor = (e->>'paidAmountMinor')::bigint
               AND bp.currency = e->>'currency'
               AND (NOT v_has_period
                    OR (bp.period_start = (e->'period'->>'start')::timestamptz
                        AND bp.period_end = (e->'period'->>'end')::timestamptz)) THEN
                v_finding := 'matched';
                -- The payments the statement names it by (#40), for a renewal recorded
                -- without them (before 0049, or by a path that carried none); a refund that
                -- waits for one of them is recorded now. Only when one of them is not kept
                -- yet: refs are kept by the heal alone, which healed their waiting refunds then
                -- (a primary-key probe a ref, not a heal a matched line).
                IF EXISTS (SELECT 1
                             FROM pg_catalog.jsonb_array_elements_text(
                                      coalesce(e->'paymentRefs', '[]'::jsonb)) x(ref)
                            WHERE NOT EXISTS (SELECT 1 FROM public.billing_period_payment_refs p
                                               WHERE p.provider_key = r.provider_key
                                                 AND p.payment_ref = x.ref)) THEN
                    PERFORM public.rd_heal_money_back(r.provider_key, bp.id, e);
                END IF;
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
                    -- The money back that waited for it (#40), as a delivery's renewal does.
                    PERFORM public.rd_heal_money_back(r.provider_key, v_bp, e);
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
CREATE FUNCTION public.statement_begin(p_provider_key text, p_from date, p_to date, p_statement_sha256 text, p_files jsonb, p_objects integer, p_completeness text DEFAULT NULL::text, p_lists_money_back boolean DEFAULT false, OUT run_id bigint, OUT earlier_run bigint) RETURNS record
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
BEGIN
    PERFORM public.rd_lock_provider_statements(p_provider_key);
    SELECT r.id INTO earlier_run FROM public.statement_runs r
     WHERE r.provider_key = p_provider_key AND r.covers_from = p_from AND r.covers_to = p_to
       AND r.statement_sha256 = p_statement_sha256 AND r.finished_at IS NOT NULL
     ORDER BY r.id DESC LIMIT 1;
    -- Numbered by rd_new_id: a dry run takes none of the run numbers users cite (#42, 12).
    INSERT INTO public.statement_runs (id, provider_key, covers_from, covers_to,
                                       statement_sha256, files, objects, completeness,
                                       repeats_run, lists_money_back)
    OVERRIDING SYSTEM VALUE
    VALUES (public.rd_new_id('public.statement_runs_id_seq'), p_provider_key, p_from, p_to, p_statement_sha256, p_files, p_objects,
            p_completeness, earlier_run, coalesce(p_lists_money_back, false))
    RETURNING id INTO run_id;
END;
$$;
CREATE FUNCTION public.statement_finish(p_run bigint) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
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
    mm public.money_movements%ROWTYPE;
BEGIN
    SELECT coalesce(pg_catalog.max(l.line_no), 0) INTO v_line
      FROM public.statement_lines l WHERE l.run_id = p_run;
    -- A probe of the run's lines per recorded renewal, not an anti-join: the lines were
    -- written by this very transaction, so no statistics know them, and a join planned without
    -- them read every line for every renewal (8 s for 5,000 of each, measured).
    FOR m IN
        SELECT b.* FROM public.subscription_billing_periods b
         WHERE b.provider_key = r.provider_key AND b.paid_at >= v_lo AND b.paid_at < v_hi
           AND r.completeness IS DISTINCT FROM 'unproven'
         ORDER BY b.paid_at, b.id
    LOOP
        CONTINUE WHEN EXISTS (SELECT 1 FROM public.statement_lines l
                               WHERE l.run_id = p_run AND NOT l.money_back
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
    -- The same for the money back it lists, by each movement's own date. Its case is keyed on
    -- the movement, as record_money_movements' are; its event is the recorded movement.
    FOR mm IN
        SELECT v.* FROM public.money_movements v
         WHERE v.provider_key = r.provider_key AND v.kind IN ('refund', 'chargeback')
           AND v.occurred_at >= v_lo AND v.occurred_at < v_hi
           AND r.lists_money_back AND r.completeness IS DISTINCT FROM 'unproven'
         ORDER BY v.occurred_at, v.id
    LOOP
        CONTINUE WHEN EXISTS (SELECT 1 FROM public.statement_lines l
                               WHERE l.run_id = p_run AND l.money_back
                                 AND l.provider_renewal_key = mm.movement_key);
        SELECT * INTO s FROM public.subscriptions sx WHERE sx.id = mm.subscription_id FOR UPDATE;
        SELECT * INTO m FROM public.subscription_billing_periods b
         WHERE b.id = mm.billing_period_id;
        e := pg_catalog.jsonb_build_object(
            'providerKey', mm.provider_key, 'providerEventId', mm.provider_event_id,
            'providerSubscriptionId', s.provider_subscription_id,
            'providerRenewalKey', mm.movement_key,
            'movements', pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object(
                'movementKey', mm.movement_key, 'kind', mm.kind,
                'amountMinor', mm.amount_minor, 'currency', mm.currency,
                'occurredAt', public.rd_rfc3339(mm.occurred_at),
                'renewalRefs', pg_catalog.jsonb_build_array(m.provider_renewal_key))));
        SELECT * INTO x FROM public.rd_statement_case(p_run, e, 'not_in_statement',
            public.rd_subscription_state_json(s)
            || pg_catalog.jsonb_build_object('billingPeriod', public.rd_billing_period_json(m),
                                             'recordedMovement', pg_catalog.to_jsonb(mm))) c;
        UPDATE public.reconciliation_cases c SET statement_run_id = p_run
         WHERE c.id = x.case_id AND c.statement_run_id IS NULL AND c.inbox_id IS NULL;
        v_line := v_line + 1;
        INSERT INTO public.statement_lines (run_id, line_no, provider_renewal_key, finding,
                                            billing_period_id, case_id, money_back, occurred_at,
                                            money_movement_id)
        VALUES (p_run, v_line, mm.movement_key, 'not_in_statement', m.id, x.case_id, true,
                mm.occurred_at, mm.id);
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
        ledger_totals = public.rd_ledger_totals(r.provider_key, v_lo, v_hi),
        money_back = (
            SELECT pg_catalog.jsonb_build_object(
                       'listed', r.lists_money_back,
                       'lines', pg_catalog.count(*) FILTER (WHERE l.event IS NOT NULL),
                       'matched', pg_catalog.count(*) FILTER (WHERE l.finding = 'matched'),
                       'backfilled', pg_catalog.count(*) FILTER (WHERE l.finding = 'backfilled'),
                       'unapplied', pg_catalog.count(*) FILTER (WHERE l.finding = 'unapplied'),
                       'differing', pg_catalog.count(*) FILTER (WHERE l.finding = 'differing'),
                       'notInStatement', pg_catalog.count(*)
                                             FILTER (WHERE l.finding = 'not_in_statement'),
                       -- Both sides per currency, by each movement's own day: the statement's
                       -- movements as listed (a running total as its total), the ledger's as
                       -- recorded.
                       'statementTotals', coalesce((
                           SELECT pg_catalog.jsonb_object_agg(t.currency,
                                      pg_catalog.jsonb_build_object('movements', t.n,
                                          'refundedMinor', t.refunded,
                                          'disputedMinor', t.disputed))
                             FROM (SELECT v->>'currency' AS currency, pg_catalog.count(*) AS n,
                                          pg_catalog.sum(CASE v->>'kind'
                                              WHEN 'refund' THEN (v->>'amountMinor')::numeric
                                              WHEN 'refund_reversal'
                                                  THEN -(v->>'amountMinor')::numeric
                                              ELSE 0 END) AS refunded,
                                          pg_catalog.sum(CASE v->>'kind'
                                              WHEN 'chargeback' THEN (v->>'amountMinor')::numeric
                                              WHEN 'chargeback_reversal'
                                                  THEN -(v->>'amountMinor')::numeric
                                              ELSE 0 END) AS disputed
                                     FROM public.statement_lines ml,
                                          pg_catalog.jsonb_array_elements(ml.event->'movements') v
                                    WHERE ml.run_id = p_run AND ml.money_back
                                      AND (v->>'occurredAt')::timestamptz >= v_lo
                                      AND (v->>'occurredAt')::timestamptz < v_hi
                                    GROUP BY 1) t), '{}'),
                       'ledgerTotals', public.rd_money_back_by_currency(ARRAY(
                           SELECT v.id FROM public.money_movements v
                            WHERE v.provider_key = r.provider_key
                              AND v.occurred_at >= v_lo AND v.occurred_at < v_hi)))
              FROM public.statement_lines l WHERE l.run_id = p_run AND l.money_back)
      FROM (SELECT pg_catalog.count(*) FILTER (WHERE l.event IS NOT NULL
                                                   AND l.finding <> 'unreadable') AS renewals,
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
              FROM public.statement_lines l WHERE l.run_id = p_run AND NOT l.money_back) c
     WHERE sr.id = p_run;
    RETURN public.statement_run_json(p_run);
END;
$$;
CREATE FUNCTION public.statement_run_json(p_run bigint) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    RETURN (SELECT jsonb_build_object('runId', r.id, 'providerKey', r.provider_key, 'from', r.covers_from, 'to', r.covers_to, 'statementSha256', r.statement_sha256, 'files', r.files, 'objects', r.objects, 'importedBy', r.imported_by, 'startedAt', public.rd_rfc3339(r.started_at), 'finishedAt', public.rd_rfc3339(r.finished_at), 'renewals', r.renewals, 'matched', r.matched, 'backfilled', r.backfilled, 'unapplied', r.unapplied, 'differing', r.differing, 'notInStatement', r.not_in_statement, 'cases', r.open_cases, 'unreadable', (SELECT count(*) AS count FROM public.statement_lines l WHERE ((l.run_id = r.id) AND (l.finding = 'unreadable'::text))), 'statementTotals', r.statement_totals, 'ledgerTotals', r.ledger_totals, 'completeness', r.completeness, 'listsMoneyBack', r.lists_money_back, 'moneyBack', r.money_back, 'repeats', (SELECT jsonb_build_object('runId', e.id, 'importedBy', e.imported_by, 'finishedAt', public.rd_rfc3339(e.finished_at)) AS jsonb_build_object FROM public.statement_runs e WHERE (e.id = r.repeats_run)), 'closedMonths', COALESCE((SELECT jsonb_agg(jsonb_build_object('month', to_char((mc.month)::timestamp with time zone, 'YYYY-MM'::text), 'closedBy', mc.closed_by, 'closedAt', public.rd_rfc3339(mc.closed_at)) ORDER BY mc.month) AS jsonb_agg FROM public.month_closes mc WHERE (((mc.provider_key)::text = (r.provider_key)::text) AND (mc.month >= (date_trunc('month'::text, (r.covers_from)::timestamp without time zone))::date) AND (mc.month <= r.covers_to) AND (mc.closed_at < r.started_at))), '[]'::jsonb), 'backfilledAfterClose', (SELECT count(*) AS count FROM (public.statement_lines l JOIN public.subscription_billing_periods b ON ((b.id = l.billing_period_id))) WHERE ((l.run_id = r.id) AND (l.finding = 'backfilled'::text) AND (EXISTS (SELECT 1 FROM public.month_closes mc WHERE (((mc.provider_key)::text = b.provider_key) AND (mc.month = (date_trunc('month'::text, (b.paid_at AT TIME ZONE 'UTC'::text)))::date) AND (mc.closed_at < b.created_at))))))) AS jsonb_build_object FROM public.statement_runs r WHERE (r.id = statement_run_json.p_run));
CREATE TABLE public.access_overrides (
    id bigint NOT NULL,
    subscription_id uuid NOT NULL,
    until timestamp with time zone NOT NULL,
    note text NOT NULL,
    granted_by text DEFAULT SESSION_USER NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT access_overrides_check CHECK ((until > created_at)),
    CONSTRAINT access_overrides_note_check CHECK (((note <> ''::text) AND (octet_length(note) <= 4000)))
);
ALTER TABLE public.access_overrides ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.access_overrides_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE TABLE public.access_policies (
    provider_key text NOT NULL,
    grace_days integer NOT NULL,
    when_provider_gives_up text NOT NULL,
    set_by text DEFAULT SESSION_USER NOT NULL,
    set_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT access_policies_grace_days_check CHECK (((grace_days >= 0) AND (grace_days <= 90))),
    CONSTRAINT access_policies_when_provider_gives_up_check CHECK ((when_provider_gives_up = ANY (ARRAY['block'::text, 'keep_until_period_end'::text])))
);
ALTER TABLE public.access_transitions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.access_transitions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE TABLE public.billing_period_payment_refs (
    provider_key public.rd_key NOT NULL,
    payment_ref public.rd_key NOT NULL,
    billing_period_id uuid NOT NULL
);
CREATE TABLE public.database_backups (
    id bigint NOT NULL,
    taken_at timestamp with time zone NOT NULL,
    recorded_at timestamp with time zone DEFAULT now() NOT NULL,
    taken_by text DEFAULT SESSION_USER NOT NULL,
    file_name text NOT NULL,
    file_bytes bigint NOT NULL,
    schema_version text NOT NULL,
    anchor_digest text NOT NULL,
    manifest jsonb NOT NULL,
    file_sha256 text,
    CONSTRAINT database_backups_anchor_digest_check CHECK ((anchor_digest ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT database_backups_file_bytes_check CHECK ((file_bytes >= 0)),
    CONSTRAINT database_backups_file_name_check CHECK (((octet_length(file_name) >= 1) AND (octet_length(file_name) <= 4096))),
    CONSTRAINT database_backups_file_sha256_check CHECK ((file_sha256 ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT database_backups_manifest_check CHECK ((jsonb_typeof(manifest) = 'object'::text)),
    CONSTRAINT database_backups_schema_version_check CHECK ((schema_version <> ''::text))
);
ALTER TABLE public.database_backups ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.database_backups_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE TABLE public.inbox_retention (
    only_row boolean DEFAULT true NOT NULL,
    days integer,
    set_by text DEFAULT SESSION_USER NOT NULL,
    set_at timestamp with time zone DEFAULT now() NOT NULL,
    swept_before timestamp with time zone,
    CONSTRAINT inbox_retention_days_check CHECK (((days >= 0) AND (days <= 36500))),
    CONSTRAINT inbox_retention_only_row_check CHECK (only_row)
);
CREATE TABLE public.iso_currencies (
    code text NOT NULL,
    minor_units smallint NOT NULL,
    CONSTRAINT iso_currencies_code_check CHECK ((code ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT iso_currencies_minor_units_check CHECK (((minor_units >= 0) AND (minor_units <= 4)))
);
COMMENT ON TABLE public.iso_currencies IS 'ISO 4217 active currencies and their minor units (migration 0028; the C++ table is built from the same rows)';
CREATE TABLE public.money_back_daily_totals (
    day date NOT NULL,
    provider_key text NOT NULL,
    currency text NOT NULL,
    kind text NOT NULL,
    movements bigint NOT NULL,
    amount_minor numeric NOT NULL
);
CREATE TABLE public.money_back_deltas (
    day date NOT NULL,
    provider_key text NOT NULL,
    currency text NOT NULL,
    kind text NOT NULL,
    movements bigint NOT NULL,
    amount_minor numeric NOT NULL
);
ALTER TABLE public.month_closes ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.month_closes_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE TABLE public.operator_reason_codes (
    code text NOT NULL,
    CONSTRAINT operator_reason_codes_code_check CHECK ((code ~ '^[a-z][a-z0-9_]{1,62}$'::text))
);
ALTER TABLE public.payment_attempts ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.payment_attempts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE TABLE public.provider_snapshots (
    id bigint NOT NULL,
    subscription_id uuid NOT NULL,
    provider_key text NOT NULL,
    provider_subscription_id text NOT NULL,
    snapshot jsonb NOT NULL,
    fingerprint text NOT NULL,
    captured_at timestamp with time zone NOT NULL,
    changes jsonb NOT NULL,
    billing_period_id uuid,
    case_id bigint,
    attached_by text DEFAULT SESSION_USER NOT NULL,
    reason text NOT NULL,
    comment text,
    attached_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE public.provider_snapshots ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.provider_snapshots_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
ALTER TABLE public.provider_standing_facts ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.provider_standing_facts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE SEQUENCE public.rd_preview_ids
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;
CREATE TABLE public.rd_work_locks (
    name text NOT NULL,
    CONSTRAINT rd_work_locks_name_check CHECK (((length(name) >= 1) AND (length(name) <= 600)))
);
ALTER TABLE public.reconciliation_case_history ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.reconciliation_case_history_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
ALTER TABLE public.reconciliation_cases ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.reconciliation_cases_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE TABLE public.renewal_daily_totals (
    day date NOT NULL,
    provider_key text NOT NULL,
    currency text NOT NULL,
    recorded_by text NOT NULL,
    renewals bigint NOT NULL,
    amount_minor numeric NOT NULL
);
CREATE TABLE public.renewal_period_start_totals (
    day date NOT NULL,
    provider_key text NOT NULL,
    currency text NOT NULL,
    recorded_by text NOT NULL,
    renewals bigint NOT NULL,
    amount_minor numeric NOT NULL
);
CREATE TABLE public.renewal_total_deltas (
    day date NOT NULL,
    provider_key text NOT NULL,
    currency text NOT NULL,
    recorded_by text NOT NULL,
    renewals bigint NOT NULL,
    amount_minor numeric NOT NULL,
    period_start_day date NOT NULL
);
CREATE TABLE public.schema_migrations (
    version integer NOT NULL,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);
CREATE TABLE public.schema_repeatables (
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE public.statement_runs ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.statement_runs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE TABLE public.subscription_outbox (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    event_type text NOT NULL,
    subscription_id uuid NOT NULL,
    billing_period_id uuid,
    payload jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    last_error text,
    published_at timestamp with time zone
);
ALTER TABLE public.subscription_transition_audits ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.subscription_transition_audits_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE TABLE public.webhook_inbox (
    id bigint NOT NULL,
    provider_key text NOT NULL,
    provider_event_id text NOT NULL,
    raw_body bytea,
    body_size bigint NOT NULL,
    body_sha256 text NOT NULL,
    body_truncated boolean GENERATED ALWAYS AS ((octet_length(raw_body) < body_size)) STORED,
    received_at timestamp with time zone DEFAULT now() NOT NULL,
    deliveries integer DEFAULT 1 NOT NULL,
    last_delivery_at timestamp with time zone DEFAULT now() NOT NULL,
    outcome text,
    reason text,
    error text,
    billing_period_id uuid,
    case_id bigint,
    normalized jsonb,
    processed_at timestamp with time zone,
    ingest_token uuid,
    body_removal_id bigint,
    CONSTRAINT webhook_inbox_body_is_its_hash CHECK (((raw_body IS NULL) OR (octet_length(raw_body) < body_size) OR ((octet_length(raw_body) = body_size) AND (body_sha256 = encode(sha256(raw_body), 'hex'::text))))),
    CONSTRAINT webhook_inbox_body_removed_by_a_record CHECK (((raw_body IS NULL) = (body_removal_id IS NOT NULL))),
    CONSTRAINT webhook_inbox_body_sha256_check CHECK ((body_sha256 ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT webhook_inbox_body_size_check CHECK ((body_size >= 0)),
    CONSTRAINT webhook_inbox_deliveries_check CHECK ((deliveries > 0)),
    CONSTRAINT webhook_inbox_event_id_bounded CHECK (((provider_event_id <> ''::text) AND (octet_length(provider_event_id) <= 255))),
    CONSTRAINT webhook_inbox_outcome_check CHECK ((outcome = ANY (ARRAY['applied'::text, 'duplicate'::text, 'not_a_renewal'::text, 'needs_snapshot'::text, 'rejected'::text, 'invalid'::text, 'recorded'::text]))),
    CONSTRAINT webhook_inbox_processed_consistent CHECK (((outcome IS NULL) = (processed_at IS NULL))),
    CONSTRAINT webhook_inbox_raw_body_check CHECK ((octet_length(raw_body) <= 1048576))
);
CREATE TABLE public.webhook_inbox_daily (
    day date NOT NULL,
    outcome text NOT NULL,
    deliveries bigint NOT NULL
);
CREATE TABLE public.webhook_inbox_daily_state (
    only_row boolean DEFAULT true NOT NULL,
    folded_before date NOT NULL,
    CONSTRAINT webhook_inbox_daily_state_only_row_check CHECK (only_row)
);
ALTER TABLE public.webhook_inbox ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.webhook_inbox_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE TABLE public.webhook_inbox_removals (
    id bigint NOT NULL,
    kind text NOT NULL,
    removed_by text DEFAULT SESSION_USER NOT NULL,
    removed_at timestamp with time zone DEFAULT now() NOT NULL,
    run uuid,
    retention_days integer,
    configured boolean,
    received_before timestamp with time zone,
    request text,
    provider_key text,
    provider_subscription_id text,
    bodies integer NOT NULL,
    bytes bigint NOT NULL,
    first_inbox_id bigint,
    last_inbox_id bigint,
    first_received_at timestamp with time zone,
    last_received_at timestamp with time zone,
    open_cases integer DEFAULT 0 NOT NULL,
    already_removed integer DEFAULT 0 NOT NULL,
    customer_email_hashes integer,
    CONSTRAINT webhook_inbox_removal_range CHECK (((bodies = 0) = (first_inbox_id IS NULL))),
    CONSTRAINT webhook_inbox_removal_says_why CHECK (
CASE kind
    WHEN 'retention'::text THEN ((run IS NOT NULL) AND (retention_days IS NOT NULL) AND (configured IS NOT NULL) AND (received_before IS NOT NULL) AND (request IS NULL))
    ELSE ((public.rd_note_text(request) IS NOT NULL) AND ((provider_subscription_id IS NOT NULL) <> (customer_email_hashes IS NOT NULL)))
END),
    CONSTRAINT webhook_inbox_removals_already_removed_check CHECK ((already_removed >= 0)),
    CONSTRAINT webhook_inbox_removals_bodies_check CHECK ((bodies >= 0)),
    CONSTRAINT webhook_inbox_removals_bytes_check CHECK ((bytes >= 0)),
    CONSTRAINT webhook_inbox_removals_customer_email_hashes_check CHECK ((customer_email_hashes >= 0)),
    CONSTRAINT webhook_inbox_removals_kind_check CHECK ((kind = ANY (ARRAY['retention'::text, 'erasure'::text]))),
    CONSTRAINT webhook_inbox_removals_open_cases_check CHECK ((open_cases >= 0)),
    CONSTRAINT webhook_inbox_removals_retention_days_check CHECK ((retention_days >= 0))
);
ALTER TABLE public.webhook_inbox_removals ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.webhook_inbox_removals_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);
CREATE TABLE public.webhook_inbox_reviews (
    inbox_id bigint NOT NULL,
    reviewed_by text DEFAULT SESSION_USER NOT NULL,
    reviewed_at timestamp with time zone DEFAULT now() NOT NULL,
    note text NOT NULL,
    rerun_inbox_id bigint,
    CONSTRAINT webhook_inbox_reviews_note_check CHECK ((public.rd_note_text(note) IS NOT NULL))
);
ALTER TABLE ONLY public.access_overrides
    ADD CONSTRAINT access_overrides_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.access_policies
    ADD CONSTRAINT access_policies_pkey PRIMARY KEY (provider_key);
ALTER TABLE ONLY public.access_transitions
    ADD CONSTRAINT access_transitions_once UNIQUE (subscription_id, seq);
ALTER TABLE ONLY public.access_transitions
    ADD CONSTRAINT access_transitions_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.access_verdicts
    ADD CONSTRAINT access_verdicts_pkey PRIMARY KEY (subscription_id);
ALTER TABLE ONLY public.billing_period_payment_refs
    ADD CONSTRAINT billing_period_payment_refs_pkey PRIMARY KEY (provider_key, payment_ref);
ALTER TABLE ONLY public.subscription_billing_periods
    ADD CONSTRAINT billing_period_renewal_key_unique UNIQUE (provider_key, provider_renewal_key);
ALTER TABLE ONLY public.subscription_billing_periods
    ADD CONSTRAINT billing_period_subscription_period_unique UNIQUE (subscription_id, period_start, period_end);
ALTER TABLE ONLY public.billing_providers
    ADD CONSTRAINT billing_providers_pkey PRIMARY KEY (provider_key);
ALTER TABLE ONLY public.customer_email_key
    ADD CONSTRAINT customer_email_key_pkey PRIMARY KEY (only_row);
ALTER TABLE ONLY public.database_backups
    ADD CONSTRAINT database_backups_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.inbox_retention
    ADD CONSTRAINT inbox_retention_pkey PRIMARY KEY (only_row);
ALTER TABLE ONLY public.iso_currencies
    ADD CONSTRAINT iso_currencies_pkey PRIMARY KEY (code);
ALTER TABLE ONLY public.money_back_daily_totals
    ADD CONSTRAINT money_back_daily_totals_pkey PRIMARY KEY (day, provider_key, currency, kind);
ALTER TABLE ONLY public.money_movements
    ADD CONSTRAINT money_movements_once UNIQUE (provider_key, movement_key, kind);
ALTER TABLE ONLY public.money_movements
    ADD CONSTRAINT money_movements_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.month_closes
    ADD CONSTRAINT month_closes_once UNIQUE (provider_key, month);
ALTER TABLE ONLY public.month_closes
    ADD CONSTRAINT month_closes_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.operator_reason_codes
    ADD CONSTRAINT operator_reason_codes_pkey PRIMARY KEY (code);
ALTER TABLE ONLY public.payment_attempts
    ADD CONSTRAINT payment_attempts_id_key UNIQUE (id);
ALTER TABLE ONLY public.payment_attempts
    ADD CONSTRAINT payment_attempts_pkey PRIMARY KEY (provider_key, invoice_key, attempt);
ALTER TABLE ONLY public.provider_snapshots
    ADD CONSTRAINT provider_snapshots_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.provider_standing_facts
    ADD CONSTRAINT provider_standing_facts_once UNIQUE (subscription_id, observed_at, standing);
ALTER TABLE ONLY public.provider_standing_facts
    ADD CONSTRAINT provider_standing_facts_pkey PRIMARY KEY (id);
ALTER DOMAIN public.rd_actor_type
    ADD CONSTRAINT rd_actor_type_known CHECK ((VALUE = ANY (ARRAY['webhook'::text, 'operator'::text, 'import'::text, 'system'::text, 'statement'::text, 'cli'::text, 'sweep'::text]))) NOT VALID;
ALTER DOMAIN public.rd_recorded_by
    ADD CONSTRAINT rd_recorded_by_known CHECK ((VALUE = ANY (ARRAY['webhook'::text, 'operator'::text, 'snapshot'::text, 'import'::text, 'statement'::text, 'cli'::text]))) NOT VALID;
ALTER TABLE ONLY public.rd_work_locks
    ADD CONSTRAINT rd_work_locks_pkey PRIMARY KEY (name);
ALTER TABLE public.reconciliation_cases
    ADD CONSTRAINT reconciliation_case_dismissed_has_note CHECK (((status <> 'dismissed'::text) OR (public.rd_note_text(resolution_comment) IS NOT NULL))) NOT VALID;
ALTER TABLE ONLY public.reconciliation_case_history
    ADD CONSTRAINT reconciliation_case_history_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.reconciliation_cases
    ADD CONSTRAINT reconciliation_cases_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.renewal_daily_totals
    ADD CONSTRAINT renewal_daily_totals_pkey PRIMARY KEY (day, provider_key, currency, recorded_by);
ALTER TABLE ONLY public.renewal_period_start_totals
    ADD CONSTRAINT renewal_period_start_totals_pkey PRIMARY KEY (day, provider_key, currency, recorded_by);
ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);
ALTER TABLE ONLY public.schema_repeatables
    ADD CONSTRAINT schema_repeatables_pkey PRIMARY KEY (name);
ALTER TABLE ONLY public.statement_lines
    ADD CONSTRAINT statement_lines_key_once UNIQUE (run_id, provider_renewal_key);
ALTER TABLE ONLY public.statement_lines
    ADD CONSTRAINT statement_lines_pkey PRIMARY KEY (run_id, line_no);
ALTER TABLE ONLY public.statement_runs
    ADD CONSTRAINT statement_runs_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.subscription_billing_periods
    ADD CONSTRAINT subscription_billing_periods_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.subscription_outbox
    ADD CONSTRAINT subscription_outbox_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.subscription_transition_audits
    ADD CONSTRAINT subscription_transition_audits_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.subscriptions
    ADD CONSTRAINT subscriptions_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.subscriptions
    ADD CONSTRAINT subscriptions_provider_subscription_unique UNIQUE (provider_key, provider_subscription_id);
ALTER TABLE ONLY public.webhook_inbox_daily
    ADD CONSTRAINT webhook_inbox_daily_pkey PRIMARY KEY (day, outcome);
ALTER TABLE ONLY public.webhook_inbox_daily_state
    ADD CONSTRAINT webhook_inbox_daily_state_pkey PRIMARY KEY (only_row);
ALTER TABLE ONLY public.webhook_inbox
    ADD CONSTRAINT webhook_inbox_delivery_once UNIQUE (provider_key, provider_event_id);
ALTER TABLE ONLY public.webhook_inbox
    ADD CONSTRAINT webhook_inbox_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.webhook_inbox_removals
    ADD CONSTRAINT webhook_inbox_removals_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.webhook_inbox_reviews
    ADD CONSTRAINT webhook_inbox_reviews_pkey PRIMARY KEY (inbox_id);
CREATE INDEX access_overrides_by_subscription ON public.access_overrides USING btree (subscription_id, created_at DESC, id DESC);
CREATE INDEX access_transitions_by_time ON public.access_transitions USING btree (created_at, id);
CREATE INDEX access_verdicts_in_trouble ON public.access_verdicts USING btree (subscription_id) WHERE (verdict = ANY (ARRAY['in_grace'::text, 'blocked'::text]));
CREATE INDEX billing_periods_by_event_id ON public.subscription_billing_periods USING btree (provider_key, provider_event_id);
CREATE INDEX billing_periods_ledger_by_paid_at ON public.subscription_billing_periods USING btree (provider_key, currency, recorded_by, paid_at, id);
CREATE INDEX billing_periods_ledger_by_period_start ON public.subscription_billing_periods USING btree (provider_key, currency, recorded_by, period_start, id);
CREATE INDEX database_backups_newest ON public.database_backups USING btree (taken_at DESC);
CREATE INDEX money_movements_after_close ON public.money_movements USING btree (provider_key) WHERE after_close;
CREATE INDEX money_movements_by_billing_period ON public.money_movements USING btree (billing_period_id);
CREATE INDEX money_movements_by_day ON public.money_movements USING btree (provider_key, currency, occurred_at, id);
CREATE INDEX payment_attempts_by_subscription ON public.payment_attempts USING btree (subscription_id, failed_at);
CREATE INDEX provider_snapshots_by_subscription ON public.provider_snapshots USING btree (subscription_id, captured_at DESC, id DESC);
CREATE INDEX provider_standing_facts_newest ON public.provider_standing_facts USING btree (subscription_id, observed_at DESC, id DESC);
CREATE INDEX reconciliation_case_history_by_provider ON public.reconciliation_case_history USING btree (provider_key, created_at, id);
CREATE UNIQUE INDEX reconciliation_case_history_chain ON public.reconciliation_case_history USING btree (case_id, chain_seq);
CREATE INDEX reconciliation_case_history_recent ON public.reconciliation_case_history USING btree (created_at, id);
CREATE INDEX reconciliation_cases_by_age ON public.reconciliation_cases USING btree (status, first_seen_at, id);
CREATE INDEX reconciliation_cases_by_first_event_id ON public.reconciliation_cases USING btree (provider_key, first_provider_event_id);
CREATE INDEX reconciliation_cases_by_last_event_id ON public.reconciliation_cases USING btree (provider_key, last_provider_event_id);
CREATE INDEX reconciliation_cases_by_provider_subscription ON public.reconciliation_cases USING btree (provider_key, provider_subscription_id);
CREATE INDEX reconciliation_cases_by_renewal_key ON public.reconciliation_cases USING btree (provider_key, provider_renewal_key);
CREATE INDEX reconciliation_cases_by_subscription ON public.reconciliation_cases USING btree (subscription_id) WHERE (subscription_id IS NOT NULL);
CREATE INDEX reconciliation_cases_closed ON public.reconciliation_cases USING btree (resolved_at) WHERE (resolved_at IS NOT NULL);
CREATE INDEX reconciliation_cases_id_contains ON public.reconciliation_cases USING gin (provider_subscription_id public.gin_trgm_ops);
CREATE INDEX reconciliation_cases_money_back_waiting ON public.reconciliation_cases USING btree (provider_key) WHERE ((status = 'open'::text) AND (error_code = 'refund_without_renewal'::text));
CREATE INDEX reconciliation_cases_open_by_assignee ON public.reconciliation_cases USING btree (assigned_to, last_seen_at DESC, id) WHERE (status = 'open'::text);
CREATE INDEX reconciliation_cases_open_inbox ON public.reconciliation_cases USING btree (inbox_id) WHERE (status = 'open'::text);
CREATE UNIQUE INDEX reconciliation_cases_open_once ON public.reconciliation_cases USING btree (provider_key, provider_renewal_key, event_fingerprint, error_code) WHERE (status = 'open'::text);
CREATE INDEX reconciliation_cases_queue ON public.reconciliation_cases USING btree (status, last_seen_at DESC, id);
CREATE INDEX reconciliation_cases_waiting_for_predecessor ON public.reconciliation_cases USING btree (subscription_id, renewal_period_start) WHERE ((status = 'open'::text) AND (error_code = 'renewal_period_is_not_contiguous'::text));
CREATE INDEX statement_lines_cases ON public.statement_lines USING btree (case_id) WHERE (case_id IS NOT NULL);
CREATE INDEX statement_runs_by_provider ON public.statement_runs USING btree (provider_key, covers_from, covers_to);
CREATE INDEX subscription_audits_by_actor ON public.subscription_transition_audits USING btree (actor_id, created_at, id) WHERE ((actor_type)::text <> 'webhook'::text);
CREATE INDEX subscription_audits_by_provider_role ON public.subscription_transition_audits USING btree (provider_key, db_role, created_at, id);
CREATE INDEX subscription_audits_by_transition ON public.subscription_transition_audits USING btree (transition, created_at, id) WHERE ((transition)::text <> 'subscription_renewed'::text);
CREATE UNIQUE INDEX subscription_audits_chain ON public.subscription_transition_audits USING btree (subscription_id, chain_seq);
CREATE UNIQUE INDEX subscription_money_movement_audit_once ON public.subscription_transition_audits USING btree (((details ->> 'movementId'::text))) WHERE ((transition)::text = 'money_movement_recorded'::text);
CREATE INDEX subscription_outbox_by_subscription ON public.subscription_outbox USING btree (subscription_id);
CREATE UNIQUE INDEX subscription_outbox_money_movement_once ON public.subscription_outbox USING btree (((payload ->> 'movementId'::text))) WHERE (payload ? 'movementId'::text);
CREATE UNIQUE INDEX subscription_outbox_once_per_period ON public.subscription_outbox USING btree (event_type, billing_period_id) WHERE (NOT (payload ? 'movementId'::text));
CREATE INDEX subscription_outbox_pending ON public.subscription_outbox USING btree (next_attempt_at) WHERE (published_at IS NULL);
CREATE INDEX subscription_outbox_published ON public.subscription_outbox USING btree (published_at) WHERE (published_at IS NOT NULL);
CREATE UNIQUE INDEX subscription_renewal_audit_once ON public.subscription_transition_audits USING btree (billing_period_id) WHERE ((transition)::text = 'subscription_renewed'::text);
CREATE INDEX subscriptions_id_contains ON public.subscriptions USING gin (provider_subscription_id public.gin_trgm_ops);
CREATE INDEX subscriptions_id_search ON public.subscriptions USING btree (provider_key, provider_subscription_id COLLATE "C");
CREATE INDEX subscriptions_overdue_watch ON public.subscriptions USING btree (provider_key, current_period_end) WHERE (((status)::text = 'active'::text) AND (NOT cancel_at_period_end));
CREATE INDEX subscriptions_period_end_browse ON public.subscriptions USING btree (current_period_end, provider_key, provider_subscription_id);
CREATE INDEX subscriptions_status_browse ON public.subscriptions USING btree (status, provider_key, provider_subscription_id);
CREATE INDEX webhook_inbox_by_customer_email ON public.webhook_inbox USING btree (((normalized ->> 'customerEmailHmac'::text))) WHERE ((normalized ->> 'customerEmailHmac'::text) IS NOT NULL);
CREATE INDEX webhook_inbox_by_outcome ON public.webhook_inbox USING btree (outcome, received_at DESC, id DESC);
CREATE INDEX webhook_inbox_by_provider_subscription ON public.webhook_inbox USING btree (provider_key, ((normalized ->> 'providerSubscriptionId'::text))) WHERE ((normalized ->> 'providerSubscriptionId'::text) IS NOT NULL);
CREATE INDEX webhook_inbox_recent ON public.webhook_inbox USING btree (received_at DESC, id DESC);
CREATE INDEX webhook_inbox_unprocessed ON public.webhook_inbox USING btree (received_at) WHERE (outcome IS NULL);
CREATE TRIGGER access_overrides_insert_only BEFORE DELETE OR UPDATE ON public.access_overrides FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER access_overrides_no_truncate BEFORE TRUNCATE ON public.access_overrides FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER access_transitions_insert_only BEFORE DELETE OR UPDATE ON public.access_transitions FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER access_transitions_no_truncate BEFORE TRUNCATE ON public.access_transitions FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER billing_period_payment_refs_insert_only BEFORE DELETE OR UPDATE ON public.billing_period_payment_refs FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER billing_period_payment_refs_no_truncate BEFORE TRUNCATE ON public.billing_period_payment_refs FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER money_movements_insert_only BEFORE DELETE OR UPDATE ON public.money_movements FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER money_movements_no_truncate BEFORE TRUNCATE ON public.money_movements FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER month_closes_no_truncate BEFORE TRUNCATE ON public.month_closes FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER month_closes_written_once BEFORE DELETE OR UPDATE ON public.month_closes FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER payment_attempts_insert_only BEFORE DELETE OR UPDATE ON public.payment_attempts FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER payment_attempts_no_truncate BEFORE TRUNCATE ON public.payment_attempts FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER provider_snapshots_immutable BEFORE DELETE OR UPDATE ON public.provider_snapshots FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE CONSTRAINT TRIGGER provider_snapshots_no_preview_kept AFTER INSERT ON public.provider_snapshots DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ((new.id < 0)) EXECUTE FUNCTION public.rd_refuse_preview_row();
CREATE TRIGGER provider_snapshots_not_from_the_future BEFORE INSERT ON public.provider_snapshots FOR EACH ROW EXECUTE FUNCTION public.rd_snapshot_not_from_the_future();
CREATE TRIGGER provider_standing_facts_insert_only BEFORE DELETE OR UPDATE ON public.provider_standing_facts FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER provider_standing_facts_no_truncate BEFORE TRUNCATE ON public.provider_standing_facts FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER reconciliation_case_history_append_only BEFORE DELETE OR UPDATE ON public.reconciliation_case_history FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER reconciliation_case_history_chain_link BEFORE INSERT ON public.reconciliation_case_history FOR EACH ROW EXECUTE FUNCTION public.rd_chain_link();
CREATE TRIGGER reconciliation_case_history_no_truncate BEFORE TRUNCATE ON public.reconciliation_case_history FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();
CREATE CONSTRAINT TRIGGER reconciliation_cases_no_preview_kept AFTER INSERT ON public.reconciliation_cases DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ((new.id < 0)) EXECUTE FUNCTION public.rd_refuse_preview_row();
CREATE TRIGGER reconciliation_cases_notify AFTER INSERT OR UPDATE ON public.reconciliation_cases FOR EACH ROW EXECUTE FUNCTION public.rd_notify_case_changed();
CREATE TRIGGER statement_lines_insert_only BEFORE DELETE OR UPDATE ON public.statement_lines FOR EACH ROW EXECUTE FUNCTION public.rd_statement_run_guard();
CREATE TRIGGER statement_lines_no_truncate BEFORE TRUNCATE ON public.statement_lines FOR EACH STATEMENT EXECUTE FUNCTION public.rd_statement_run_guard();
CREATE CONSTRAINT TRIGGER statement_runs_finished_at_commit AFTER INSERT ON public.statement_runs DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.rd_statement_run_finished();
CREATE CONSTRAINT TRIGGER statement_runs_no_preview_kept AFTER INSERT ON public.statement_runs DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ((new.id < 0)) EXECUTE FUNCTION public.rd_refuse_preview_row();
CREATE TRIGGER statement_runs_no_truncate BEFORE TRUNCATE ON public.statement_runs FOR EACH STATEMENT EXECUTE FUNCTION public.rd_statement_run_guard();
CREATE TRIGGER statement_runs_written_once BEFORE DELETE OR UPDATE ON public.statement_runs FOR EACH ROW EXECUTE FUNCTION public.rd_statement_run_guard();
CREATE TRIGGER subscription_audits_append_only BEFORE DELETE OR UPDATE ON public.subscription_transition_audits FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER subscription_audits_chain_link BEFORE INSERT ON public.subscription_transition_audits FOR EACH ROW EXECUTE FUNCTION public.rd_chain_link();
CREATE TRIGGER subscription_audits_no_truncate BEFORE TRUNCATE ON public.subscription_transition_audits FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER subscription_billing_periods_insert_only BEFORE DELETE OR UPDATE ON public.subscription_billing_periods FOR EACH ROW EXECUTE FUNCTION public.rd_billing_periods_insert_only();
CREATE TRIGGER subscription_billing_periods_no_truncate BEFORE TRUNCATE ON public.subscription_billing_periods FOR EACH STATEMENT EXECUTE FUNCTION public.rd_billing_periods_insert_only();
CREATE TRIGGER subscription_billing_periods_totals AFTER INSERT ON public.subscription_billing_periods FOR EACH ROW WHEN ((current_setting('renewal_desk.core_counts'::text, true) IS DISTINCT FROM 'on'::text)) EXECUTE FUNCTION public.rd_billing_period_to_delta();
CREATE TRIGGER subscriptions_notify_insert AFTER INSERT ON public.subscriptions FOR EACH STATEMENT EXECUTE FUNCTION public.rd_notify_subscriptions_changed();
CREATE TRIGGER webhook_inbox_removals_no_truncate BEFORE TRUNCATE ON public.webhook_inbox_removals FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER webhook_inbox_removals_written_once BEFORE DELETE OR UPDATE ON public.webhook_inbox_removals FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
ALTER TABLE ONLY public.access_overrides
    ADD CONSTRAINT access_overrides_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES public.subscriptions(id);
ALTER TABLE ONLY public.access_policies
    ADD CONSTRAINT access_policies_provider_key_fkey FOREIGN KEY (provider_key) REFERENCES public.billing_providers(provider_key);
ALTER TABLE ONLY public.access_transitions
    ADD CONSTRAINT access_transitions_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES public.subscriptions(id);
ALTER TABLE ONLY public.access_verdicts
    ADD CONSTRAINT access_verdicts_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES public.subscriptions(id);
ALTER TABLE ONLY public.access_verdicts
    ADD CONSTRAINT access_verdicts_transition_id_fkey FOREIGN KEY (transition_id) REFERENCES public.access_transitions(id);
ALTER TABLE ONLY public.billing_period_payment_refs
    ADD CONSTRAINT billing_period_payment_refs_billing_period_id_fkey FOREIGN KEY (billing_period_id) REFERENCES public.subscription_billing_periods(id);
ALTER TABLE ONLY public.money_movements
    ADD CONSTRAINT money_movements_billing_period_id_fkey FOREIGN KEY (billing_period_id) REFERENCES public.subscription_billing_periods(id);
ALTER TABLE ONLY public.money_movements
    ADD CONSTRAINT money_movements_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES public.subscriptions(id);
ALTER TABLE ONLY public.month_closes
    ADD CONSTRAINT month_closes_provider_key_fkey FOREIGN KEY (provider_key) REFERENCES public.billing_providers(provider_key);
ALTER TABLE ONLY public.payment_attempts
    ADD CONSTRAINT payment_attempts_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES public.subscriptions(id);
ALTER TABLE ONLY public.provider_snapshots
    ADD CONSTRAINT provider_snapshots_billing_period_id_fkey FOREIGN KEY (billing_period_id) REFERENCES public.subscription_billing_periods(id);
ALTER TABLE ONLY public.provider_snapshots
    ADD CONSTRAINT provider_snapshots_case_id_fkey FOREIGN KEY (case_id) REFERENCES public.reconciliation_cases(id);
ALTER TABLE ONLY public.provider_snapshots
    ADD CONSTRAINT provider_snapshots_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES public.subscriptions(id);
ALTER TABLE ONLY public.provider_standing_facts
    ADD CONSTRAINT provider_standing_facts_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES public.subscriptions(id);
ALTER TABLE ONLY public.reconciliation_case_history
    ADD CONSTRAINT reconciliation_case_history_case_id_fkey FOREIGN KEY (case_id) REFERENCES public.reconciliation_cases(id);
ALTER TABLE ONLY public.reconciliation_cases
    ADD CONSTRAINT reconciliation_cases_billing_period_id_fkey FOREIGN KEY (billing_period_id) REFERENCES public.subscription_billing_periods(id);
ALTER TABLE ONLY public.reconciliation_cases
    ADD CONSTRAINT reconciliation_cases_inbox_id_fkey FOREIGN KEY (inbox_id) REFERENCES public.webhook_inbox(id);
ALTER TABLE ONLY public.reconciliation_cases
    ADD CONSTRAINT reconciliation_cases_snapshot_id_fkey FOREIGN KEY (snapshot_id) REFERENCES public.provider_snapshots(id);
ALTER TABLE ONLY public.reconciliation_cases
    ADD CONSTRAINT reconciliation_cases_statement_run_id_fkey FOREIGN KEY (statement_run_id) REFERENCES public.statement_runs(id);
ALTER TABLE ONLY public.reconciliation_cases
    ADD CONSTRAINT reconciliation_cases_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES public.subscriptions(id);
ALTER TABLE ONLY public.statement_lines
    ADD CONSTRAINT statement_lines_billing_period_id_fkey FOREIGN KEY (billing_period_id) REFERENCES public.subscription_billing_periods(id);
ALTER TABLE ONLY public.statement_lines
    ADD CONSTRAINT statement_lines_case_id_fkey FOREIGN KEY (case_id) REFERENCES public.reconciliation_cases(id);
ALTER TABLE ONLY public.statement_lines
    ADD CONSTRAINT statement_lines_money_movement_id_fkey FOREIGN KEY (money_movement_id) REFERENCES public.money_movements(id);
ALTER TABLE ONLY public.statement_lines
    ADD CONSTRAINT statement_lines_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.statement_runs(id);
ALTER TABLE ONLY public.statement_runs
    ADD CONSTRAINT statement_runs_provider_key_fkey FOREIGN KEY (provider_key) REFERENCES public.billing_providers(provider_key);
ALTER TABLE ONLY public.statement_runs
    ADD CONSTRAINT statement_runs_repeats_run_fkey FOREIGN KEY (repeats_run) REFERENCES public.statement_runs(id);
ALTER TABLE ONLY public.subscription_billing_periods
    ADD CONSTRAINT subscription_billing_periods_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES public.subscriptions(id);
ALTER TABLE ONLY public.subscription_outbox
    ADD CONSTRAINT subscription_outbox_billing_period_id_fkey FOREIGN KEY (billing_period_id) REFERENCES public.subscription_billing_periods(id);
ALTER TABLE ONLY public.subscription_outbox
    ADD CONSTRAINT subscription_outbox_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES public.subscriptions(id);
ALTER TABLE ONLY public.subscription_transition_audits
    ADD CONSTRAINT subscription_transition_audits_billing_period_id_fkey FOREIGN KEY (billing_period_id) REFERENCES public.subscription_billing_periods(id);
ALTER TABLE ONLY public.subscription_transition_audits
    ADD CONSTRAINT subscription_transition_audits_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES public.subscriptions(id);
ALTER TABLE ONLY public.webhook_inbox
    ADD CONSTRAINT webhook_inbox_billing_period_id_fkey FOREIGN KEY (billing_period_id) REFERENCES public.subscription_billing_periods(id);
ALTER TABLE ONLY public.webhook_inbox
    ADD CONSTRAINT webhook_inbox_body_removal_id_fkey FOREIGN KEY (body_removal_id) REFERENCES public.webhook_inbox_removals(id);
ALTER TABLE ONLY public.webhook_inbox
    ADD CONSTRAINT webhook_inbox_case_id_fkey FOREIGN KEY (case_id) REFERENCES public.reconciliation_cases(id);
ALTER TABLE ONLY public.webhook_inbox
    ADD CONSTRAINT webhook_inbox_provider_key_fkey FOREIGN KEY (provider_key) REFERENCES public.billing_providers(provider_key);
ALTER TABLE ONLY public.webhook_inbox_reviews
    ADD CONSTRAINT webhook_inbox_reviews_inbox_id_fkey FOREIGN KEY (inbox_id) REFERENCES public.webhook_inbox(id);
ALTER TABLE ONLY public.webhook_inbox_reviews
    ADD CONSTRAINT webhook_inbox_reviews_rerun_inbox_id_fkey FOREIGN KEY (rerun_inbox_id) REFERENCES public.webhook_inbox(id);
GRANT USAGE ON SCHEMA public TO renewal_viewer;
REVOKE ALL ON FUNCTION pg_catalog.lo_creat(integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION pg_catalog.lo_create(oid) FROM PUBLIC;
REVOKE ALL ON FUNCTION pg_catalog.lo_from_bytea(oid, bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.access_sweep(p_now timestamp with time zone, p_after uuid, p_limit integer, OUT examined integer, OUT changed integer, OUT last_id uuid) FROM PUBLIC;
GRANT ALL ON FUNCTION public.access_sweep(p_now timestamp with time zone, p_after uuid, p_limit integer, OUT examined integer, OUT changed integer, OUT last_id uuid) TO renewal_ingest;
GRANT ALL ON FUNCTION public.access_sweep(p_now timestamp with time zone, p_after uuid, p_limit integer, OUT examined integer, OUT changed integer, OUT last_id uuid) TO renewal_operator;
REVOKE ALL ON FUNCTION public.access_trouble(p_now timestamp with time zone, p_provider_key text, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.access_trouble(p_now timestamp with time zone, p_provider_key text, p_limit integer) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_access_verdict(p_subscription_id uuid, p_now timestamp with time zone, OUT verdict text, OUT since timestamp with time zone, OUT until timestamp with time zone, OUT source text, OUT reason text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_access_verdict(p_subscription_id uuid, p_now timestamp with time zone, OUT verdict text, OUT since timestamp with time zone, OUT until timestamp with time zone, OUT source text, OUT reason text) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_rfc3339(t timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_rfc3339(t timestamp with time zone) TO renewal_viewer;
GRANT SELECT ON TABLE public.access_transitions TO renewal_viewer;
GRANT SELECT ON TABLE public.access_verdicts TO renewal_viewer;
GRANT SELECT ON TABLE public.payment_attempts TO renewal_viewer;
GRANT SELECT ON TABLE public.provider_standing_facts TO renewal_viewer;
GRANT SELECT ON TABLE public.subscription_billing_periods TO renewal_viewer;
GRANT SELECT ON TABLE public.subscriptions TO renewal_viewer;
REVOKE ALL ON FUNCTION public.access_verdict_json(p_provider_key text, p_provider_subscription_id text, p_now timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.access_verdict_json(p_provider_key text, p_provider_subscription_id text, p_now timestamp with time zone) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.apply_cli_renewal(p_provider_key text, p_provider_event_id text, p_provider_subscription_id text, p_provider_renewal_key text, p_provider_version text, p_period_start timestamp with time zone, p_period_end timestamp with time zone, p_paid_amount_minor bigint, p_currency text, p_paid_at timestamp with time zone, p_billing_period_id uuid, OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.apply_cli_renewal(p_provider_key text, p_provider_event_id text, p_provider_subscription_id text, p_provider_renewal_key text, p_provider_version text, p_period_start timestamp with time zone, p_period_end timestamp with time zone, p_paid_amount_minor bigint, p_currency text, p_paid_at timestamp with time zone, p_billing_period_id uuid, OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb) TO renewal_ingest;
REVOKE ALL ON FUNCTION public.apply_successful_renewal(p_provider_key text, p_provider_event_id text, p_provider_subscription_id text, p_provider_renewal_key text, p_provider_version text, p_period_start timestamp with time zone, p_period_end timestamp with time zone, p_paid_amount_minor bigint, p_currency text, p_paid_at timestamp with time zone, p_actor_type text, p_actor_id text, p_billing_period_id uuid, OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.apply_webhook_renewal(p_provider_key text, p_provider_event_id text, p_provider_subscription_id text, p_provider_renewal_key text, p_provider_version text, p_period_start timestamp with time zone, p_period_end timestamp with time zone, p_paid_amount_minor bigint, p_currency text, p_paid_at timestamp with time zone, p_billing_period_id uuid, OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.apply_webhook_renewal(p_provider_key text, p_provider_event_id text, p_provider_subscription_id text, p_provider_renewal_key text, p_provider_version text, p_period_start timestamp with time zone, p_period_end timestamp with time zone, p_paid_amount_minor bigint, p_currency text, p_paid_at timestamp with time zone, p_billing_period_id uuid, OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb) TO renewal_ingest;
REVOKE ALL ON FUNCTION public.attach_provider_snapshot(p_snapshot jsonb, p_case_id bigint, p_reason text, p_comment text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.attach_provider_snapshot(p_snapshot jsonb, p_case_id bigint, p_reason text, p_comment text) TO renewal_operator;
REVOKE ALL ON FUNCTION public.audit_billing_period_breaks() FROM PUBLIC;
GRANT ALL ON FUNCTION public.audit_billing_period_breaks() TO renewal_viewer;
REVOKE ALL ON FUNCTION public.audit_case_history_heads() FROM PUBLIC;
GRANT ALL ON FUNCTION public.audit_case_history_heads() TO renewal_viewer;
REVOKE ALL ON FUNCTION public.audit_chain_breaks() FROM PUBLIC;
REVOKE ALL ON FUNCTION public.audit_chain_hash_at(p_chain text, p_chain_id text, p_seq bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.audit_chain_hash_at(p_chain text, p_chain_id text, p_seq bigint) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.audit_chain_heads() FROM PUBLIC;
GRANT ALL ON FUNCTION public.audit_chain_heads() TO renewal_viewer;
REVOKE ALL ON FUNCTION public.case_detail(p_case_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.case_detail(p_case_id bigint) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.claim_case(p_case_id bigint, p_comment text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.claim_case(p_case_id bigint, p_comment text) TO renewal_operator;
REVOKE ALL ON FUNCTION public.close_month(p_provider_key text, p_month date) FROM PUBLIC;
GRANT ALL ON FUNCTION public.close_month(p_provider_key text, p_month date) TO renewal_operator;
REVOKE ALL ON FUNCTION public.dismiss_case(p_case_id bigint, p_reason text, p_comment text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.dismiss_case(p_case_id bigint, p_reason text, p_comment text) TO renewal_operator;
REVOKE ALL ON FUNCTION public.erase_customer_email(p_email text, p_request text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.erase_customer_email(p_email text, p_request text) TO renewal_operator;
REVOKE ALL ON FUNCTION public.erase_inbox_bodies(p_provider_key text, p_provider_subscription_id text, p_request text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.erase_inbox_bodies(p_provider_key text, p_provider_subscription_id text, p_request text) TO renewal_operator;
REVOKE ALL ON FUNCTION public.extend_access(p_provider_key text, p_provider_subscription_id text, p_until timestamp with time zone, p_note text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.extend_access(p_provider_key text, p_provider_subscription_id text, p_until timestamp with time zone, p_note text) TO renewal_operator;
REVOKE ALL ON FUNCTION public.find_anything(p_text text, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.find_anything(p_text text, p_limit integer) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.fold_inbox_days() FROM PUBLIC;
GRANT ALL ON FUNCTION public.fold_inbox_days() TO renewal_viewer;
REVOKE ALL ON FUNCTION public.fold_money_back_totals() FROM PUBLIC;
GRANT ALL ON FUNCTION public.fold_money_back_totals() TO renewal_viewer;
REVOKE ALL ON FUNCTION public.fold_renewal_totals() FROM PUBLIC;
GRANT ALL ON FUNCTION public.fold_renewal_totals() TO renewal_viewer;
REVOKE ALL ON FUNCTION public.ingest_delivery(p_provider_key text, p_provider_event_id text, p_raw_body bytea, p_body_size bigint, p_body_sha256 text, p_outcome text, p_reason text, p_error text, p_normalized jsonb, p_event jsonb, p_token uuid, OUT outcome text, OUT inbox_id bigint, OUT billing_period_id uuid, OUT error_code text, OUT case_id bigint, OUT local_state jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.ingest_delivery(p_provider_key text, p_provider_event_id text, p_raw_body bytea, p_body_size bigint, p_body_sha256 text, p_outcome text, p_reason text, p_error text, p_normalized jsonb, p_event jsonb, p_token uuid, OUT outcome text, OUT inbox_id bigint, OUT billing_period_id uuid, OUT error_code text, OUT case_id bigint, OUT local_state jsonb) TO renewal_ingest;
REVOKE ALL ON FUNCTION public.money_back_totals(p_from date, p_to date) FROM PUBLIC;
GRANT ALL ON FUNCTION public.money_back_totals(p_from date, p_to date) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.month_close_refusal(p_provider_key text, p_month date) FROM PUBLIC;
GRANT ALL ON FUNCTION public.month_close_refusal(p_provider_key text, p_month date) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.month_close_refusal_reason(p_provider_key text, p_month date) FROM PUBLIC;
GRANT ALL ON FUNCTION public.month_close_refusal_reason(p_provider_key text, p_month date) TO renewal_viewer;
GRANT SELECT ON TABLE public.money_movements TO renewal_viewer;
GRANT SELECT ON TABLE public.month_closes TO renewal_viewer;
GRANT SELECT ON TABLE public.reconciliation_cases TO renewal_viewer;
GRANT SELECT ON TABLE public.statement_lines TO renewal_viewer;
GRANT SELECT ON TABLE public.statement_runs TO renewal_viewer;
REVOKE ALL ON FUNCTION public.month_close_report(p_provider_key text, p_month date) FROM PUBLIC;
GRANT ALL ON FUNCTION public.month_close_report(p_provider_key text, p_month date) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.note_case(p_case_id bigint, p_comment text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.note_case(p_case_id bigint, p_comment text) TO renewal_operator;
REVOKE ALL ON FUNCTION public.outbox_claim(p_batch integer, p_max_attempts integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.outbox_claim(p_batch integer, p_max_attempts integer) TO renewal_ingest;
REVOKE ALL ON FUNCTION public.outbox_mark_failed(p_id uuid, p_error text, p_base_delay interval, p_max_delay interval) FROM PUBLIC;
GRANT ALL ON FUNCTION public.outbox_mark_failed(p_id uuid, p_error text, p_base_delay interval, p_max_delay interval) TO renewal_ingest;
REVOKE ALL ON FUNCTION public.outbox_mark_published(p_ids uuid[]) FROM PUBLIC;
GRANT ALL ON FUNCTION public.outbox_mark_published(p_ids uuid[]) TO renewal_ingest;
REVOKE ALL ON FUNCTION public.overdue_subscription_counts(p_grace interval) FROM PUBLIC;
GRANT ALL ON FUNCTION public.overdue_subscription_counts(p_grace interval) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.overdue_subscriptions(p_grace interval, p_provider_key text, p_after_provider_key text, p_after_period_end timestamp with time zone, p_after_subscription_id text, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.overdue_subscriptions(p_grace interval, p_provider_key text, p_after_provider_key text, p_after_period_end timestamp with time zone, p_after_subscription_id text, p_limit integer) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.preview_provider_snapshot(p_snapshot jsonb, p_case_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.preview_provider_snapshot(p_snapshot jsonb, p_case_id bigint) TO renewal_operator;
REVOKE ALL ON FUNCTION public.purge_inbox_bodies(p_older_than_days integer, p_dry_run boolean, p_run uuid, p_after_received_at timestamp with time zone, p_after_id bigint, p_batch integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.purge_inbox_bodies(p_older_than_days integer, p_dry_run boolean, p_run uuid, p_after_received_at timestamp with time zone, p_after_id bigint, p_batch integer) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_access_candidates(p_now timestamp with time zone, p_after uuid, p_limit integer) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_access_candidates(p_now timestamp with time zone, p_after uuid, p_limit integer) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_access_settle(p_subscription_id uuid, p_now timestamp with time zone, p_actor_type text, p_actor_id text) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_after_reanchor(p_subscription_id uuid, p_snapshot_id bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_apply_case_event(e jsonb, p_actor_type text, p_actor_id text, OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_audit_anchor_digest(OUT digest text, OUT heads bigint) FROM PUBLIC;
GRANT SELECT ON TABLE public.subscription_transition_audits TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_audit_canonical(a public.subscription_transition_audits) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_audit_canonical(a public.subscription_transition_audits) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_period_json(period_start timestamp with time zone, period_end timestamp with time zone) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_period_json(period_start timestamp with time zone, period_end timestamp with time zone) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_billing_period_json(bp public.subscription_billing_periods) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_billing_period_json(bp public.subscription_billing_periods) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_billing_period_to_delta() FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_billing_periods_insert_only() FROM PUBLIC;
GRANT SELECT ON TABLE public.reconciliation_case_history TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_case_history_canonical(h public.reconciliation_case_history) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_case_history_canonical(h public.reconciliation_case_history) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_renewal_verdict(s public.subscriptions, p_provider_key text, p_provider_renewal_key text, p_period_start timestamp with time zone, p_period_end timestamp with time zone, p_paid_amount_minor bigint, p_currency text, OUT verdict text, OUT existing_id uuid, OUT conflicting jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_renewal_verdict(s public.subscriptions, p_provider_key text, p_provider_renewal_key text, p_period_start timestamp with time zone, p_period_end timestamp with time zone, p_paid_amount_minor bigint, p_currency text, OUT verdict text, OUT existing_id uuid, OUT conflicting jsonb) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_case_is_applicable(c public.reconciliation_cases) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_case_is_applicable(c public.reconciliation_cases) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_case_reopen_refusal(c public.reconciliation_cases) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_case_reopen_refusal(c public.reconciliation_cases) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_case_step_recorded_by(p_case public.reconciliation_cases, p_step public.reconciliation_case_history) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_case_step_recorded_by(p_case public.reconciliation_cases, p_step public.reconciliation_case_history) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_chain_link() FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_customer_email_hmac(p_email text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_customer_email_hmac(p_email text) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_heal_money_back(p_provider_key text, p_billing_period_id uuid, p_event jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_keep_case_open(p_case_id bigint, p_error_code text, p_local_state jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_ledger_totals(p_provider_key text, p_lo timestamp with time zone, p_hi timestamp with time zone) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_lock_open_case(p_case_id bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_lock_payment_refs(p_provider_key text, p_refs text[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_lock_provider_statements(p_provider_key text) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_money_back_by_currency(p_ids uuid[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_money_movement_case(p_event jsonb, p_movement_key text, p_error_code text, p_local_state jsonb, s public.subscriptions) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_month_close_lines(p_provider_key text, p_month date) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_month_close_lines(p_provider_key text, p_month date) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_new_id(p_sequence regclass) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_note_text(p_text text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_note_text(p_text text) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_notify_case_changed() FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_notify_subscriptions_changed() FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_open_statement_run(p_run bigint) FROM PUBLIC;
GRANT SELECT ON TABLE public.billing_providers TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_overdue_cutoff(p_provider_key text, p_grace interval) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_overdue_cutoff(p_provider_key text, p_grace interval) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_refuse_change() FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_refuse_preview_row() FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_renewal_fingerprint(e jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_renewal_fingerprint(e jsonb) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_renewal_named_by(p_provider_key text, p_refs text[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_require_reason(p_reason text) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_resolve_case(p_case_id bigint, p_resolution text, p_billing_period_id uuid, p_comment text, p_snapshot_id bigint) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_settle_waiting_case(p_case_id bigint, p_result text, p_billing_period_id uuid, p_error_code text, p_local_state jsonb, p_unblocked_by text) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_sha256_hex(t text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_sha256_hex(t text) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_snapshot_not_from_the_future() FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_statement_case(p_run bigint, p_event jsonb, p_code text, p_state jsonb, OUT case_id bigint, OUT is_open boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_statement_run_finished() FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_statement_run_guard() FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_subscription_state_json(s public.subscriptions) FROM PUBLIC;
GRANT ALL ON FUNCTION public.rd_subscription_state_json(s public.subscriptions) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.rd_take_work_lock(p_name text, p_what text) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.rd_try_work_lock(p_name text) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.reapply_case(p_case_id bigint, p_reason text, p_comment text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.reapply_case(p_case_id bigint, p_reason text, p_comment text) TO renewal_operator;
REVOKE ALL ON FUNCTION public.record_money_movements(p_event jsonb, p_actor_type text, p_actor_id text, OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT case_id bigint, OUT local_state jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.record_payment_trouble(p_event jsonb, p_actor_type text, p_actor_id text, OUT result text, OUT error_code text) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.record_reconciliation_case(p_event jsonb, p_error_code text, p_local_state jsonb, p_recorded_by text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.record_reconciliation_case(p_event jsonb, p_error_code text, p_local_state jsonb, p_recorded_by text) TO renewal_ingest;
REVOKE ALL ON FUNCTION public.register_billing_provider(p_key text, p_kind text, p_display_name text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.register_billing_provider(p_key text, p_kind text, p_display_name text) TO renewal_operator;
REVOKE ALL ON FUNCTION public.release_case(p_case_id bigint, p_comment text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.release_case(p_case_id bigint, p_comment text) TO renewal_operator;
REVOKE ALL ON FUNCTION public.renewal_period_start_totals(p_from date, p_to date) FROM PUBLIC;
GRANT ALL ON FUNCTION public.renewal_period_start_totals(p_from date, p_to date) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.renewal_totals(p_from date, p_to date) FROM PUBLIC;
GRANT ALL ON FUNCTION public.renewal_totals(p_from date, p_to date) TO renewal_viewer;
REVOKE ALL ON FUNCTION public.reopen_case(p_case_id bigint, p_comment text) FROM PUBLIC;
GRANT ALL ON FUNCTION public.reopen_case(p_case_id bigint, p_comment text) TO renewal_operator;
REVOKE ALL ON FUNCTION public.review_invalid_delivery(p_inbox_id bigint, p_note text, p_rerun_inbox_id bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.review_invalid_delivery(p_inbox_id bigint, p_note text, p_rerun_inbox_id bigint) TO renewal_operator;
REVOKE ALL ON FUNCTION public.set_inbox_retention(p_days integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION public.statement_add_lines(p_run bigint, p_lines jsonb) FROM PUBLIC;
GRANT ALL ON FUNCTION public.statement_add_lines(p_run bigint, p_lines jsonb) TO renewal_operator;
REVOKE ALL ON FUNCTION public.statement_begin(p_provider_key text, p_from date, p_to date, p_statement_sha256 text, p_files jsonb, p_objects integer, p_completeness text, p_lists_money_back boolean, OUT run_id bigint, OUT earlier_run bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.statement_begin(p_provider_key text, p_from date, p_to date, p_statement_sha256 text, p_files jsonb, p_objects integer, p_completeness text, p_lists_money_back boolean, OUT run_id bigint, OUT earlier_run bigint) TO renewal_operator;
REVOKE ALL ON FUNCTION public.statement_finish(p_run bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.statement_finish(p_run bigint) TO renewal_operator;
REVOKE ALL ON FUNCTION public.statement_run_json(p_run bigint) FROM PUBLIC;
GRANT ALL ON FUNCTION public.statement_run_json(p_run bigint) TO renewal_viewer;
GRANT SELECT ON TABLE public.access_overrides TO renewal_viewer;
GRANT SELECT ON TABLE public.access_policies TO renewal_viewer;
GRANT SELECT ON TABLE public.billing_period_payment_refs TO renewal_viewer;
GRANT SELECT ON TABLE public.database_backups TO renewal_viewer;
GRANT SELECT ON TABLE public.inbox_retention TO renewal_viewer;
GRANT SELECT ON TABLE public.iso_currencies TO renewal_viewer;
GRANT SELECT ON TABLE public.money_back_daily_totals TO renewal_viewer;
GRANT SELECT ON TABLE public.money_back_deltas TO renewal_viewer;
GRANT SELECT ON TABLE public.operator_reason_codes TO renewal_viewer;
GRANT SELECT ON TABLE public.provider_snapshots TO renewal_viewer;
GRANT SELECT ON TABLE public.rd_work_locks TO renewal_viewer;
GRANT SELECT ON TABLE public.renewal_daily_totals TO renewal_viewer;
GRANT SELECT ON TABLE public.renewal_period_start_totals TO renewal_viewer;
GRANT SELECT ON TABLE public.renewal_total_deltas TO renewal_viewer;
GRANT SELECT ON TABLE public.schema_migrations TO renewal_viewer;
GRANT SELECT ON TABLE public.schema_repeatables TO renewal_viewer;
GRANT SELECT ON TABLE public.subscription_outbox TO renewal_viewer;
GRANT SELECT(id) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(provider_key) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(provider_event_id) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(raw_body) ON TABLE public.webhook_inbox TO renewal_payload_reader;
GRANT SELECT(body_size) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(body_sha256) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(body_truncated) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(received_at) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(deliveries) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(last_delivery_at) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(outcome) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(reason) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(error) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(billing_period_id) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(case_id) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(normalized) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(processed_at) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(ingest_token) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT(body_removal_id) ON TABLE public.webhook_inbox TO renewal_viewer;
GRANT SELECT ON TABLE public.webhook_inbox_daily TO renewal_viewer;
GRANT SELECT ON TABLE public.webhook_inbox_daily_state TO renewal_viewer;
GRANT SELECT ON TABLE public.webhook_inbox_removals TO renewal_viewer;
GRANT SELECT ON TABLE public.webhook_inbox_reviews TO renewal_viewer;
ALTER DEFAULT PRIVILEGES FOR ROLE postgres REVOKE ALL ON FUNCTIONS  FROM PUBLIC;
