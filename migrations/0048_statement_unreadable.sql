-- A statement object the kind's reader cannot read is a finding of its own (#39, item 15):
-- 'unreadable', with a case statement_object_unreadable, instead of refusing the whole import
-- and leaving the month's other renewals unrecorded. Its event names the object (its id where it
-- names one, its sha256 else) and why it could not be read; it has no amount, currency or paid
-- day, so it holds every month its run covers open until its case is resolved or dismissed.
ALTER TABLE public.statement_lines
    DROP CONSTRAINT statement_lines_finding_check,
    ADD CONSTRAINT statement_lines_finding_check CHECK (finding IN (
        'matched', 'backfilled', 'unapplied', 'differing', 'not_in_statement', 'unreadable')),
    DROP CONSTRAINT statement_lines_evidence,
    ADD CONSTRAINT statement_lines_evidence CHECK (
        (finding = 'not_in_statement') = (event IS NULL)
        AND (finding NOT IN ('differing', 'not_in_statement', 'unapplied', 'unreadable')
             OR case_id IS NOT NULL)
        AND (finding NOT IN ('matched', 'backfilled', 'differing', 'not_in_statement')
             OR billing_period_id IS NOT NULL));
