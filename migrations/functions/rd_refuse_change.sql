REVOKE ALL ON FUNCTION public.rd_refuse_change()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- Append-only for every role, the owner included. (A superuser can still disable triggers:
-- that is what the hash chain and an exported anchor are for.)
CREATE OR REPLACE FUNCTION public.rd_refuse_change()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    RAISE EXCEPTION 'append_only: % rows cannot be changed or removed (% refused)',
        TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$function$;
