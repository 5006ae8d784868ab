-- What a statement run proves about its own completeness (#39, item 2), and a repeat import
-- that compares again (#39, item 7).
--
-- completeness: how the run knows it holds every page of the provider's list for its days:
--   'fetched'   its pages were read from the provider's API in the import's own run, followed
--               to the last (`renewalctl statement fetch`);
--   'manifest'  its pages were checked against the manifest `statement fetch --save` wrote:
--               every page present with its hash, none extra, the pages' own chain unbroken;
--   'stated'    the operator said so (`statement import --pages-complete`);
--   'unproven'  none of these (hand-given pages, JSON lines): the run backfills what it lists
--               and opens statement_disagrees for what differs, but records no
--               not_in_statement finding and cannot serve a month close;
--   NULL        a run from before this migration, or a caller that does not say (the rule
--               then was the reader's: no page saying more follows without its last page).
-- repeats_run: the earlier run of the very same statement (provider, days, files' digests)
-- that this run compared again against the ledger of its own day.
ALTER TABLE public.statement_runs
    ADD COLUMN completeness text
        CHECK (completeness IN ('fetched', 'manifest', 'stated', 'unproven')),
    ADD COLUMN repeats_run bigint REFERENCES public.statement_runs (id);

-- The arguments change (p_completeness): the new definition is functions/statement_begin.sql,
-- applied in the same transaction.
DROP FUNCTION public.statement_begin(text, date, date, text, jsonb, integer);
