-- Live updates for Renewal Desk: NOTIFY on two channels, raised in the writing transaction and
-- delivered at its commit (never for a rollback).
--   renewal_desk_changes  payload: a subscription's uuid, or '*' when many changed at once
--   renewal_desk_cases    payload: a reconciliation case's id
-- Never on the renewal path: PostgreSQL serializes notifying transactions through their commit
-- (a cluster-wide lock held past the WAL flush), which cost a quarter of the renewal
-- throughput when measured. Renewals reach the desk by its poll of the audit table's tail
-- (ui/liveupdates.cpp); the rare events below still NOTIFY.

CREATE FUNCTION rd_notify_subscriptions_changed() RETURNS trigger
    LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM pg_notify('renewal_desk_changes', '*');
    RETURN NULL;
END;
$$;

-- Imports and snapshots that create subscriptions: rare, one '*' per statement (no transition
-- table, so an import of a million rows materializes nothing).
CREATE TRIGGER subscriptions_notify_insert
    AFTER INSERT ON subscriptions
    FOR EACH STATEMENT EXECUTE FUNCTION rd_notify_subscriptions_changed();

CREATE FUNCTION rd_notify_case_changed() RETURNS trigger
    LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM pg_notify('renewal_desk_cases', NEW.id::text);
    -- The subscription's open-case count changed too.
    IF NEW.subscription_id IS NOT NULL THEN
        PERFORM pg_notify('renewal_desk_changes', NEW.subscription_id::text);
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER reconciliation_cases_notify
    AFTER INSERT OR UPDATE ON reconciliation_cases
    FOR EACH ROW EXECUTE FUNCTION rd_notify_case_changed();
