-- Migration 0011: the dropout rates' counts kept per county (store/surroundings_summary).
-- Per market, county, fuel and outcome, how many projects named in that county alone were
-- queued there and went inactive, were cancelled or were commissioned; the projects named
-- in several counties, whose rows in queue_project_counties are combined within a radius. Both are part of
-- the surroundings summary, rebuilt with it (its version changes with this migration).
CREATE TABLE queue_county_outcomes (
    market       TEXT NOT NULL,
    county_fips  TEXT NOT NULL,
    fuel         TEXT NOT NULL,
    inactive     INTEGER NOT NULL,
    cancelled    INTEGER NOT NULL,
    commissioned INTEGER NOT NULL,
    projects     INTEGER NOT NULL,
    PRIMARY KEY (market, county_fips, fuel, inactive, cancelled, commissioned)
);
CREATE TABLE queue_multi_county_keys (
    market      TEXT NOT NULL,
    project_key TEXT NOT NULL,
    PRIMARY KEY (market, project_key)
);
