-- A month close counts money back (#40, item 4). The close keeps, written once with the rest:
--   * money_back_totals: the provider's refunds and disputes of the month, by currency and by
--     each movement's own date (never its renewal's): {"USD": {"movements": n,
--     "refundedMinor": r, "disputedMinor": d}}, refunds less their reversals and chargebacks
--     less their reinstatements;
--   * after_close_movement_ids: the movements recorded after their own month was closed that
--     no close had counted yet: each is counted, and listed, in the provider's next close;
--   * after_close_totals: those movements' sums, as money_back_totals.
-- NULL for a close made before this migration: it did not count money back, and says so.
ALTER TABLE public.month_closes
    ADD COLUMN money_back_totals jsonb,
    ADD COLUMN after_close_totals jsonb,
    ADD COLUMN after_close_movement_ids uuid[];

-- The next close's look-up of the movements recorded after their month's close: few rows.
CREATE INDEX money_movements_after_close ON public.money_movements (provider_key)
    WHERE after_close;
