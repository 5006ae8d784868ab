REVOKE ALL ON FUNCTION public.outbox_mark_failed(uuid,text,interval,interval)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.outbox_mark_failed(uuid,text,interval,interval) TO renewal_ingest;

-- Bounded exponential backoff: base × 2^(attempts so far), at most p_max_delay.
CREATE OR REPLACE FUNCTION public.outbox_mark_failed(p_id uuid, p_error text, p_base_delay interval, p_max_delay interval)
 RETURNS timestamp with time zone
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    UPDATE subscription_outbox
       SET attempts = attempts + 1, last_error = left(p_error, 2000),
           next_attempt_at = now() + least(p_max_delay,
                                           p_base_delay * power(2, least(attempts, 30)))
     WHERE id = p_id AND published_at IS NULL
    RETURNING next_attempt_at;
$function$;
