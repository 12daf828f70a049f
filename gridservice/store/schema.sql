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
    created_at   TEXT NOT NULL,
    role         TEXT NOT NULL DEFAULT 'tenant' CHECK (role IN ('tenant', 'reviewer')),
    reviewer     TEXT   -- the reviewer's name, for role 'reviewer'
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

-- Retail service territories as polygons (HIFLD via CommonGrid, ODbL 1.0) and the market
-- regions a point lies in (HIFLD ISO boundaries, with the non-ISO regions). Each row keeps
-- its feature's file, index and the file's SHA-256 in `body.evidence`.
CREATE TABLE IF NOT EXISTS retail_territory_polygons (
    region_id  TEXT PRIMARY KEY,      -- 'region-st-64196'
    utility_id TEXT,                  -- 'eia:64196' (joins EIA-861), null when HIFLD has none
    min_lon REAL NOT NULL, min_lat REAL NOT NULL, max_lon REAL NOT NULL, max_lat REAL NOT NULL,
    geojson    TEXT NOT NULL,
    body       TEXT NOT NULL          -- name, state, customers, evidence
);
CREATE INDEX IF NOT EXISTS retail_territory_polygons_utility
    ON retail_territory_polygons(utility_id);
CREATE TABLE IF NOT EXISTS market_regions (
    region_id TEXT PRIMARY KEY,       -- 'region-iso-pjm'
    min_lon REAL NOT NULL, min_lat REAL NOT NULL, max_lon REAL NOT NULL, max_lat REAL NOT NULL,
    geojson   TEXT NOT NULL,
    body      TEXT NOT NULL           -- code, name, isIso, evidence
);

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
-- The plants in a box (a site's surroundings), read from the index alone.
CREATE INDEX IF NOT EXISTS generation_plants_position
    ON generation_plants(longitude, latitude, id);

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
-- The screening's market of a site no territory names: a state's records counted by market
-- from the index alone (a scan of every record of the state without it).
CREATE INDEX IF NOT EXISTS queue_records_state_market ON queue_records(state, market COLLATE NOCASE);
-- The queue record of a queue id in a market (a surroundings' listed projects' `recordId`).
CREATE INDEX IF NOT EXISTS queue_records_key
    ON queue_records(market COLLATE NOCASE, upper(json_extract(body, '$.recordKey')));
CREATE TABLE IF NOT EXISTS queue_record_details (
    record_id TEXT PRIMARY KEY REFERENCES queue_records(id),
    body      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS queue_record_evidence (
    record_id TEXT PRIMARY KEY REFERENCES queue_records(id),
    body      TEXT NOT NULL
);

-- An operator report's word on projects off its active sheets (ERCOT GIS "Inactive
-- Projects", "Cancellation Update", "Commissioning Update"): one row per project and status,
-- replaced with that source's queue records. Read by gridservice.catalogue.queue_status.
CREATE TABLE IF NOT EXISTS queue_status_listings (
    source_id  TEXT NOT NULL COLLATE NOCASE,
    market     TEXT NOT NULL COLLATE NOCASE,
    record_key TEXT NOT NULL COLLATE NOCASE,   -- the operator's id (ERCOT INR)
    status     TEXT NOT NULL CHECK (status IN ('inactive', 'cancelled', 'commissioned')),
    body       TEXT NOT NULL,                  -- statusDate, sourceLocator, reportedAt, sourceRow...
    PRIMARY KEY (source_id, record_key, status)
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
-- The screening's `data_as_of` reads the newest chunk's known_from: an index answers it
-- at once (without it, a scan of every chunk: 26 ms at demo scale 100, each assessment).
CREATE INDEX IF NOT EXISTS evidence_chunks_known_from ON evidence_chunks(known_from);
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
-- The impact index of evidence search (store/evidence_impacts.py): every term of
-- evidence_fts with the number of chunks it is in, and for terms in many chunks their
-- postings in blocks of chunks in chunk-id order, with each block's largest bm25 term
-- part. Rebuilt when the demo store is built, after a harvest and when the service opens
-- a store; used only while meta.evidence_impacts_generation is the evidence generation.
CREATE TABLE IF NOT EXISTS evidence_term_stats (
    term   TEXT PRIMARY KEY,
    df     INTEGER NOT NULL,
    bounds BLOB  -- (block, largest bm25 part) per block the term is in; NULL: a rare term
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS evidence_exact_terms (
    term TEXT PRIMARY KEY  -- every term of the unstemmed index evidence_exact
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS evidence_term_blocks (
    term       TEXT NOT NULL,
    block      INTEGER NOT NULL,
    postings   BLOB NOT NULL,
    PRIMARY KEY (term, block)
) WITHOUT ROWID;
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

-- Queue history: what each harvested monthly operator report said about each project.
-- One row per harvested report (an ERCOT GIS report month, or a demo release).
CREATE TABLE IF NOT EXISTS queue_reports (
    report_id    TEXT PRIMARY KEY,             -- e.g. 'ercot-gis-2025-11'
    market       TEXT NOT NULL COLLATE NOCASE, -- 'ERCOT'
    report_month TEXT NOT NULL,                -- 'YYYY-MM', the month of activity it reports
    report_date  TEXT,                         -- ISO date the report was run, when stated
    file_name    TEXT NOT NULL,                -- the source file the rows were read from
    sha256       TEXT NOT NULL,                -- of that file
    run_id       TEXT,                         -- harvest_runs.run_id
    sheets       TEXT NOT NULL DEFAULT '',     -- the sheets the source holds for the month,
                                               -- comma-separated ('large_gen,small_gen' for
                                               -- the history extract: no event sheets)
    UNIQUE (market, report_month)
);
-- One row per project, report and worksheet, each value from the cited row.
CREATE TABLE IF NOT EXISTS queue_history (
    report_id     TEXT NOT NULL REFERENCES queue_reports(report_id),
    project_id    TEXT NOT NULL COLLATE NOCASE, -- the operator's id (ERCOT INR)
    sheet         TEXT NOT NULL CHECK (sheet IN
                    ('large_gen', 'small_gen', 'inactive', 'cancellation', 'commissioning')),
    status        TEXT NOT NULL CHECK (status IN
                    ('active', 'inactive', 'cancelled', 'commissioned')),
    file_name     TEXT NOT NULL,                -- locator: file, worksheet, 1-based row
    worksheet     TEXT NOT NULL,
    row           INTEGER NOT NULL,
    project_name  TEXT,
    county        TEXT COLLATE NOCASE,          -- county name as the report spells it
    county_fips   TEXT,                         -- 5-digit FIPS when the name resolves
    fuel          TEXT,
    technology    TEXT,
    capacity_mw   REAL,
    study_phase   TEXT,
    projected_cod TEXT,                         -- ISO date
    ia_signed     TEXT,                         -- ISO date, NULL when not signed
    security_ntp  TEXT,                         -- financial security and NTP provided: 'Yes' as
                                                -- the report says it (no date given), NULL if not
    event_date    TEXT,                         -- inactive / cancel / approval date on those sheets
    poi_location  TEXT,                         -- raw 'POI Location' text
    -- Sheet 'commissioning' names one approval per row, and a project can pass two in a
    -- month: 'energization', 'synchronization' or 'commercial_operation'; '' elsewhere.
    milestone     TEXT NOT NULL DEFAULT '',
    -- A row read from an extract: the publisher's workbook, sheet and row it was taken from.
    upstream_locator TEXT,
    PRIMARY KEY (report_id, project_id, sheet, milestone)
);
CREATE INDEX IF NOT EXISTS queue_history_county ON queue_history(county_fips, report_id);
CREATE INDEX IF NOT EXISTS queue_history_project ON queue_history(project_id, report_id);
-- Why a project left the queue: its rows on the inactive, cancellation and commissioning
-- sheets (a tenth of the rows), found without reading its queued rows in every report.
CREATE INDEX IF NOT EXISTS queue_history_events ON queue_history(project_id, report_id)
    WHERE status <> 'active';

-- Interconnection points the queue names in 'POI Location': buses and taps on lines.
CREATE TABLE IF NOT EXISTS interconnection_points (
    point_id        TEXT PRIMARY KEY,   -- 'bus:59903', 'tap:23912-23914:345:C2', 'raw:<sha1>'
    kind            TEXT NOT NULL CHECK (kind IN ('bus', 'tap', 'unparsed')),
    kv              REAL,
    bus_number      INTEGER,            -- kind 'bus'
    bus_name        TEXT,
    from_bus_number INTEGER,            -- kind 'tap': the line's two ends
    from_bus_name   TEXT,
    to_bus_number   INTEGER,
    to_bus_name     TEXT,
    circuit         TEXT,
    raw             TEXT NOT NULL,      -- the text as the report has it
    quality_flags   TEXT NOT NULL DEFAULT '[]'  -- JSON list of quality flags
                                                -- (unparsedPointOfInterconnection, missingVoltage)
);
CREATE TABLE IF NOT EXISTS interconnection_point_projects (
    point_id    TEXT NOT NULL REFERENCES interconnection_points(point_id),
    project_id  TEXT NOT NULL COLLATE NOCASE,
    county_fips TEXT,
    report_id   TEXT NOT NULL REFERENCES queue_reports(report_id),
    file_name   TEXT NOT NULL,
    worksheet   TEXT NOT NULL,
    row         INTEGER NOT NULL,
    PRIMARY KEY (point_id, project_id, report_id)
);
CREATE INDEX IF NOT EXISTS ipp_county ON interconnection_point_projects(county_fips);
-- What a site's surroundings read of the four tables above, summarised once
-- (store/surroundings_summary.py): per project and county, the months its rows say it was
-- queued, inactive, cancelled and commissioned, and the fuel of its newest queued row there;
-- per interconnection point and county, its newest naming row and every project naming it.
-- Rebuilt when the demo store is built, after a harvest and when the service opens a store;
-- used only while meta.surroundings_summary is set (any change to the four tables deletes it).
CREATE TABLE IF NOT EXISTS queue_project_counties (
    market            TEXT NOT NULL,  -- upper(queue_reports.market)
    county_fips       TEXT NOT NULL,
    project_key       TEXT NOT NULL,  -- upper(project_id)
    newest_active     TEXT,           -- 'YYYY-MM' + '1' large-gen / '0' small-gen; NULL: never
    fuel              TEXT,           -- of that newest queued row
    first_active      TEXT,
    last_inactive     TEXT,
    last_cancelled    TEXT,
    last_commissioned TEXT,
    PRIMARY KEY (market, county_fips, project_key)
) WITHOUT ROWID;
-- The dropout rates' counts, kept per county: per market, county, fuel and outcome, how many
-- projects named in that county alone (of every county of the market) were queued there and
-- went inactive, were cancelled or were commissioned (an outcome counts from the project's
-- first queued month on, 1 or 0). A radius adds its counties' counts up; the few projects
-- named in several counties (queue_multi_county_keys) are combined from their rows in
-- queue_project_counties.
CREATE TABLE IF NOT EXISTS queue_county_outcomes (
    market       TEXT NOT NULL,
    county_fips  TEXT NOT NULL,
    fuel         TEXT NOT NULL,     -- '' when the newest queued row names none
    inactive     INTEGER NOT NULL,
    cancelled    INTEGER NOT NULL,
    commissioned INTEGER NOT NULL,
    projects     INTEGER NOT NULL,
    PRIMARY KEY (market, county_fips, fuel, inactive, cancelled, commissioned)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS queue_multi_county_keys (
    market      TEXT NOT NULL,  -- the projects a market names in more than one county
    project_key TEXT NOT NULL,
    PRIMARY KEY (market, project_key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS interconnection_point_counties (
    county_fips TEXT NOT NULL,
    point_id    TEXT NOT NULL,
    report_id   TEXT NOT NULL,        -- the newest naming row (the highest row of its report)
    file_name   TEXT NOT NULL,
    worksheet   TEXT NOT NULL,
    row         INTEGER NOT NULL,
    project_ids TEXT NOT NULL,        -- every project naming the point there, comma-separated
    PRIMARY KEY (county_fips, point_id)
) WITHOUT ROWID;

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
-- The figures a portfolio lists of an assessment, kept when it is stored (GET /v1/sites
-- ?include=latest_assessment_summary, an extension), and what the "changed since" mark reads.
CREATE TABLE IF NOT EXISTS assessment_summaries (
    assessment_id TEXT PRIMARY KEY REFERENCES assessments(id),
    tenant_id     TEXT NOT NULL,
    site_id       TEXT NOT NULL,
    summary       TEXT NOT NULL,   -- JSON: the wire AssessmentSummary
    change_basis  TEXT NOT NULL    -- JSON: the assessment's id, createdAt, report and markets
);
-- Who changed which member of a site, and when (PATCH /v1/sites/{siteId}, an extension).
CREATE TABLE IF NOT EXISTS site_changes (
    site_id    TEXT NOT NULL REFERENCES sites(id),
    tenant_id  TEXT NOT NULL,
    changed_at TEXT NOT NULL,
    changed_by TEXT NOT NULL,   -- 'tenant:<id> token:sha256:<first 12 hex>'
    changes    TEXT NOT NULL    -- JSON: [{"field", "from", "to"}]
);
CREATE INDEX IF NOT EXISTS site_changes_site ON site_changes(tenant_id, site_id, changed_at);
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
-- Expert review cases (POST /v1/review-cases, an extension): an assessment sent to named
-- reviewers, their reviews (each amendment a new revision) and the adjudicated answers.
CREATE TABLE IF NOT EXISTS review_cases (
    id            TEXT PRIMARY KEY,
    tenant_id     TEXT NOT NULL,
    assessment_id TEXT NOT NULL REFERENCES assessments(id),
    state         TEXT NOT NULL,   -- gridservice.reviews.states.STATES
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    body          TEXT NOT NULL    -- JSON: id, assessmentId, reviewers, dueDate, createdAt
);
CREATE INDEX IF NOT EXISTS review_cases_tenant ON review_cases(tenant_id, id);
CREATE TABLE IF NOT EXISTS review_assignments (
    case_id   TEXT NOT NULL REFERENCES review_cases(id),
    tenant_id TEXT NOT NULL,
    reviewer  TEXT NOT NULL,
    PRIMARY KEY (case_id, reviewer)
);
CREATE INDEX IF NOT EXISTS review_assignments_reviewer
    ON review_assignments(tenant_id, reviewer, case_id);
CREATE TABLE IF NOT EXISTS reviews (
    id           TEXT PRIMARY KEY,
    case_id      TEXT NOT NULL REFERENCES review_cases(id),
    tenant_id    TEXT NOT NULL,
    reviewer     TEXT NOT NULL,
    revision     INTEGER NOT NULL,
    submitted_at TEXT NOT NULL,
    body         TEXT NOT NULL,   -- JSON: the wire Review
    UNIQUE (case_id, reviewer, revision)
);
CREATE TABLE IF NOT EXISTS review_adjudications (
    case_id   TEXT NOT NULL REFERENCES review_cases(id),
    tenant_id TEXT NOT NULL,
    factor    TEXT NOT NULL,
    body      TEXT NOT NULL,      -- JSON: factor, severity, decidedBy, reason, decidedAt
    PRIMARY KEY (case_id, factor)
);
