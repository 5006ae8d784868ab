-- Hardening, round two (#26): what the second outside audit did with the roles.
--
--  1. The ingest role chose who acted. apply_successful_renewal takes the actor as arguments,
--     and the ingest login called it with ('operator', 'alice'): an audit row "by operator
--     alice" and a billing period recorded_by = operator. The actor is now said by the
--     function a role may call, never by its caller: ingest gets apply_webhook_renewal, which
--     is always a webhook delivery of its provider key; the operator's actions name the
--     operator themselves (session_user); apply_successful_renewal is the owner's alone.
--     The delivery path (ingest_delivery) called the core with its own fixed actor already
--     and is unchanged.
--  2. The superseded ingest functions of 0004 (ingest_record, ingest_set_outcome,
--     ingest_open_snapshot_case) were still granted: with them a planted body became a case's
--     evidence, its body_sha256 not the body's. They are dropped, and the inbox refuses a body
--     whose hash is not its own (a body stored whole; a truncated one keeps the hash of what
--     was delivered, which only its first MiB can no longer prove).
--  3. EXECUTE is granted, never left to PUBLIC: every function of the schema (the pg_trgm
--     extension's aside) is revoked from PUBLIC and granted to the roles that need it. The
--     audit functions were PUBLIC: any login could run audit_chain_breaks(), a rehash of every
--     chain, at will. Now the anchor's three are the viewer's (the desk and `audit anchor`
--     use them) and audit_chain_breaks() the owner's. The table of every grant is
--     docs/roles.md; tests/tst_security.cpp compares the catalog with it.
--  4. Large objects: any login could fill the disk with lo_from_bytea. Creating one is revoked
--     from PUBLIC (nothing here uses large objects). Only a superuser may change pg_catalog's
--     grants: a migration run by another owner says so and leaves them.
--  5. Raw bodies hold customers' names, e-mails and addresses: a viewer no longer reads
--     webhook_inbox.raw_body. renewal_payload_reader may; operators have it, and an auditor
--     who needs bodies can be given it alone (`renewalctl roles grant NAME payload_reader`).
--  6. A note must contain a visible character. btrim() only removes ASCII spaces: a tab,
--     a no-break space or a zero-width space passed as a note. rd_note_text is the one test,
--     used by every function that needs a note and by the dismissed case's CHECK;
--     domain/core/operator_note.cpp has the same set of invisible code points, and
--     tst_security compares the two over every code point.
--  7. A snapshot from the future: capturedAt 2099 made every later snapshot stale until 2099.
--     The programs refuse a capturedAt later than now plus five minutes (clock skew); the
--     database refuses to store one (RD012), whoever calls.

------------------------------------------------------------------------------------------
-- 6. Notes with a visible character.
------------------------------------------------------------------------------------------

-- The note without its invisible ends, or NULL when nothing visible is left. Invisible:
-- control characters, Unicode's White_Space, its Default_Ignorable_Code_Point (zero-width
-- spaces and joiners, bidi marks, variation selectors, tags, soft hyphen, Hangul fillers)
-- and the braille blank. Keep in step with rd::isInvisibleCodePoint.
CREATE FUNCTION public.rd_note_text(p_text text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    -- A text of invisible code points only is one leading run: trimmed to '', then NULL.
    RETURN NULLIF(pg_catalog.regexp_replace(p_text,
        '^[\u0001-\u0020\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]+|[\u0001-\u0020\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]+$',
        '', 'g'), '');

ALTER TABLE public.reconciliation_cases
    DROP CONSTRAINT reconciliation_case_dismissed_has_note,
    ADD CONSTRAINT reconciliation_case_dismissed_has_note
        CHECK (status <> 'dismissed' OR public.rd_note_text(resolution_comment) IS NOT NULL)
        NOT VALID;
-- Not validated: a case dismissed before this migration with a note of spaces keeps it (its
-- history is chained and immutable); every dismissal from now on is checked.

-- As 0015's, with rd_note_text for nullif(btrim(...)).
CREATE OR REPLACE FUNCTION public.claim_case(p_case_id bigint, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
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

CREATE OR REPLACE FUNCTION public.release_case(p_case_id bigint, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
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

CREATE OR REPLACE FUNCTION public.note_case(p_case_id bigint, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
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

-- As 0009's; the note stored is the one given, as before, once it has something to read.
CREATE OR REPLACE FUNCTION public.dismiss_case(p_case_id bigint, p_reason text, p_comment text)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
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

------------------------------------------------------------------------------------------
-- 7. No snapshot from the future.
------------------------------------------------------------------------------------------

CREATE FUNCTION public.rd_snapshot_not_from_the_future() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
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

CREATE TRIGGER provider_snapshots_not_from_the_future
    BEFORE INSERT ON public.provider_snapshots
    FOR EACH ROW EXECUTE FUNCTION public.rd_snapshot_not_from_the_future();

------------------------------------------------------------------------------------------
-- 1, 2. The actor is the function's, and the superseded ingest functions go.
------------------------------------------------------------------------------------------

-- A renewal delivered by provider key p_provider_key, for callers outside a delivery
-- (`renewalctl apply`): the core with the actor a webhook delivery always has.
CREATE FUNCTION public.apply_webhook_renewal(
    p_provider_key text, p_provider_event_id text, p_provider_subscription_id text,
    p_provider_renewal_key text, p_provider_version text,
    p_period_start timestamptz, p_period_end timestamptz,
    p_paid_amount_minor bigint, p_currency text, p_paid_at timestamptz,
    p_billing_period_id uuid DEFAULT NULL,
    OUT result text, OUT billing_period_id uuid, OUT error_code text, OUT local_state jsonb)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
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

DROP FUNCTION public.ingest_record(text, text, bytea, bigint, text, text, text, text, jsonb);
DROP FUNCTION public.ingest_set_outcome(bigint, text, text, uuid, bigint);
DROP FUNCTION public.ingest_open_snapshot_case(bigint, jsonb);

-- A body kept whole is the body its hash names. Validated: a row that fails was planted.
ALTER TABLE public.webhook_inbox
    ADD CONSTRAINT webhook_inbox_body_is_its_hash
        CHECK (raw_body IS NULL OR octet_length(raw_body) < body_size
               OR (octet_length(raw_body) = body_size
                   AND body_sha256 = pg_catalog.encode(pg_catalog.sha256(raw_body), 'hex')));

------------------------------------------------------------------------------------------
-- 5. Raw bodies: renewal_payload_reader.
------------------------------------------------------------------------------------------

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'renewal_payload_reader') THEN
        CREATE ROLE renewal_payload_reader NOLOGIN;
    END IF;
END;
$$;
GRANT renewal_payload_reader TO renewal_operator;

REVOKE SELECT ON public.webhook_inbox FROM renewal_viewer;
DO $$
DECLARE
    v_columns text;
BEGIN
    -- Every column but the body, by name: a column added later is granted where it is added.
    SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' ORDER BY a.attnum)
      INTO v_columns
      FROM pg_catalog.pg_attribute a
     WHERE a.attrelid = 'public.webhook_inbox'::regclass AND a.attnum > 0
       AND NOT a.attisdropped AND a.attname <> 'raw_body';
    EXECUTE pg_catalog.format('GRANT SELECT (%s) ON public.webhook_inbox TO renewal_viewer',
                              v_columns);
END;
$$;
GRANT SELECT (raw_body) ON public.webhook_inbox TO renewal_payload_reader;

------------------------------------------------------------------------------------------
-- 3. EXECUTE: granted, never PUBLIC's.
------------------------------------------------------------------------------------------

DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_catalog.pg_proc p
              WHERE p.pronamespace = 'public'::regnamespace
                AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
                                 WHERE d.classid = 'pg_catalog.pg_proc'::regclass
                                   AND d.objid = p.oid AND d.deptype = 'e')
    LOOP
        EXECUTE pg_catalog.format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
    END LOOP;
END;
$$;
-- Functions the migrating role creates from now on start without PUBLIC's EXECUTE (per
-- database; a per-schema default could only add to the global one).
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

REVOKE EXECUTE ON FUNCTION
    public.apply_successful_renewal(text, text, text, text, text, timestamptz, timestamptz,
                                    bigint, text, timestamptz, text, text, uuid)
    FROM renewal_ingest;
GRANT EXECUTE ON FUNCTION
    public.apply_webhook_renewal(text, text, text, text, text, timestamptz, timestamptz,
                                 bigint, text, timestamptz, uuid)
    TO renewal_ingest;

-- What the desk and `renewalctl` read with, as a viewer: formatting helpers, the canonical
-- forms the audit verification falls back on, the verdict behind "applicable now", and the
-- anchor's heads and hashes.
GRANT EXECUTE ON FUNCTION
    public.rd_rfc3339(timestamptz),
    public.rd_period_json(timestamptz, timestamptz),
    public.rd_sha256_hex(text),
    public.rd_note_text(text),
    public.rd_audit_canonical(public.subscription_transition_audits),
    public.rd_case_history_canonical(public.reconciliation_case_history),
    public.rd_billing_period_json(public.subscription_billing_periods),
    public.rd_subscription_state_json(public.subscriptions),
    public.rd_renewal_fingerprint(jsonb),
    public.rd_renewal_verdict(public.subscriptions, text, text, timestamptz, timestamptz,
                              bigint, text),
    public.rd_case_is_applicable(public.reconciliation_cases),
    public.audit_chain_heads(),
    public.audit_case_history_heads(),
    public.audit_chain_hash_at(text, text, bigint)
    TO renewal_viewer;

-- Writing a function's ACL rewrites its pg_proc row from the catalog cache's flattened copy,
-- in which a long body is already compressed: the toaster then compresses the next largest
-- columns instead, the argument arrays, and every call of a function with OUT parameters
-- decompresses them again (build_function_result_tupdesc). For the renewal core that was
-- 28,000 of its 2.72 million instructions per renewal (callgrind, bench/pgbench/
-- count-instructions.sh). Storing the core's definition again, unchanged (the ACL is kept),
-- compresses its body first, as CREATE did, and leaves the arrays plain.
DO $$
BEGIN
    EXECUTE pg_catalog.pg_get_functiondef('public.apply_successful_renewal(text, text, text, '
        'text, text, timestamptz, timestamptz, bigint, text, timestamptz, text, text, '
        'uuid)'::regprocedure);
END;
$$;

------------------------------------------------------------------------------------------
-- 4. Large objects.
------------------------------------------------------------------------------------------

DO $$
BEGIN
    IF (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname = current_user) THEN
        REVOKE EXECUTE ON FUNCTION pg_catalog.lo_from_bytea(oid, bytea),
            pg_catalog.lo_create(oid), pg_catalog.lo_creat(integer),
            pg_catalog.lo_import(text), pg_catalog.lo_import(text, oid)
            FROM PUBLIC;
    ELSE
        RAISE WARNING 'not a superuser: large-object creation stays granted to PUBLIC; a superuser should run REVOKE EXECUTE ON FUNCTION pg_catalog.lo_from_bytea(oid, bytea), pg_catalog.lo_create(oid), pg_catalog.lo_creat(integer), pg_catalog.lo_import(text), pg_catalog.lo_import(text, oid) FROM PUBLIC in this database (docs/roles.md)';
    END IF;
END;
$$;
