-- Grid Data Service: the SQLite schema shared by the store, the demo builder and the harvesters.
--
-- Every resource table keeps the full wire record (camelCase JSON, every documented field
-- present, null when unknown) in `body`, plus the columns its filters and order need.
-- Routes never see SQL; gridservice.store is the only module that reads these tables.
-- Order key everywhere is `id` ascending (TEXT, compared with BINARY collation).

PRAGMA foreign_keys = ON;

CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);  -- e.g. release_id, data_kind ('demo' | 'harvest'), built_at, schema_version

CREATE TABLE IF NOT EXISTS tokens (
    token_sha256 TEXT PRIMARY KEY,
    tenant_id    TEXT NOT NULL,
    created_at   TEXT NOT NULL
);

-- Geography -------------------------------------------------------------------------
CREATE TABLE IF NOT EXISTS states (
    state_fips TEXT PRIMARY KEY,      -- '48'
    state      TEXT NOT NULL,         -- 'TX'
    name       TEXT NOT NULL,
    geojson    TEXT NOT NULL          -- GeoJSON geometry (Polygon/MultiPolygon), lon/lat
);
CREATE TABLE IF NOT EXISTS counties (
    county_fips TEXT PRIMARY KEY,     -- '48453'
    state_fips  TEXT NOT NULL,
    state       TEXT NOT NULL,        -- 'TX'
    name        TEXT NOT NULL,        -- 'Travis'
    min_lon REAL NOT NULL, min_lat REAL NOT NULL, max_lon REAL NOT NULL, max_lat REAL NOT NULL,
    geojson     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS counties_state ON counties(state);

-- Service territories: a utility's territory is a union of counties.
CREATE TABLE IF NOT EXISTS service_territories (
    territory_id TEXT PRIMARY KEY,
    utility_id   TEXT NOT NULL,
    body         TEXT NOT NULL  -- candidate template: utilityId, utility, companyType, ccnNumber,
                                -- isoRto, confidence, confidenceBasis, resolutionMethod, evidence
);
CREATE TABLE IF NOT EXISTS territory_counties (
    territory_id TEXT NOT NULL REFERENCES service_territories(territory_id),
    county_fips  TEXT NOT NULL,
    PRIMARY KEY (territory_id, county_fips)
);
CREATE INDEX IF NOT EXISTS territory_counties_fips ON territory_counties(county_fips);

-- Facts: load forecasts (kind='load_forecast') and resource adequacy (kind='resource_adequacy').
CREATE TABLE IF NOT EXISTS facts (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('load_forecast', 'resource_adequacy')),
    market     TEXT NOT NULL COLLATE NOCASE,
    period     TEXT NOT NULL,
    valid_from TEXT NOT NULL,   -- YYYY-MM-DD
    valid_to   TEXT NOT NULL,   -- YYYY-MM-DD
    known_from TEXT NOT NULL,   -- ISO date-time, UTC, 'YYYY-MM-DDTHH:MM:SSZ'
    known_to   TEXT,            -- null: still known
    body       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS facts_kind_market ON facts(kind, market, id);

CREATE TABLE IF NOT EXISTS generators (
    id          TEXT PRIMARY KEY,   -- unique per (generator, source release)
    source_id   TEXT NOT NULL COLLATE NOCASE,
    is_current  INTEGER NOT NULL,   -- 1: the latest version of this generator
    state       TEXT COLLATE NOCASE,
    status      TEXT COLLATE NOCASE,
    ba_code     TEXT COLLATE NOCASE,
    technology  TEXT COLLATE NOCASE,
    plant_id    INTEGER,            -- agencyPlantId
    capacity_mw REAL,               -- nameplateCapacityMw (min/max_capacity_mw filter)
    body        TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS generators_current ON generators(is_current, id);
CREATE INDEX IF NOT EXISTS generators_plant ON generators(plant_id, id);

CREATE TABLE IF NOT EXISTS generation_plants (
    id        TEXT PRIMARY KEY,
    plant_id  INTEGER,              -- agencyPlantId
    state     TEXT COLLATE NOCASE,
    county    TEXT COLLATE NOCASE,
    ba_code   TEXT COLLATE NOCASE,
    latitude  REAL,
    longitude REAL,
    body      TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS generator_operations (
    id           TEXT PRIMARY KEY,
    plant_id     INTEGER,
    generator_id TEXT COLLATE NOCASE,
    ba_code      TEXT COLLATE NOCASE,
    state        TEXT COLLATE NOCASE,
    period       TEXT,              -- YYYY-MM
    body         TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS generator_operations_plant ON generator_operations(plant_id, id);

CREATE TABLE IF NOT EXISTS ba_operations (
    id       TEXT PRIMARY KEY,
    ba_code  TEXT NOT NULL COLLATE NOCASE,
    region   TEXT COLLATE NOCASE,
    utc_time TEXT NOT NULL,          -- 'YYYY-MM-DDTHH:MM:SSZ'
    body     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ba_operations_ba ON ba_operations(ba_code, utc_time);

CREATE TABLE IF NOT EXISTS transmission_projects (
    id     TEXT PRIMARY KEY,
    status TEXT COLLATE NOCASE,
    body   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS transmission_project_counties (
    project_id TEXT NOT NULL REFERENCES transmission_projects(id),
    county     TEXT NOT NULL COLLATE NOCASE,   -- county name as in `counties` of the body
    state      TEXT COLLATE NOCASE,
    PRIMARY KEY (project_id, county)
);
CREATE INDEX IF NOT EXISTS tpc_county ON transmission_project_counties(county);

CREATE TABLE IF NOT EXISTS queue_records (
    id          TEXT PRIMARY KEY,
    market      TEXT COLLATE NOCASE,
    state       TEXT COLLATE NOCASE,
    county      TEXT COLLATE NOCASE,
    status      TEXT COLLATE NOCASE,
    body        TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS queue_records_county ON queue_records(state, county);
CREATE TABLE IF NOT EXISTS queue_record_details (
    record_id TEXT PRIMARY KEY REFERENCES queue_records(id),
    body      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS queue_record_evidence (
    record_id TEXT PRIMARY KEY REFERENCES queue_records(id),
    body      TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS docket_filings (
    id             TEXT PRIMARY KEY,
    control_number TEXT NOT NULL COLLATE NOCASE,
    body           TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS docket_filings_cn ON docket_filings(control_number, id);

-- Evidence chunks and their full-text index (FTS5, external content).
CREATE TABLE IF NOT EXISTS evidence_chunks (
    rowid                 INTEGER PRIMARY KEY,
    chunk_id              TEXT NOT NULL UNIQUE,
    source_id             TEXT NOT NULL COLLATE NOCASE,
    authority             TEXT NOT NULL,
    redistribution_policy TEXT NOT NULL,
    kind                  TEXT NOT NULL CHECK (kind IN ('prose', 'table', 'figure')),
    page                  INTEGER,
    known_from            TEXT NOT NULL,   -- ISO date-time: when the source said it
    known_to              TEXT,
    content               TEXT NOT NULL,
    body                  TEXT NOT NULL    -- wire record without `rank`
);
CREATE VIRTUAL TABLE IF NOT EXISTS evidence_fts USING fts5(
    content, content='evidence_chunks', content_rowid='rowid', tokenize='porter unicode61'
);

-- What ranking reads besides the index, kept apart from `content` and `body` (about 1 kB a
-- row) so that ranking tens of thousands of matches reads a few hundred narrow pages
-- rather than one wide row per match. Same rowid as evidence_chunks; kept by triggers.
CREATE TABLE IF NOT EXISTS evidence_keys (
    rowid                 INTEGER PRIMARY KEY,
    chunk_id              TEXT NOT NULL,
    source_id             TEXT NOT NULL COLLATE NOCASE,
    authority             TEXT NOT NULL,
    redistribution_policy TEXT NOT NULL,
    kind                  TEXT NOT NULL,
    page                  INTEGER,
    known_from            TEXT NOT NULL,
    known_to              TEXT
);
-- The same text indexed without stemming, for the exact-phrase part of the rank.
CREATE VIRTUAL TABLE IF NOT EXISTS evidence_exact USING fts5(
    content, content='evidence_chunks', content_rowid='rowid', tokenize='unicode61',
    columnsize=0
);
-- Every change to evidence bumps meta.evidence_generation, which keys the service's cache
-- of ranked search results.
CREATE TRIGGER IF NOT EXISTS evidence_chunks_ai AFTER INSERT ON evidence_chunks BEGIN
    INSERT INTO evidence_keys VALUES (new.rowid, new.chunk_id, new.source_id, new.authority,
        new.redistribution_policy, new.kind, new.page, new.known_from, new.known_to);
    INSERT INTO evidence_exact(rowid, content) VALUES (new.rowid, new.content);
    INSERT INTO meta(key, value) VALUES ('evidence_generation', '1')
        ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;
END;
CREATE TRIGGER IF NOT EXISTS evidence_chunks_au AFTER UPDATE ON evidence_chunks BEGIN
    DELETE FROM evidence_keys WHERE rowid = old.rowid;
    INSERT INTO evidence_keys VALUES (new.rowid, new.chunk_id, new.source_id, new.authority,
        new.redistribution_policy, new.kind, new.page, new.known_from, new.known_to);
    INSERT INTO evidence_exact(evidence_exact, rowid, content)
        SELECT 'delete', old.rowid, old.content WHERE old.content IS NOT new.content;
    INSERT INTO evidence_exact(rowid, content)
        SELECT new.rowid, new.content WHERE old.content IS NOT new.content;
    INSERT INTO meta(key, value) VALUES ('evidence_generation', '1')
        ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;
END;
CREATE TRIGGER IF NOT EXISTS evidence_chunks_ad AFTER DELETE ON evidence_chunks BEGIN
    DELETE FROM evidence_keys WHERE rowid = old.rowid;
    INSERT INTO evidence_exact(evidence_exact, rowid, content)
        VALUES ('delete', old.rowid, old.content);
    INSERT INTO meta(key, value) VALUES ('evidence_generation', '1')
        ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;
END;

-- Harvest runs (the `data` of /v1/quality).
CREATE TABLE IF NOT EXISTS harvest_runs (
    run_id      TEXT PRIMARY KEY,
    source_id   TEXT NOT NULL,
    asset_hash  TEXT NOT NULL,
    observed_at TEXT NOT NULL,
    body        TEXT NOT NULL   -- runId, sourceId, assetHash, observedAt, inputRecords,
                                -- acceptedRecords, rejectedRecords, unchangedAsset, rejections
);

-- Tenant-scoped resources ------------------------------------------------------------
CREATE TABLE IF NOT EXISTS sites (
    id         TEXT PRIMARY KEY,
    tenant_id  TEXT NOT NULL,
    created_at TEXT NOT NULL,
    body       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sites_tenant ON sites(tenant_id, id);
CREATE TABLE IF NOT EXISTS assessments (
    id         TEXT PRIMARY KEY,
    tenant_id  TEXT NOT NULL,
    site_id    TEXT NOT NULL REFERENCES sites(id),
    created_at TEXT NOT NULL,
    body       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS assessments_site ON assessments(tenant_id, site_id, id);
CREATE TABLE IF NOT EXISTS exports (
    id            TEXT PRIMARY KEY,
    tenant_id     TEXT NOT NULL,
    assessment_id TEXT NOT NULL REFERENCES assessments(id),
    created_at    TEXT NOT NULL,
    body          TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS idempotency_keys (
    tenant_id    TEXT NOT NULL,
    operation    TEXT NOT NULL,   -- e.g. 'POST /v1/sites'
    key          TEXT NOT NULL,
    request_hash TEXT NOT NULL,   -- SHA-256 of the canonical request body (+ path)
    state        TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
    status_code  INTEGER,
    response     TEXT,
    created_at   TEXT NOT NULL,
    PRIMARY KEY (tenant_id, operation, key)
);
