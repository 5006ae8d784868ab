-- Work that must run one at a time (a provider's statement imports and month closes, the two
-- folds, a renewal's reopens) queues on a row of this table, locked by the functions that do
-- the work (functions/rd_take_work_lock.sql, rd_try_work_lock.sql). Until now it queued on
-- advisory locks, and any login can take those: a viewer holding
-- pg_advisory_lock(hashtextextended('renewal-desk statement stripe-main', 0)) stopped every
-- import and close of stripe-main for as long as it liked, and one holding the fold's key made
-- `renewalctl fold` fold nothing (#39, item 1). A row lock (FOR UPDATE, FOR SHARE, FOR KEY
-- SHARE alike) needs UPDATE on the table, and LOCK TABLE beyond ACCESS SHARE (which blocks no
-- row lock) needs more than SELECT: the viewer may read the names (a backup counts every
-- table), no group role may write or lock a row; only the definer functions lock them.
CREATE TABLE public.rd_work_locks (
    -- 'reopen <provider key> <renewal key>' is the longest: 7 + 255 + 1 + 255 characters.
    name text PRIMARY KEY CHECK (pg_catalog.length(name) BETWEEN 1 AND 600)
);
REVOKE ALL ON TABLE public.rd_work_locks
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;
GRANT SELECT ON TABLE public.rd_work_locks TO renewal_viewer;

-- The folds only try their lock (a second fold returns at once): their rows exist from here,
-- so that trying never has to insert.
INSERT INTO public.rd_work_locks (name) VALUES ('fold renewal totals'), ('fold inbox days');
