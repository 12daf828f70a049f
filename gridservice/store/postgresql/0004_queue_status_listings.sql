-- Migration 0004: an operator report's word on projects off its active sheets (store/schema.sql,
-- read by gridservice.catalogue.queue_status); changes to it forget the kept data snapshot hash.
CREATE TABLE queue_status_listings (
    source_id  CITEXT NOT NULL,
    market     CITEXT NOT NULL,
    record_key CITEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('inactive', 'cancelled', 'commissioned')),
    body       TEXT NOT NULL,
    PRIMARY KEY (source_id, record_key, status)
);
CREATE TRIGGER queue_status_listings_snapshot
    AFTER INSERT OR UPDATE OR DELETE ON queue_status_listings
    FOR EACH STATEMENT EXECUTE FUNCTION forget_data_snapshot();
