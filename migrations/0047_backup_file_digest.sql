-- The whole file's SHA-256 in the backup log (#39, item 3): the digest to keep apart from a
-- backup file, which `db restore --digest` and the desk's restore compare. The anchor's digest
-- (anchor_digest) covers the audit chains' heads only: a file re-forged around them (an amount,
-- a grant) keeps it, so it cannot tell a re-forged file from its original.
--
-- Null for the backups logged before this migration (their files were never hashed whole).
ALTER TABLE public.database_backups
    ADD COLUMN file_sha256 text CHECK (file_sha256 ~ '^[0-9a-f]{64}$');
