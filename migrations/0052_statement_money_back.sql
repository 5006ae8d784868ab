-- Statements read money back too (#40, item 4): a fetch lists the provider's refunds and
-- disputes (adjustments, refund transactions) beside its paid renewals, and the import records
-- a movement the desk lacks through record_money_movements, as a delivery of it would.
--   * statement_lines.money_back marks a line about a movement: its key is in
--     provider_renewal_key (as a money back case keeps it), occurred_at is the movement's own
--     date (the month the line belongs to, never its renewal's), money_movement_id the recorded
--     movement it matched, backfilled or lacks.
--   * statement_runs.lists_money_back: the run holds every page of each money back list of the
--     kind (a fetch's, or a manifest naming them): only then is a recorded movement of its days
--     that it lacks not_in_statement.
--   * statement_runs.money_back: the money back findings and both sides' sums per currency.
ALTER TABLE public.statement_lines
    ADD COLUMN money_back boolean NOT NULL DEFAULT false,
    ADD COLUMN occurred_at timestamptz,
    ADD COLUMN money_movement_id uuid REFERENCES public.money_movements (id),
    ADD CONSTRAINT statement_lines_money_back_dated CHECK (money_back = (occurred_at IS NOT NULL));
ALTER TABLE public.statement_runs
    ADD COLUMN lists_money_back boolean NOT NULL DEFAULT false,
    ADD COLUMN money_back jsonb;

-- statement_begin gains p_lists_money_back (functions/statement_begin.sql).
-- IF EXISTS: a database migrated from nothing gets its definitions after the numbered files.
DROP FUNCTION IF EXISTS public.statement_begin(text, date, date, text, jsonb, integer, text);
