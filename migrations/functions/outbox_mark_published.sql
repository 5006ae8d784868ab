REVOKE ALL ON FUNCTION public.outbox_mark_published(uuid[])
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.outbox_mark_published(uuid[]) TO renewal_ingest;

CREATE OR REPLACE FUNCTION public.outbox_mark_published(p_ids uuid[])
 RETURNS integer
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    WITH done AS (
        UPDATE subscription_outbox
           SET published_at = now(), attempts = attempts + 1, last_error = NULL
         WHERE id = ANY (p_ids) AND published_at IS NULL
        RETURNING 1)
    SELECT count(*)::integer FROM done;
$function$;
