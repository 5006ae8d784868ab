REVOKE ALL ON FUNCTION public.rd_period_json(timestamp with time zone,timestamp with time zone)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_period_json(timestamp with time zone,timestamp with time zone) TO renewal_viewer;

CREATE OR REPLACE FUNCTION public.rd_period_json(period_start timestamp with time zone, period_end timestamp with time zone)
 RETURNS jsonb
 LANGUAGE sql
 STABLE PARALLEL SAFE
RETURN CASE WHEN (period_start IS NULL) THEN 'null'::jsonb ELSE jsonb_build_object('start', public.rd_rfc3339(period_start), 'end', public.rd_rfc3339(period_end)) END;
