REVOKE ALL ON FUNCTION public.rd_lock_payment_refs(text,text[])
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- Locks what a movement names its renewal by (record_money_movements, for a movement whose
-- renewal it cannot find) and what a renewal is named by (rd_heal_money_back, after the
-- renewal is recorded): whichever of the two commits second sees the other. The locks are rows
-- of rd_work_locks, one of 1,024 a provider by the ref's hash, which only the owner's functions
-- may lock (an advisory lock, which any login can take, would let a viewer hold a renewal's
-- delivery up: docs/roles.md). Taken in one order, so that two callers never wait for each
-- other; two renewals whose refs share a bucket queue for each other's commit, briefly.
CREATE OR REPLACE FUNCTION public.rd_lock_payment_refs(p_provider_key text, p_refs text[])
    RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
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
