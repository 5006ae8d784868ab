REVOKE ALL ON FUNCTION public.rd_customer_email_hmac(text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.rd_customer_email_hmac(text) TO renewal_viewer;

-- A customer's e-mail address as Renewal Desk keeps it (#42): HMAC-SHA256 under this
-- database's key (customer_email_key, which only the owner reads), as 64 hex digits. The
-- address is first trimmed and its ASCII letters lower-cased, as adapters::customerEmail does
-- (the same in every locale); NULL when it is no address (no '@' between a local part and a
-- domain, a space or control character in it, or more than 254 bytes). The one implementation:
-- ingest_delivery stores it, find_anything and erase_customer_email look it up. A viewer may
-- hash an address (that is what searching is); nobody may read the key.
CREATE OR REPLACE FUNCTION public.rd_customer_email_hmac(p_email text)
    RETURNS text
    LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
RETURN (
    SELECT pg_catalog.encode(pg_catalog.sha256(k.outer_pad
               || pg_catalog.sha256(k.inner_pad || pg_catalog.convert_to(a.v, 'UTF8'))), 'hex')
      FROM public.customer_email_key k,
           (SELECT pg_catalog.translate(pg_catalog.btrim(p_email, E' \t\r\n'),
                   'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') AS v) a
     WHERE pg_catalog.octet_length(a.v) <= 254
       AND a.v OPERATOR(pg_catalog.~) E'^[^\\x01-\\x20\\x7f]+@[^@\\x01-\\x20\\x7f]+$');
