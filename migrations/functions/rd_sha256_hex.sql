REVOKE ALL ON FUNCTION public.rd_sha256_hex(text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_sha256_hex(text) TO renewal_viewer;

CREATE OR REPLACE FUNCTION public.rd_sha256_hex(t text)
 RETURNS text
 LANGUAGE sql
 STABLE PARALLEL SAFE
RETURN encode(sha256(convert_to(t, 'UTF8'::name)), 'hex'::text);
