REVOKE ALL ON FUNCTION public.rd_renewal_named_by(text,text[])
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- The recorded renewal a money movement names (record_money_movements): by its renewal key,
-- else by a payment ref its delivery carried (billing_period_payment_refs); a row of nulls when
-- none is recorded.
CREATE OR REPLACE FUNCTION public.rd_renewal_named_by(p_provider_key text, p_refs text[])
    RETURNS public.subscription_billing_periods
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
    RETURN coalesce(
        (SELECT b FROM public.subscription_billing_periods b
          WHERE b.provider_key = p_provider_key AND b.provider_renewal_key = ANY (p_refs)
          ORDER BY b.paid_at LIMIT 1),
        (SELECT b FROM public.billing_period_payment_refs r
           JOIN public.subscription_billing_periods b ON b.id = r.billing_period_id
          WHERE r.provider_key = p_provider_key AND r.payment_ref = ANY (p_refs)
          ORDER BY b.paid_at LIMIT 1));
