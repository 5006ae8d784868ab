-- Backups that prove themselves (#29): every backup `renewalctl db backup` (or the desk's
-- File > Back up...) completes is recorded here, after the file is complete, so that the desk
-- can show the age of the last backup and warn when it is old, wherever the desk runs (a
-- server's backups are taken by renewal-desk-backup.timer on another machine).
--
-- The row is written by the role that took the backup: pg_dump reads every table, raw bodies
-- included, so a backup needs the database's owner (the migrating role), who writes this table
-- directly. Everyone who may read the desk may see when the last backup was taken.

CREATE TABLE public.database_backups (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- The snapshot's time: what the backup holds is the database as of this instant.
    taken_at       timestamptz NOT NULL,
    recorded_at    timestamptz NOT NULL DEFAULT pg_catalog.now(),
    taken_by       text NOT NULL DEFAULT session_user,
    -- The file's name as the taker saw it (a path on the taker's machine), for people.
    file_name      text NOT NULL CHECK (octet_length(file_name) BETWEEN 1 AND 4096),
    file_bytes     bigint NOT NULL CHECK (file_bytes >= 0),
    schema_version text NOT NULL CHECK (schema_version <> ''),
    anchor_digest  text NOT NULL CHECK (anchor_digest ~ '^[0-9a-f]{64}$'),
    -- The manifest the file carries (program, counts, digests), as written.
    manifest       jsonb NOT NULL CHECK (pg_catalog.jsonb_typeof(manifest) = 'object')
);
CREATE INDEX database_backups_newest ON public.database_backups (taken_at DESC);
REVOKE ALL ON public.database_backups FROM PUBLIC;
GRANT SELECT ON public.database_backups TO renewal_viewer;
