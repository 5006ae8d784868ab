REVOKE ALL ON FUNCTION public.rd_take_work_lock(text, text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- Queues the caller's transaction on the work lock `p_name` (0045) until the transaction ends.
-- Called only from the definer functions that do the work: no group role may execute it, nor
-- touch the table, so no weaker role can hold the lock. The wait is bounded: by the caller's
-- lock_timeout when it set one, else 30 seconds; past it the work is refused as busy (RD022)
-- with `p_what`, the work that holds it, named ("another statement import or month close of
-- stripe-main"). The caller's lock_timeout is as it was for the rest of its transaction.
CREATE OR REPLACE FUNCTION public.rd_take_work_lock(p_name text, p_what text)
    RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
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
