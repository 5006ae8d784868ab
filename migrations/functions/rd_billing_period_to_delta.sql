REVOKE ALL ON FUNCTION public.rd_billing_period_to_delta()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

CREATE OR REPLACE FUNCTION public.rd_billing_period_to_delta()
    RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO public.renewal_total_deltas (day, period_start_day, provider_key, currency,
                                             recorded_by, renewals, amount_minor)
    VALUES ((NEW.paid_at AT TIME ZONE 'UTC')::date, (NEW.period_start AT TIME ZONE 'UTC')::date,
            NEW.provider_key, NEW.currency, NEW.recorded_by, 1, NEW.paid_amount_minor);
    RETURN NULL;
END;
$$;
