-- Grid Data Service on PostgreSQL, migration 0001: the tables of store/schema.sql (SQLite).
--
-- Same tables, columns and meaning as the SQLite schema. Differences, and why:
-- - Keys and ordered columns are TEXT COLLATE "C": keyset paging orders by id in byte order,
--   as SQLite's BINARY collation does, whatever the database's locale.
-- - SQLite's COLLATE NOCASE columns are citext (case-insensitive `=`).
-- - Evidence search reads two generated tsvector columns of evidence_chunks (stemmed
--   English, and unstemmed for exact phrases) instead of FTS5 tables.
-- - Triggers are PL/pgSQL functions; json_extract is defined for the store's JSON paths.
-- Applied by gridservice.store.migrations, which records it in schema_migrations.

CREATE EXTENSION IF NOT EXISTS citext;

CREATE TABLE meta (
    key   TEXT COLLATE "C" PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE tokens (
    token_sha256 TEXT COLLATE "C" PRIMARY KEY,
    tenant_id    TEXT COLLATE "C" NOT NULL,
    created_at   TEXT NOT NULL
);
CREATE INDEX tokens_tenant ON tokens(tenant_id);

-- Geography -------------------------------------------------------------------------
CREATE TABLE states (
    state_fips TEXT COLLATE "C" PRIMARY KEY,
    state      TEXT NOT NULL,
    name       TEXT NOT NULL,
    geojson    TEXT NOT NULL
);
CREATE TABLE counties (
    county_fips TEXT COLLATE "C" PRIMARY KEY,
    state_fips  TEXT COLLATE "C" NOT NULL,
    state       TEXT NOT NULL,
    name        TEXT NOT NULL,
    min_lon DOUBLE PRECISION NOT NULL, min_lat DOUBLE PRECISION NOT NULL,
    max_lon DOUBLE PRECISION NOT NULL, max_lat DOUBLE PRECISION NOT NULL,
    geojson     TEXT NOT NULL
);
CREATE INDEX counties_state ON counties(state);
CREATE INDEX counties_state_nocase ON counties(lower(state));

CREATE TABLE service_territories (
    territory_id TEXT COLLATE "C" PRIMARY KEY,
    utility_id   TEXT NOT NULL,
    body         TEXT NOT NULL
);
CREATE TABLE territory_counties (
    territory_id TEXT COLLATE "C" NOT NULL REFERENCES service_territories(territory_id),
    county_fips  TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (territory_id, county_fips)
);
CREATE INDEX territory_counties_fips ON territory_counties(county_fips);

CREATE TABLE facts (
    id         TEXT COLLATE "C" PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('load_forecast', 'resource_adequacy')),
    market     CITEXT NOT NULL,
    period     TEXT NOT NULL,
    valid_from TEXT COLLATE "C" NOT NULL,
    valid_to   TEXT COLLATE "C" NOT NULL,
    known_from TEXT COLLATE "C" NOT NULL,
    known_to   TEXT COLLATE "C",
    body       TEXT NOT NULL
);
CREATE INDEX facts_kind_market ON facts(kind, market, id);

CREATE TABLE generators (
    id          TEXT COLLATE "C" PRIMARY KEY,
    source_id   CITEXT NOT NULL,
    is_current  INTEGER NOT NULL,
    state       CITEXT,
    status      CITEXT,
    ba_code     CITEXT,
    technology  CITEXT,
    plant_id    BIGINT,
    capacity_mw DOUBLE PRECISION,
    body        TEXT NOT NULL
);
CREATE INDEX generators_current ON generators(is_current, id);
CREATE INDEX generators_plant ON generators(plant_id, id);

CREATE TABLE generation_plants (
    id        TEXT COLLATE "C" PRIMARY KEY,
    plant_id  BIGINT,
    state     CITEXT,
    county    CITEXT,
    ba_code   CITEXT,
    latitude  DOUBLE PRECISION,
    longitude DOUBLE PRECISION,
    body      TEXT NOT NULL
);

CREATE TABLE generator_operations (
    id           TEXT COLLATE "C" PRIMARY KEY,
    plant_id     BIGINT,
    generator_id CITEXT,
    ba_code      CITEXT,
    state        CITEXT,
    period       TEXT,
    body         TEXT NOT NULL
);
CREATE INDEX generator_operations_plant ON generator_operations(plant_id, id);

CREATE TABLE ba_operations (
    id       TEXT COLLATE "C" PRIMARY KEY,
    ba_code  CITEXT NOT NULL,
    region   CITEXT,
    utc_time TEXT COLLATE "C" NOT NULL,
    body     TEXT NOT NULL
);
CREATE INDEX ba_operations_ba ON ba_operations(ba_code, utc_time);

CREATE TABLE transmission_projects (
    id     TEXT COLLATE "C" PRIMARY KEY,
    status CITEXT,
    body   TEXT NOT NULL
);
CREATE TABLE transmission_project_counties (
    project_id TEXT COLLATE "C" NOT NULL REFERENCES transmission_projects(id),
    county     CITEXT NOT NULL,
    state      CITEXT,
    PRIMARY KEY (project_id, county)
);
CREATE INDEX tpc_county ON transmission_project_counties(county);

CREATE TABLE queue_records (
    id     TEXT COLLATE "C" PRIMARY KEY,
    market CITEXT,
    state  CITEXT,
    county CITEXT,
    status CITEXT,
    body   TEXT NOT NULL
);
CREATE INDEX queue_records_county ON queue_records(state, county);
CREATE TABLE queue_record_details (
    record_id TEXT COLLATE "C" PRIMARY KEY REFERENCES queue_records(id),
    body      TEXT NOT NULL
);
CREATE TABLE queue_record_evidence (
    record_id TEXT COLLATE "C" PRIMARY KEY REFERENCES queue_records(id),
    body      TEXT NOT NULL
);

CREATE TABLE docket_filings (
    id             TEXT COLLATE "C" PRIMARY KEY,
    control_number CITEXT NOT NULL,
    body           TEXT NOT NULL
);
CREATE INDEX docket_filings_cn ON docket_filings(control_number, id);

-- Evidence search. SQLite tokenises with FTS5's unicode61 (runs of letters and digits,
-- diacritics removed) and stems with Porter's algorithm; these configurations do the same:
-- punctuation becomes space before parsing, `unaccent` removes diacritics, `gds_porter` is
-- Snowball's Porter stemmer, and no word is dropped as a stop word. `gds_exact` is the same
-- text unstemmed, for exact phrases.
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE TEXT SEARCH DICTIONARY gds_porter (TEMPLATE = snowball, Language = porter);
CREATE TEXT SEARCH CONFIGURATION gds_stemmed (COPY = simple);
ALTER TEXT SEARCH CONFIGURATION gds_stemmed ALTER MAPPING FOR
    asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part,
    hword_numpart, sfloat, float, int, uint, version
    WITH unaccent, gds_porter;
CREATE TEXT SEARCH CONFIGURATION gds_exact (COPY = simple);
ALTER TEXT SEARCH CONFIGURATION gds_exact ALTER MAPPING FOR
    asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part,
    hword_numpart, sfloat, float, int, uint, version
    WITH unaccent, simple;

-- The text as the tokeniser sees it: every run of punctuation is a word break.
CREATE FUNCTION gds_search_text(content TEXT) RETURNS TEXT
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT regexp_replace(content, '[[:punct:]]+', ' ', 'g') $$;
-- How many tokens a document holds (BM25's document length).
CREATE FUNCTION gds_token_count(document TSVECTOR) RETURNS INTEGER
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT coalesce(sum(array_length(positions, 1)), 0)::integer FROM unnest(document) $$;

-- Evidence chunks. Search reads the generated, GIN-indexed tsvectors: the stemmed text
-- (weight A: the chunk's own words; no other field is indexed) and the unstemmed text.
CREATE TABLE evidence_chunks (
    rowid                 BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    chunk_id              TEXT COLLATE "C" NOT NULL UNIQUE,
    source_id             CITEXT NOT NULL,
    authority             TEXT NOT NULL,
    redistribution_policy TEXT NOT NULL,
    kind                  TEXT NOT NULL CHECK (kind IN ('prose', 'table', 'figure')),
    page                  INTEGER,
    known_from            TEXT COLLATE "C" NOT NULL,
    known_to              TEXT COLLATE "C",
    content               TEXT NOT NULL,
    body                  TEXT NOT NULL,
    search_stemmed        TSVECTOR GENERATED ALWAYS AS (setweight(to_tsvector(
                              'gds_stemmed'::regconfig, gds_search_text(content)), 'A')) STORED,
    search_exact          TSVECTOR GENERATED ALWAYS AS (to_tsvector(
                              'gds_exact'::regconfig, gds_search_text(content))) STORED,
    token_count           INTEGER GENERATED ALWAYS AS (gds_token_count(to_tsvector(
                              'gds_exact'::regconfig, gds_search_text(content)))) STORED
);
CREATE INDEX evidence_search_stemmed ON evidence_chunks USING gin(search_stemmed);
CREATE INDEX evidence_search_exact ON evidence_chunks USING gin(search_exact);

-- Queue history and the interconnection points it names (see store/schema.sql).
CREATE TABLE queue_reports (
    report_id    TEXT COLLATE "C" PRIMARY KEY,
    market       CITEXT NOT NULL,
    report_month TEXT COLLATE "C" NOT NULL,
    report_date  TEXT,
    file_name    TEXT NOT NULL,
    sha256       TEXT NOT NULL,
    run_id       TEXT,
    UNIQUE (market, report_month)
);
CREATE TABLE queue_history (
    report_id     TEXT COLLATE "C" NOT NULL REFERENCES queue_reports(report_id),
    project_id    CITEXT NOT NULL,
    sheet         TEXT NOT NULL CHECK (sheet IN
                    ('large_gen', 'small_gen', 'inactive', 'cancellation', 'commissioning')),
    status        TEXT NOT NULL CHECK (status IN
                    ('active', 'inactive', 'cancelled', 'commissioned')),
    file_name     TEXT NOT NULL,
    worksheet     TEXT NOT NULL,
    row           INTEGER NOT NULL,
    project_name  TEXT,
    county        CITEXT,
    county_fips   TEXT COLLATE "C",
    fuel          TEXT,
    technology    TEXT,
    capacity_mw   DOUBLE PRECISION,
    study_phase   TEXT,
    projected_cod TEXT,
    ia_signed     TEXT,
    security_ntp  TEXT,
    event_date    TEXT,
    poi_location  TEXT,
    PRIMARY KEY (report_id, project_id, sheet)
);
CREATE INDEX queue_history_county ON queue_history(county_fips, report_id);
CREATE INDEX queue_history_project ON queue_history(project_id, report_id);

CREATE TABLE interconnection_points (
    point_id        TEXT COLLATE "C" PRIMARY KEY,
    kind            TEXT NOT NULL CHECK (kind IN ('bus', 'tap', 'unparsed')),
    kv              DOUBLE PRECISION,
    bus_number      BIGINT,
    bus_name        TEXT,
    from_bus_number BIGINT,
    from_bus_name   TEXT,
    to_bus_number   BIGINT,
    to_bus_name     TEXT,
    circuit         TEXT,
    raw             TEXT NOT NULL
);
CREATE TABLE interconnection_point_projects (
    point_id    TEXT COLLATE "C" NOT NULL REFERENCES interconnection_points(point_id),
    project_id  CITEXT NOT NULL,
    county_fips TEXT COLLATE "C",
    report_id   TEXT COLLATE "C" NOT NULL REFERENCES queue_reports(report_id),
    file_name   TEXT NOT NULL,
    worksheet   TEXT NOT NULL,
    row         INTEGER NOT NULL,
    PRIMARY KEY (point_id, project_id, report_id)
);
CREATE INDEX ipp_county ON interconnection_point_projects(county_fips);

-- Harvest runs, in the order they were recorded (rowid, as in SQLite).
CREATE TABLE harvest_runs (
    rowid       BIGINT GENERATED BY DEFAULT AS IDENTITY UNIQUE,
    run_id      TEXT COLLATE "C" PRIMARY KEY,
    source_id   TEXT NOT NULL,
    asset_hash  TEXT NOT NULL,
    observed_at TEXT NOT NULL,
    body        TEXT NOT NULL
);

-- Tenant-scoped resources ------------------------------------------------------------
CREATE TABLE sites (
    id         TEXT COLLATE "C" PRIMARY KEY,
    tenant_id  TEXT COLLATE "C" NOT NULL,
    created_at TEXT NOT NULL,
    body       TEXT NOT NULL
);
CREATE INDEX sites_tenant ON sites(tenant_id, id);
CREATE TABLE assessments (
    id         TEXT COLLATE "C" PRIMARY KEY,
    tenant_id  TEXT COLLATE "C" NOT NULL,
    site_id    TEXT COLLATE "C" NOT NULL REFERENCES sites(id),
    created_at TEXT NOT NULL,
    body       TEXT NOT NULL
);
CREATE INDEX assessments_site ON assessments(tenant_id, site_id, id);
CREATE TABLE exports (
    id            TEXT COLLATE "C" PRIMARY KEY,
    tenant_id     TEXT COLLATE "C" NOT NULL,
    assessment_id TEXT COLLATE "C" NOT NULL REFERENCES assessments(id),
    created_at    TEXT NOT NULL,
    body          TEXT NOT NULL
);
CREATE TABLE idempotency_keys (
    tenant_id    TEXT COLLATE "C" NOT NULL,
    operation    TEXT COLLATE "C" NOT NULL,
    key          TEXT COLLATE "C" NOT NULL,
    request_hash TEXT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
    status_code  INTEGER,
    response     TEXT,
    created_at   TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (tenant_id, operation, key)
);

-- Rate-limit buckets shared by every instance: one token bucket per client key.
CREATE TABLE rate_limit_buckets (
    bucket     TEXT COLLATE "C" PRIMARY KEY,  -- e.g. SHA-256 of a bearer token
    tokens     DOUBLE PRECISION NOT NULL,     -- left after the last request
    updated_at DOUBLE PRECISION NOT NULL,     -- seconds since the epoch (database clock)
    allowed    BOOLEAN NOT NULL               -- whether the last request was let through
);

-- SQLite's json_extract for the store's simple paths ('$.a.b'), giving the value as text.
CREATE FUNCTION json_extract(doc TEXT, path TEXT) RETURNS TEXT
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT doc::jsonb #>> string_to_array(substr(path, 3), '.') $$;

-- Every change to evidence bumps meta.evidence_generation (it keys the ranking caches).
CREATE FUNCTION bump_evidence_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO meta(key, value) VALUES ('evidence_generation', '1')
        ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text;
    RETURN NULL;
END $$;
CREATE TRIGGER evidence_chunks_generation AFTER INSERT OR UPDATE OR DELETE ON evidence_chunks
    FOR EACH STATEMENT EXECUTE FUNCTION bump_evidence_generation();

-- Any change to public data forgets the kept data snapshot hash (meta_reads.SNAPSHOT_KEY).
CREATE FUNCTION forget_data_snapshot() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM meta WHERE key = 'data_snapshot_sha256';
    RETURN NULL;
END $$;
DO $$
DECLARE
    data_table TEXT;
BEGIN
    FOREACH data_table IN ARRAY ARRAY['states', 'counties', 'service_territories',
        'territory_counties', 'facts', 'generators', 'generation_plants',
        'generator_operations', 'ba_operations', 'transmission_projects', 'queue_records',
        'queue_record_details', 'queue_record_evidence', 'docket_filings', 'evidence_chunks',
        'harvest_runs']
    LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I '
            'FOR EACH STATEMENT EXECUTE FUNCTION forget_data_snapshot()',
            data_table || '_snapshot', data_table);
    END LOOP;
END $$;

INSERT INTO meta(key, value) VALUES ('schema_version', '1');
