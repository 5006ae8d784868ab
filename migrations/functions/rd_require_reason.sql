REVOKE ALL ON FUNCTION public.rd_require_reason(text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- Replaces 0009's definition: the code must be one of the list (RD005 invalid_reason, the
-- message naming the valid codes). STABLE now that it reads a table.
CREATE OR REPLACE FUNCTION public.rd_require_reason(p_reason text) RETURNS void
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    IF p_reason IS NULL
       OR NOT EXISTS (SELECT 1 FROM public.operator_reason_codes WHERE code = p_reason) THEN
        RAISE EXCEPTION 'a reason code is required, one of: %',
            (SELECT string_agg(code, ', ' ORDER BY code) FROM public.operator_reason_codes)
            USING ERRCODE = 'RD005';
    END IF;
END;
$$;
