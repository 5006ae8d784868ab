-- Closing a month (#27): an operator records that a provider's renewals of one calendar month
-- (UTC) agree with an imported statement covering the whole month. The close is a row written
-- once, holding both sides' totals per currency, the findings' counts, the covering runs and
-- their digests, who and when, and the audit anchor's digest at that moment: what an auditor
-- is handed, and what the desk's close report prints.
--
-- A month may be closed when (month_close_refusal says why not, in one sentence):
--   * it has ended (UTC);
--   * it is not closed already;
--   * a finished statement run of the provider covers every day of it;
--   * no case that a line of such a run opened or linked for a renewal paid in the month is
--     still open (resolved or dismissed, each by a person or by healing).
-- A refusal is RD015 (month_close_refused) with that sentence.

CREATE TABLE public.month_closes (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    provider_key        public.rd_key NOT NULL
                            REFERENCES public.billing_providers (provider_key),
    month               date NOT NULL CHECK (pg_catalog.date_part('day', month) = 1),
    closed_by           text NOT NULL DEFAULT session_user,
    closed_at           timestamptz NOT NULL DEFAULT pg_catalog.now(),
    -- Every finished run covering the whole month, oldest first, and each one's
    -- statement_sha256 at the same position. The statement side (totals, findings' counts)
    -- is the newest run's; the cases checked are all of them.
    statement_run_ids   bigint[] NOT NULL CHECK (pg_catalog.cardinality(statement_run_ids) > 0),
    statement_sha256s   text[] NOT NULL,
    -- Per currency, renewals paid in the month: {"USD": {"renewals": n, "amountMinor": m}}.
    statement_totals    jsonb NOT NULL,
    ledger_totals       jsonb NOT NULL,
    matched             integer NOT NULL,
    backfilled          integer NOT NULL,
    unapplied           integer NOT NULL,
    differing           integer NOT NULL,
    not_in_statement    integer NOT NULL,
    cases_resolved      integer NOT NULL,
    cases_dismissed     integer NOT NULL,
    -- What `renewalctl audit anchor` writes as "digest" at the close (SHA-256 over
    -- "chain:chainId:seq:hash\n" per chain head, in chain, chain id order), and its heads.
    audit_anchor_digest text NOT NULL CHECK (audit_anchor_digest ~ '^[0-9a-f]{64}$'),
    audit_anchor_heads  bigint NOT NULL,
    CONSTRAINT month_closes_once UNIQUE (provider_key, month),
    CONSTRAINT month_closes_digests
        CHECK (pg_catalog.cardinality(statement_sha256s) = pg_catalog.cardinality(statement_run_ids))
);
-- The UNIQUE index above is also the Ledger's "after close" probe: (provider, month paid).

-- Written once: no UPDATE, DELETE or TRUNCATE, as for the audit chains (0003's trigger
-- function, search_path set by 0007).
CREATE TRIGGER month_closes_written_once
    BEFORE UPDATE OR DELETE ON public.month_closes
    FOR EACH ROW EXECUTE FUNCTION public.rd_refuse_change();
CREATE TRIGGER month_closes_no_truncate
    BEFORE TRUNCATE ON public.month_closes
    FOR EACH STATEMENT EXECUTE FUNCTION public.rd_refuse_change();

REVOKE ALL ON public.month_closes FROM PUBLIC;
GRANT SELECT ON public.month_closes TO renewal_viewer;

-- Why the month cannot be closed now, in one sentence; NULL when it can. Any viewer may ask
-- (the desk's Close month dialog); close_month asks the same under the provider's lock.
CREATE FUNCTION public.month_close_refusal(p_provider_key text, p_month date)
    RETURNS text
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_month text := pg_catalog.to_char(p_month, 'YYYY-MM');
    v_last date := (p_month + interval '1 month')::date - 1;
    v_end timestamptz := (p_month + interval '1 month')::timestamp AT TIME ZONE 'UTC';
    c public.month_closes%ROWTYPE;
    v_latest public.statement_runs%ROWTYPE;
    v_open bigint;
    v_first text;
BEGIN
    IF p_month IS NULL OR pg_catalog.date_part('day', p_month) <> 1 THEN
        RETURN pg_catalog.format('%s is not the first day of a month', coalesce(p_month::text,
                                                                                 'NULL'));
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.billing_providers p
                    WHERE p.provider_key = p_provider_key) THEN
        RETURN pg_catalog.format('provider %s is not registered', p_provider_key);
    END IF;
    SELECT * INTO c FROM public.month_closes mc
     WHERE mc.provider_key = p_provider_key AND mc.month = p_month;
    IF FOUND THEN
        RETURN pg_catalog.format('%s %s was closed already, by %s at %s', p_provider_key,
                                 v_month, c.closed_by, public.rd_rfc3339(c.closed_at));
    END IF;
    IF pg_catalog.now() < v_end THEN
        RETURN pg_catalog.format('%s has not ended yet (it ends at %s)', v_month,
                                 public.rd_rfc3339(v_end));
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.statement_runs r
                    WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
                      AND r.covers_from <= p_month AND r.covers_to >= v_last) THEN
        SELECT * INTO v_latest FROM public.statement_runs r
         WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
           AND r.covers_from <= v_last AND r.covers_to >= p_month
         ORDER BY r.id DESC LIMIT 1;
        RETURN pg_catalog.format('no statement run of %s covers all of %s (%s to %s)%s; import '
                                 'a statement of the whole month first', p_provider_key,
                                 v_month, p_month, v_last,
                                 CASE WHEN v_latest.id IS NULL THEN ''
                                      ELSE pg_catalog.format(': run %s covers only %s to %s',
                                               v_latest.id, v_latest.covers_from,
                                               v_latest.covers_to) END);
    END IF;
    SELECT pg_catalog.count(*), pg_catalog.string_agg(o.id::text, ', ' ORDER BY o.id)
             FILTER (WHERE o.n <= 5)
      INTO v_open, v_first
      FROM (SELECT oc.id, pg_catalog.row_number() OVER (ORDER BY oc.id) AS n
              FROM public.rd_month_close_lines(p_provider_key, p_month) l
              JOIN public.reconciliation_cases oc ON oc.id = l.case_id
             WHERE oc.status = 'open'
             GROUP BY oc.id) o;
    IF v_open > 0 THEN
        RETURN pg_catalog.format('%s %s has %s open statement case%s (case%s %s%s); resolve or '
                                 'dismiss them first', p_provider_key, v_month, v_open,
                                 CASE WHEN v_open = 1 THEN '' ELSE 's' END,
                                 CASE WHEN v_open = 1 THEN '' ELSE 's' END, v_first,
                                 CASE WHEN v_open > 5 THEN ', ...' ELSE '' END);
    END IF;
    RETURN NULL;
END;
$$;

-- The lines of every finished run covering the whole month whose renewal was paid in it (the
-- statement's paidAt; for not_in_statement, the recorded renewal's), with their run.
CREATE FUNCTION public.rd_month_close_lines(p_provider_key text, p_month date)
    RETURNS TABLE (run_id bigint, finding text, event jsonb, case_id bigint)
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
AS $$
    SELECT l.run_id, l.finding, l.event, l.case_id
      FROM public.statement_runs r
      JOIN public.statement_lines l ON l.run_id = r.id
      LEFT JOIN public.subscription_billing_periods b ON b.id = l.billing_period_id
     WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
       AND r.covers_from <= p_month
       AND r.covers_to >= (p_month + interval '1 month')::date - 1
       AND coalesce((l.event->>'paidAt')::timestamptz, b.paid_at)
           >= p_month::timestamp AT TIME ZONE 'UTC'
       AND coalesce((l.event->>'paidAt')::timestamptz, b.paid_at)
           < (p_month + interval '1 month')::timestamp AT TIME ZONE 'UTC';
$$;

-- Closes the month, or refuses with RD015 and month_close_refusal's sentence. Returns the
-- close as JSON (what `renewalctl close --json` prints).
CREATE FUNCTION public.close_month(p_provider_key text, p_month date)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    v_why text;
    v_lo timestamptz := p_month::timestamp AT TIME ZONE 'UTC';
    v_hi timestamptz := (p_month + interval '1 month')::timestamp AT TIME ZONE 'UTC';
    v_runs bigint[];
    v_shas text[];
    v_newest bigint;
    c public.month_closes%ROWTYPE;
BEGIN
    -- The provider's statement imports' lock (statement_begin): an import commits wholly
    -- before the close reads, or begins after it; two closes of one provider queue here too.
    PERFORM public.rd_lock_provider_statements(p_provider_key);
    v_why := public.month_close_refusal(p_provider_key, p_month);
    IF v_why IS NOT NULL THEN
        RAISE EXCEPTION '%', v_why USING ERRCODE = 'RD015';
    END IF;

    SELECT pg_catalog.array_agg(r.id ORDER BY r.id),
           pg_catalog.array_agg(r.statement_sha256 ORDER BY r.id), pg_catalog.max(r.id)
      INTO v_runs, v_shas, v_newest
      FROM public.statement_runs r
     WHERE r.provider_key = p_provider_key AND r.finished_at IS NOT NULL
       AND r.covers_from <= p_month AND r.covers_to >= (p_month + interval '1 month')::date - 1;

    INSERT INTO public.month_closes AS mc
        (provider_key, month, statement_run_ids, statement_sha256s, statement_totals,
         ledger_totals, matched, backfilled, unapplied, differing, not_in_statement,
         cases_resolved, cases_dismissed, audit_anchor_digest, audit_anchor_heads)
    SELECT p_provider_key, p_month, v_runs, v_shas,
           coalesce((SELECT pg_catalog.jsonb_object_agg(t.currency, pg_catalog.jsonb_build_object(
                         'renewals', t.n, 'amountMinor', t.amount))
                       FROM (SELECT l.event->>'currency' AS currency, pg_catalog.count(*) AS n,
                                    pg_catalog.sum((l.event->>'paidAmountMinor')::numeric)
                                        AS amount
                               FROM public.rd_month_close_lines(p_provider_key, p_month) l
                              WHERE l.run_id = v_newest AND l.event IS NOT NULL
                              GROUP BY 1) t), '{}'),
           public.rd_ledger_totals(p_provider_key, v_lo, v_hi),
           f.matched, f.backfilled, f.unapplied, f.differing, f.not_in_statement,
           k.resolved, k.dismissed, a.digest, a.heads
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

    -- The report's head (month_close_report, below) without its findings.
    RETURN pg_catalog.jsonb_build_object('result', 'closed')
           || (public.month_close_report(c.provider_key, c.month) - 'findings');
END;
$$;

-- The digest `renewalctl audit anchor` writes (domain/store/audit_anchor.cpp), computed on the
-- server from the same heads in the same order, so that the close stores the anchor of its
-- own moment and nobody can hand it another. The whole input is one string: about 140 bytes a
-- head, 140 MB at a million chains, within PostgreSQL's 1 GB value limit to about 7 million.
CREATE FUNCTION public.rd_audit_anchor_digest(OUT digest text, OUT heads bigint)
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
AS $$
    SELECT pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(coalesce(
               pg_catalog.string_agg(h.chain || ':' || h.chain_id || ':' || h.chain_seq::text
                                     || ':' || h.row_hash || E'\n', '' ORDER BY h.chain,
                                     h.chain_id), ''), 'UTF8')), 'hex'),
           pg_catalog.count(*)
      FROM (SELECT * FROM public.audit_chain_heads()
            UNION ALL SELECT * FROM public.audit_case_history_heads()) h;
$$;

-- A close with its findings, for the close report (`renewalctl close --csv`, the desk's PDF and
-- CSV): the close's row as close_month returns it, plus "findings": every line of the newest
-- covering run paid in the month, and the lines of older covering runs that carry a case,
-- each with its case's status, resolution, who and note. NULL when the month is not closed.
CREATE FUNCTION public.month_close_report(p_provider_key text, p_month date)
    RETURNS jsonb
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
    RETURN (
        SELECT pg_catalog.jsonb_build_object(
            'closeId', c.id, 'providerKey', c.provider_key,
            'month', pg_catalog.to_char(c.month, 'YYYY-MM'), 'closedBy', c.closed_by,
            'closedAt', public.rd_rfc3339(c.closed_at),
            'statementRunIds', pg_catalog.to_jsonb(c.statement_run_ids),
            'statementSha256s', pg_catalog.to_jsonb(c.statement_sha256s),
            'statementTotals', c.statement_totals, 'ledgerTotals', c.ledger_totals,
            'matched', c.matched, 'backfilled', c.backfilled, 'unapplied', c.unapplied,
            'differing', c.differing, 'notInStatement', c.not_in_statement,
            'casesResolved', c.cases_resolved, 'casesDismissed', c.cases_dismissed,
            'auditAnchorDigest', c.audit_anchor_digest,
            'auditAnchorHeads', c.audit_anchor_heads,
            'findings', coalesce((
                SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                           'runId', l.run_id, 'line', l.line_no,
                           'renewalKey', l.provider_renewal_key, 'finding', l.finding,
                           'subscription', coalesce(l.event->>'providerSubscriptionId',
                                                    s.provider_subscription_id),
                           'amountMinor', coalesce((l.event->>'paidAmountMinor')::bigint,
                                                   b.paid_amount_minor),
                           'currency', coalesce(l.event->>'currency', b.currency),
                           'paidAt', coalesce(l.event->>'paidAt', public.rd_rfc3339(b.paid_at)),
                           'caseId', l.case_id, 'caseStatus', k.status,
                           'caseReason', k.error_code, 'resolution', k.resolution,
                           'resolvedBy', k.resolved_by,
                           'resolvedAt', public.rd_rfc3339(k.resolved_at),
                           'note', k.resolution_comment)
                           ORDER BY l.run_id DESC, l.line_no)
                  FROM public.statement_runs r
                  JOIN public.statement_lines l ON l.run_id = r.id
                  LEFT JOIN public.subscription_billing_periods b ON b.id = l.billing_period_id
                  LEFT JOIN public.subscriptions s ON s.id = b.subscription_id
                  LEFT JOIN public.reconciliation_cases k ON k.id = l.case_id
                 WHERE r.id = ANY (c.statement_run_ids)
                   AND (r.id = c.statement_run_ids[pg_catalog.cardinality(c.statement_run_ids)]
                        OR l.case_id IS NOT NULL)
                   AND coalesce((l.event->>'paidAt')::timestamptz, b.paid_at)
                       >= c.month::timestamp AT TIME ZONE 'UTC'
                   AND coalesce((l.event->>'paidAt')::timestamptz, b.paid_at)
                       < (c.month + interval '1 month')::timestamp AT TIME ZONE 'UTC'),
                '[]'::jsonb))
          FROM public.month_closes c
         WHERE c.provider_key = p_provider_key AND c.month = p_month);

REVOKE EXECUTE ON FUNCTION public.month_close_refusal(text, date),
    public.rd_month_close_lines(text, date), public.close_month(text, date),
    public.rd_audit_anchor_digest(), public.month_close_report(text, date) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION public.month_close_refusal(text, date),
    public.rd_month_close_lines(text, date), public.month_close_report(text, date)
    TO renewal_viewer;
GRANT EXECUTE ON FUNCTION public.close_month(text, date) TO renewal_operator;
