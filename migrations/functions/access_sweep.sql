REVOKE ALL ON FUNCTION public.access_sweep(timestamptz,uuid,integer)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.access_sweep(timestamptz,uuid,integer)
    TO renewal_ingest, renewal_operator;

-- Payment trouble (#41): time moves verdicts without any delivery. One batch of a sweep:
-- the next p_limit subscriptions after p_after (by id) whose verdict may have moved, each
-- under its row lock (the one a renewal and a delivery of its trouble take), its verdict at
-- p_now settled (rd_access_settle). The candidates: a recorded verdict in grace or blocked
-- (they end, or recover), a period ended by p_now whose end is not recorded as ended, and a
-- subscription canceled here whose end is not recorded. Two sweeps lock in the same order and
-- the second finds each transition recorded by the first; a sweep killed mid-way committed
-- its batches whole or not at all. renewalctl access sweep calls it until last_id is null.
CREATE OR REPLACE FUNCTION public.access_sweep(p_now timestamptz, p_after uuid,
    p_limit integer, OUT examined integer, OUT changed integer, OUT last_id uuid)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
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
