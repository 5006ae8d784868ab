-- The database bounds what the programs bound at the edge (domain/core/renewal_event.h,
-- checkEventBounds; #39, items 6 and 11): an amount of at most 10^12 minor units (ten
-- billion in a two-decimal currency), and a billing period of at most 1,827 days (five years
-- and a leap day, longer than any plan a provider sells). Two renewals of 2^63 - 1 minor units
-- had been recorded and folded, and broke every total; a period ending 9999-12-31 left its
-- subscription never overdue.
--
-- Checked for every row written from now on. Rows already stored are checked too where they
-- all hold (VALIDATE); a database that holds one beyond them keeps it, says so, and keeps the
-- constraint unvalidated: a recorded renewal is never rewritten here.
ALTER DOMAIN public.rd_amount_minor
    ADD CONSTRAINT rd_amount_minor_bounded CHECK (VALUE <= 1000000000000) NOT VALID;
ALTER TABLE public.subscription_billing_periods
    ADD CONSTRAINT billing_period_bounded_length
        CHECK (period_end - period_start <= interval '1827 days') NOT VALID;

DO $$
DECLARE
    v_amounts bigint;
    v_periods bigint;
BEGIN
    SELECT count(*) FILTER (WHERE b.paid_amount_minor > 1000000000000),
           count(*) FILTER (WHERE b.period_end - b.period_start > interval '1827 days')
      INTO v_amounts, v_periods
      FROM public.subscription_billing_periods b;
    IF v_amounts = 0 THEN
        ALTER DOMAIN public.rd_amount_minor VALIDATE CONSTRAINT rd_amount_minor_bounded;
    ELSE
        RAISE WARNING '% billing period(s) hold an amount above 10^12 minor units: kept as recorded; the bound holds for new ones',
            v_amounts;
    END IF;
    IF v_periods = 0 THEN
        ALTER TABLE public.subscription_billing_periods
            VALIDATE CONSTRAINT billing_period_bounded_length;
    ELSE
        RAISE WARNING '% billing period(s) are longer than 1827 days: kept as recorded; the bound holds for new ones',
            v_periods;
    END IF;
END;
$$;
