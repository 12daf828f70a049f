-- Migration 0003: the queue history's second version (store/schema.sql), and the kept data
-- snapshot hash forgotten when any of the four queue-history tables changes.
ALTER TABLE queue_reports ADD COLUMN sheets TEXT NOT NULL DEFAULT '';

ALTER TABLE queue_history ADD COLUMN milestone TEXT NOT NULL DEFAULT '';
ALTER TABLE queue_history ADD COLUMN upstream_locator TEXT;
ALTER TABLE queue_history DROP CONSTRAINT queue_history_pkey;
ALTER TABLE queue_history ADD PRIMARY KEY (report_id, project_id, sheet, milestone);

ALTER TABLE interconnection_points ADD COLUMN quality_flags TEXT NOT NULL DEFAULT '[]';

CREATE TRIGGER queue_reports_snapshot AFTER INSERT OR UPDATE OR DELETE ON queue_reports
    FOR EACH STATEMENT EXECUTE FUNCTION forget_data_snapshot();
CREATE TRIGGER queue_history_snapshot AFTER INSERT OR UPDATE OR DELETE ON queue_history
    FOR EACH STATEMENT EXECUTE FUNCTION forget_data_snapshot();
CREATE TRIGGER interconnection_points_snapshot
    AFTER INSERT OR UPDATE OR DELETE ON interconnection_points
    FOR EACH STATEMENT EXECUTE FUNCTION forget_data_snapshot();
CREATE TRIGGER interconnection_point_projects_snapshot
    AFTER INSERT OR UPDATE OR DELETE ON interconnection_point_projects
    FOR EACH STATEMENT EXECUTE FUNCTION forget_data_snapshot();
