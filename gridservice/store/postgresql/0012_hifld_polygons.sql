-- Migration 0012: retail service territories as polygons and the market regions (store/schema.sql,
-- harvested by gridservice.harvest.hifld); changes to them forget the kept data snapshot hash.
CREATE TABLE retail_territory_polygons (
    region_id  TEXT PRIMARY KEY,
    utility_id TEXT,
    min_lon DOUBLE PRECISION NOT NULL, min_lat DOUBLE PRECISION NOT NULL,
    max_lon DOUBLE PRECISION NOT NULL, max_lat DOUBLE PRECISION NOT NULL,
    geojson    TEXT NOT NULL,
    body       TEXT NOT NULL
);
CREATE INDEX retail_territory_polygons_utility ON retail_territory_polygons(utility_id);
CREATE TABLE market_regions (
    region_id TEXT PRIMARY KEY,
    min_lon DOUBLE PRECISION NOT NULL, min_lat DOUBLE PRECISION NOT NULL,
    max_lon DOUBLE PRECISION NOT NULL, max_lat DOUBLE PRECISION NOT NULL,
    geojson   TEXT NOT NULL,
    body      TEXT NOT NULL
);
CREATE TRIGGER retail_territory_polygons_snapshot
    AFTER INSERT OR UPDATE OR DELETE ON retail_territory_polygons
    FOR EACH STATEMENT EXECUTE FUNCTION forget_data_snapshot();
CREATE TRIGGER market_regions_snapshot
    AFTER INSERT OR UPDATE OR DELETE ON market_regions
    FOR EACH STATEMENT EXECUTE FUNCTION forget_data_snapshot();
