REVOKE ALL ON FUNCTION public.rd_notify_case_changed()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

CREATE OR REPLACE FUNCTION public.rd_notify_case_changed()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM pg_notify('renewal_desk_cases', NEW.id::text);
    -- The subscription's open-case count changed too.
    IF NEW.subscription_id IS NOT NULL THEN
        PERFORM pg_notify('renewal_desk_changes', NEW.subscription_id::text);
    END IF;
    RETURN NULL;
END;
$function$;
