REVOKE ALL ON FUNCTION public.rd_renewal_named_by(text,text[])
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- The recorded renewal a money movement names (record_money_movements): by its renewal key,
-- else by a payment ref its delivery carried (billing_period_payment_refs); a row of nulls when
-- none is recorded.
CREATE OR REPLACE FUNCTION public.rd_renewal_named_by(p_provider_key text, p_refs text[])
    RETURNS public.subscription_billing_periods
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp
AS $$
-- PL/pgSQL, not SQL: a SQL function with its own search_path is planned on every call, and
-- this one runs on every money movement's path (a refund cost 1.4 renewals in instructions).
DECLARE
    b public.subscription_billing_periods;
BEGIN
    SELECT * INTO b FROM public.subscription_billing_periods bp
     WHERE bp.provider_key = p_provider_key AND bp.provider_renewal_key = ANY (p_refs)
     ORDER BY bp.paid_at LIMIT 1;
    IF FOUND THEN
        RETURN b;
    END IF;
    SELECT bp.* INTO b FROM public.billing_period_payment_refs r
      JOIN public.subscription_billing_periods bp ON bp.id = r.billing_period_id
     WHERE r.provider_key = p_provider_key AND r.payment_ref = ANY (p_refs)
     ORDER BY bp.paid_at LIMIT 1;
    RETURN b;
END;
$$;
