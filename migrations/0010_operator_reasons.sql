-- The operator reason codes are one list.
--
-- The desk offers and the CLI accepts the codes of rd::standardReasonCodes()
-- (domain/core/operator_note.h); the database used to accept any lower-case code, so a typo
-- (`bogus_reason`) could be written into the tamper-evident case history for good. The list
-- is now a table the database checks against; a test compares it with the C++ list.

CREATE TABLE public.operator_reason_codes (
    code text PRIMARY KEY CHECK (code ~ '^[a-z][a-z0-9_]{1,62}$')
);

INSERT INTO public.operator_reason_codes (code) VALUES
    ('provider_confirmed'),
    ('missing_renewal_arrived'),
    ('customer_request'),
    ('duplicate_charge'),
    ('data_correction'),
    ('test_data'),
    ('other');

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

-- Privileges: like 0004's tables, readable by the viewer role (the desk may list the codes),
-- changed by no one but the owner.
REVOKE ALL ON public.operator_reason_codes FROM PUBLIC;
GRANT SELECT ON public.operator_reason_codes TO renewal_viewer;
