-- Migration 0013: reviewers' tokens, and expert review cases (POST /v1/review-cases).
-- Review cases are tenant data like sites and assessments: no public snapshot trigger.
ALTER TABLE tokens ADD COLUMN role TEXT NOT NULL DEFAULT 'tenant'
    CHECK (role IN ('tenant', 'reviewer'));
ALTER TABLE tokens ADD COLUMN reviewer TEXT;
CREATE TABLE review_cases (
    id            TEXT COLLATE "C" PRIMARY KEY,
    tenant_id     TEXT COLLATE "C" NOT NULL,
    assessment_id TEXT COLLATE "C" NOT NULL REFERENCES assessments(id),
    state         TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    body          TEXT NOT NULL
);
CREATE INDEX review_cases_tenant ON review_cases(tenant_id, id);
CREATE TABLE review_assignments (
    case_id   TEXT COLLATE "C" NOT NULL REFERENCES review_cases(id),
    tenant_id TEXT COLLATE "C" NOT NULL,
    reviewer  TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (case_id, reviewer)
);
CREATE INDEX review_assignments_reviewer ON review_assignments(tenant_id, reviewer, case_id);
CREATE TABLE reviews (
    id           TEXT COLLATE "C" PRIMARY KEY,
    case_id      TEXT COLLATE "C" NOT NULL REFERENCES review_cases(id),
    tenant_id    TEXT COLLATE "C" NOT NULL,
    reviewer     TEXT COLLATE "C" NOT NULL,
    revision     INTEGER NOT NULL,
    submitted_at TEXT NOT NULL,
    body         TEXT NOT NULL,
    UNIQUE (case_id, reviewer, revision)
);
CREATE TABLE review_adjudications (
    case_id   TEXT COLLATE "C" NOT NULL REFERENCES review_cases(id),
    tenant_id TEXT COLLATE "C" NOT NULL,
    factor    TEXT COLLATE "C" NOT NULL,
    body      TEXT NOT NULL,
    PRIMARY KEY (case_id, factor)
);
