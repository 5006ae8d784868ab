-- Live updates for Renewal Desk: NOTIFY on two channels, raised in the writing transaction and
-- delivered at its commit (never for a rollback).
--   renewal_desk_changes  payload: a subscription's uuid, or '*' when many changed at once
--   renewal_desk_cases    payload: a reconciliation case's id
-- Cheap on the hot path: one renewal updates one subscription row, so one small
-- notification; a bulk import raises a single '*' per statement.

CREATE FUNCTION rd_notify_subscriptions_changed() RETURNS trigger
    LANGUAGE plpgsql
AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        -- A handful of rows: name them; more: one '*' (the desk re-reads what it shows).
        IF (SELECT count(*) FROM (SELECT 1 FROM rd_changed LIMIT 101) few) <= 100 THEN
            PERFORM pg_notify('renewal_desk_changes', id::text) FROM rd_changed;
            RETURN NULL;
        END IF;
    END IF;
    PERFORM pg_notify('renewal_desk_changes', '*');
    RETURN NULL;
END;
$$;

CREATE TRIGGER subscriptions_notify_update
    AFTER UPDATE ON subscriptions
    REFERENCING NEW TABLE AS rd_changed
    FOR EACH STATEMENT EXECUTE FUNCTION rd_notify_subscriptions_changed();

-- No transition table for inserts: an import of a million rows must not materialize them.
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
