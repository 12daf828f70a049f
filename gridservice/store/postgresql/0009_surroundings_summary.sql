-- Migration 0009: the surroundings' summary tables (store/schema.sql,
-- store/surroundings_summary.py), and meta.surroundings_summary forgotten when any of the
-- four queue-history tables changes (the summary is used only while that key is set); the
-- queue record of a queue id in a market found by an index (a surroundings' `recordId`), and
-- the plants in a box read from an index.
CREATE TABLE queue_project_counties (
    market            TEXT NOT NULL,
    county_fips       TEXT NOT NULL,
    project_key       TEXT NOT NULL,
    newest_active     TEXT,
    fuel              TEXT,
    first_active      TEXT,
    last_inactive     TEXT,
    last_cancelled    TEXT,
    last_commissioned TEXT,
    PRIMARY KEY (market, county_fips, project_key)
);
CREATE TABLE interconnection_point_counties (
    county_fips TEXT NOT NULL,
    point_id    TEXT NOT NULL,
    report_id   TEXT NOT NULL,
    file_name   TEXT NOT NULL,
    worksheet   TEXT NOT NULL,
    row         INTEGER NOT NULL,
    project_ids TEXT NOT NULL,
    PRIMARY KEY (county_fips, point_id)
);

CREATE FUNCTION forget_surroundings_summary() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM meta WHERE key = 'surroundings_summary';
    RETURN NULL;
END $$;
CREATE TRIGGER queue_reports_summary AFTER INSERT OR UPDATE OR DELETE ON queue_reports
    FOR EACH STATEMENT EXECUTE FUNCTION forget_surroundings_summary();
CREATE TRIGGER queue_history_summary AFTER INSERT OR UPDATE OR DELETE ON queue_history
    FOR EACH STATEMENT EXECUTE FUNCTION forget_surroundings_summary();
CREATE TRIGGER interconnection_points_summary
    AFTER INSERT OR UPDATE OR DELETE ON interconnection_points
    FOR EACH STATEMENT EXECUTE FUNCTION forget_surroundings_summary();
CREATE TRIGGER interconnection_point_projects_summary
    AFTER INSERT OR UPDATE OR DELETE ON interconnection_point_projects
    FOR EACH STATEMENT EXECUTE FUNCTION forget_surroundings_summary();

CREATE INDEX queue_records_key ON queue_records(market, upper(body::jsonb ->> 'recordKey'));
CREATE INDEX generation_plants_position ON generation_plants(longitude, latitude, id);
