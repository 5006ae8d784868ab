REVOKE ALL ON FUNCTION public.rd_lock_provider_statements(text)
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- A provider's statement work queues here: its imports, and its month closes (0031), behind
-- each other, on a work lock no weaker role can take (0045; RD022 when the one running holds it
-- past the lock timeout). RD013 for a provider that is not registered.
CREATE OR REPLACE FUNCTION public.rd_lock_provider_statements(p_provider_key text)
    RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.billing_providers p
                    WHERE p.provider_key = p_provider_key) THEN
        RAISE EXCEPTION 'provider % is not registered', p_provider_key USING ERRCODE = 'RD013';
    END IF;
    PERFORM public.rd_take_work_lock('statements ' OPERATOR(pg_catalog.||) p_provider_key,
        'another statement import or month close of ' OPERATOR(pg_catalog.||) p_provider_key);
END;
$$;
