-- Migration 0007: the figures a portfolio lists of an assessment, kept when it is stored
-- (GET /v1/sites?include=latest_assessment_summary). Assessments stored before have none:
-- the listing summarises those from their body.
CREATE TABLE assessment_summaries (
    assessment_id TEXT PRIMARY KEY REFERENCES assessments(id),
    tenant_id     TEXT NOT NULL,
    site_id       TEXT NOT NULL,
    summary       TEXT NOT NULL,
    change_basis  TEXT NOT NULL
);
