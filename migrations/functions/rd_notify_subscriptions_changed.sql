REVOKE ALL ON FUNCTION public.rd_notify_subscriptions_changed()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

CREATE OR REPLACE FUNCTION public.rd_notify_subscriptions_changed()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM pg_notify('renewal_desk_changes', '*');
    RETURN NULL;
END;
$function$;
