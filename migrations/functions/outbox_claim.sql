REVOKE ALL ON FUNCTION public.outbox_claim(integer,integer)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.outbox_claim(integer,integer) TO renewal_ingest;

CREATE OR REPLACE FUNCTION public.outbox_claim(p_batch integer, p_max_attempts integer)
 RETURNS TABLE(id uuid, event_type text, subscription_id uuid, billing_period_id uuid, payload jsonb, attempts integer, created_at timestamp with time zone)
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
    SELECT o.id, o.event_type, o.subscription_id, o.billing_period_id, o.payload, o.attempts,
           o.created_at
      FROM subscription_outbox o
     WHERE o.published_at IS NULL AND o.next_attempt_at <= now()
       AND (p_max_attempts IS NULL OR o.attempts < p_max_attempts)
     ORDER BY o.next_attempt_at, o.created_at
     LIMIT greatest(p_batch, 1)
       FOR UPDATE SKIP LOCKED;
$function$;
