REVOKE ALL ON FUNCTION public.rd_try_work_lock(text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- Takes the work lock `p_name` (0045) until the transaction ends if no other transaction
-- holds it; false at once if one does. For the folds, whose row the migration made: a fold
-- that finds another folding leaves the work to it. As rd_take_work_lock, only definer
-- functions call it, so only the work itself can be that other transaction. A name with no
-- row is an error, not "held".
CREATE OR REPLACE FUNCTION public.rd_try_work_lock(p_name text)
    RETURNS boolean
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
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
