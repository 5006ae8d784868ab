REVOKE ALL ON FUNCTION public.rd_rfc3339(timestamp with time zone)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_rfc3339(timestamp with time zone) TO renewal_viewer;

-- RFC 3339 in UTC with microseconds, independent of the session's TimeZone and DateStyle.
CREATE OR REPLACE FUNCTION public.rd_rfc3339(t timestamp with time zone)
 RETURNS text
 LANGUAGE sql
 STABLE PARALLEL SAFE
RETURN to_char((t AT TIME ZONE 'UTC'::text), 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'::text);
