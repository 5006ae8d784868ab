-- The database bounds an amount as the programs do at the edge (domain/core/renewal_event.h,
-- checkEventBounds; #39, item 6): at most 10^12 minor units, ten billion in a two-decimal
-- currency. Two renewals of 2^63 - 1 minor units had been recorded and folded, and broke every
-- total.
--
-- Checked for every amount written from now on; the amounts already stored are checked too
-- where they all hold (VALIDATE). A database that holds one beyond it keeps it, says so, and
-- keeps the constraint unvalidated: a recorded renewal is never rewritten here.
--
-- A period's length (at most 1,827 days, item 11) is bounded at the edge only: as a CHECK on
-- subscription_billing_periods it cost the one-statement renewal 0.8 % of its instructions
-- (bench/pgbench/count-instructions.sh: 2,774,591 without it, 2,796,803 with it; this domain
-- check costs nothing measurable), and every path that writes a period reads it through
-- checkEventBounds first.
ALTER DOMAIN public.rd_amount_minor
    ADD CONSTRAINT rd_amount_minor_bounded CHECK (VALUE <= 1000000000000) NOT VALID;

DO $$
DECLARE
    v_amounts bigint;
BEGIN
    SELECT count(*) INTO v_amounts FROM public.subscription_billing_periods b
     WHERE b.paid_amount_minor > 1000000000000;
    IF v_amounts = 0 THEN
        ALTER DOMAIN public.rd_amount_minor VALIDATE CONSTRAINT rd_amount_minor_bounded;
    ELSE
        RAISE WARNING '% billing period(s) hold an amount above 10^12 minor units: kept as recorded; the bound holds for new ones',
            v_amounts;
    END IF;
END;
$$;
