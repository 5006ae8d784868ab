REVOKE ALL ON FUNCTION public.rd_snapshot_not_from_the_future()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

CREATE OR REPLACE FUNCTION public.rd_snapshot_not_from_the_future() RETURNS trigger
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
