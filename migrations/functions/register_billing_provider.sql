REVOKE ALL ON FUNCTION public.register_billing_provider(text,text,text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT EXECUTE ON FUNCTION public.register_billing_provider(text,text,text) TO renewal_operator;

-- Registers a provider. Registering it again identically is a no-op ('exists'); with another
-- kind or name it is refused: deliveries already stored were normalized with the old kind.
CREATE OR REPLACE FUNCTION public.register_billing_provider(p_key text, p_kind text,
                                                            p_display_name text)
    RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp
AS $$
DECLARE
    p public.billing_providers%ROWTYPE;
BEGIN
    INSERT INTO public.billing_providers (provider_key, kind, display_name)
    VALUES (p_key, p_kind, coalesce(nullif(p_display_name, ''), p_key))
    ON CONFLICT (provider_key) DO NOTHING;
    IF FOUND THEN
        RETURN 'created';
    END IF;
    SELECT * INTO p FROM public.billing_providers WHERE provider_key = p_key;
    IF p.kind = p_kind AND (p_display_name IS NULL OR p_display_name = ''
                            OR p.display_name = p_display_name) THEN
        RETURN 'exists';
    END IF;
    RAISE EXCEPTION 'provider % is already registered as % (%)', p_key, p.kind,
        p.display_name USING ERRCODE = 'RD011';
END;
$$;
