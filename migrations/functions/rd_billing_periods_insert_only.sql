REVOKE ALL ON FUNCTION public.rd_billing_periods_insert_only()
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- The ledger's totals rest on billing periods never changing: refuse it outright rather than
-- let totals drift. (Nothing in the product updates or deletes them; this keeps it so.)
CREATE OR REPLACE FUNCTION public.rd_billing_periods_insert_only()
    RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION 'billing periods are insert-only (% refused)', TG_OP
        USING ERRCODE = 'RD004';
END;
$$;
