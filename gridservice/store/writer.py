"""Writing wire records into the store: the one place loaders (demo, harvest) insert rows.

Each function takes records shaped exactly as the interface publishes them (camelCase,
every documented field present) and derives the filter columns from them, so the
columns can never disagree with the body. Callers own the transaction.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any

from gridservice.catalogue.source_fields import (
    with_evidence_fields,
    with_flat_fields,
    with_source_name,
)
from gridservice.store.pg import is_postgres

Record = Mapping[str, Any]


def dump_record(record: Record) -> str:
    """Return a wire record as the store keeps it in `body`."""
    return _dump(record)


def _with_source(record: Record) -> str:
    """The record as stored, its evidence carrying the source fields (`source_fields`)."""
    return _dump(with_evidence_fields(record))


# One encoder for every body: `json.dumps` with these settings builds a new encoder per call,
# a tenth of the time of storing a build's 400,000 hourly operations.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=False)


def _dump(record: Record) -> str:
    return _ENCODER.encode(record)


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))


def add_token(
    conn: sqlite3.Connection,
    token: str,
    tenant_id: str,
    created_at: str,
    *,
    reviewer: str | None = None,
) -> None:
    """Store a bearer token by its SHA-256 only: a tenant's, or `reviewer`'s of that tenant."""
    digest = hashlib.sha256(token.encode("utf-8")).hexdigest()
    conn.execute(
        "INSERT OR REPLACE INTO tokens(token_sha256, tenant_id, created_at, role, reviewer) "
        "VALUES (?, ?, ?, ?, ?)",
        (digest, tenant_id, created_at, "tenant" if reviewer is None else "reviewer", reviewer),
    )


def insert_states(conn: sqlite3.Connection, rows: Iterable[Record]) -> None:
    """rows: state_fips, state, name, geojson (str)."""
    conn.executemany(
        "INSERT OR REPLACE INTO states(state_fips, state, name, geojson) "
        "VALUES (:state_fips, :state, :name, :geojson)",
        rows,
    )


def insert_counties(conn: sqlite3.Connection, rows: Iterable[Record]) -> None:
    """rows: county_fips, state_fips, state, name, min_lon, min_lat, max_lon, max_lat, geojson."""
    conn.executemany(
        "INSERT OR REPLACE INTO counties(county_fips, state_fips, state, name, "
        "min_lon, min_lat, max_lon, max_lat, geojson) VALUES (:county_fips, :state_fips, "
        ":state, :name, :min_lon, :min_lat, :max_lon, :max_lat, :geojson)",
        rows,
    )


def replace_polygon_layer(conn: sqlite3.Connection, table: str, rows: list[Record]) -> None:
    """Replace a polygon layer (`retail_territory_polygons` or `market_regions`) by `rows`:
    region_id, min_lon, min_lat, max_lon, max_lat, geojson, body (and utility_id for the
    territories). A new edition of the file replaces the whole layer."""
    if table not in POLYGON_LAYERS:
        raise ValueError(f"not a polygon layer: {table}")
    columns = POLYGON_LAYERS[table]
    conn.execute(f"DELETE FROM {table}")
    conn.executemany(
        f"INSERT INTO {table}({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})",
        rows,
    )


POLYGON_LAYERS = {
    "retail_territory_polygons": (
        "region_id", "utility_id", "min_lon", "min_lat", "max_lon", "max_lat", "geojson", "body"
    ),
    "market_regions": ("region_id", "min_lon", "min_lat", "max_lon", "max_lat", "geojson", "body"),
}  # fmt: skip


def insert_territory(
    conn: sqlite3.Connection, territory_id: str, candidate: Record, county_fips: Iterable[str]
) -> None:
    """A service territory: its candidate template and the counties it covers."""
    conn.execute(
        "INSERT OR REPLACE INTO service_territories(territory_id, utility_id, body) "
        "VALUES (?, ?, ?)",
        (territory_id, candidate["utilityId"], _with_source(candidate)),
    )
    conn.executemany(
        "INSERT OR IGNORE INTO territory_counties(territory_id, county_fips) VALUES (?, ?)",
        [(territory_id, fips) for fips in county_fips],
    )


def insert_facts(conn: sqlite3.Connection, kind: str, facts: Iterable[Record]) -> None:
    """kind: 'load_forecast' or 'resource_adequacy'."""
    conn.executemany(
        "INSERT OR REPLACE INTO facts(id, kind, market, period, valid_from, valid_to, "
        "known_from, known_to, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                f["id"],
                kind,
                f["market"],
                f["period"],
                f["validFrom"],
                f["validTo"],
                f["knownFrom"],
                f["knownTo"],
                _with_source(f),
            )
            for f in facts
        ],
    )


def insert_generators(
    conn: sqlite3.Connection, generators: Iterable[Record], *, source_id: str, is_current: bool
) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO generators(id, source_id, is_current, state, status, ba_code, "
        "technology, plant_id, capacity_mw, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                g["id"],
                source_id,
                int(is_current),
                g["state"],
                g["status"],
                g["balancingAuthorityCode"],
                g["technology"],
                g["agencyPlantId"],
                g["nameplateCapacityMw"],
                _with_source(g),
            )
            for g in generators
        ],
    )


def insert_plants(conn: sqlite3.Connection, plants: Iterable[Record]) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO generation_plants(id, plant_id, state, county, ba_code, "
        "latitude, longitude, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                p["id"],
                p["agencyPlantId"],
                p["state"],
                p["county"],
                p["balancingAuthorityCode"],
                p["latitude"],
                p["longitude"],
                _with_source(p),
            )
            for p in plants
        ],
    )


def insert_generator_operations(conn: sqlite3.Connection, operations: Iterable[Record]) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO generator_operations(id, plant_id, generator_id, ba_code, "
        "state, period, body) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (
                o["id"],
                o["agencyPlantId"],
                o["generatorId"],
                o["balancingAuthorityCode"],
                o["state"],
                o["period"],
                _with_source(o),
            )
            for o in operations
        ],
    )


def insert_ba_operations(conn: sqlite3.Connection, operations: Iterable[Record]) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO ba_operations(id, ba_code, region, utc_time, body) "
        "VALUES (?, ?, ?, ?, ?)",
        [
            (o["id"], o["balancingAuthorityCode"], o["region"], o["utcTime"], _with_source(o))
            for o in operations
        ],
    )


def insert_transmission_projects(
    conn: sqlite3.Connection,
    projects: Iterable[Record],
    *,
    state_of: Mapping[str, str] | None = None,
) -> None:
    """The `counties` of each body are indexed for the `county` filter (names, not FIPS).

    `state_of` maps a project id to the state its counties lie in, so a county name shared
    by two states (Washington County, TX and OK) is not confused; without it the state is
    unknown (null) and matching falls back to the name alone.
    """
    state_of = state_of or {}
    for p in projects:
        conn.execute(
            "INSERT OR REPLACE INTO transmission_projects(id, status, body) VALUES (?, ?, ?)",
            (p["id"], p["status"], _with_source(p)),
        )
        conn.executemany(
            "INSERT OR IGNORE INTO transmission_project_counties(project_id, county, state) "
            "VALUES (?, ?, ?)",
            [(p["id"], c, state_of.get(p["id"])) for c in (p["counties"] or [])],
        )


def insert_queue_record(
    conn: sqlite3.Connection, record: Record, details: Record, evidence: Record
) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO queue_records(id, market, state, county, status, body) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (
            record["id"],
            record["market"],
            record["state"],
            record["county"],
            record["status"],
            _dump(with_evidence_fields(record, create=True)),
        ),
    )
    conn.execute(
        "INSERT OR REPLACE INTO queue_record_details(record_id, body) VALUES (?, ?)",
        (record["id"], _dump(with_evidence_fields(details, source_id=record["sourceId"]))),
    )
    conn.execute(
        "INSERT OR REPLACE INTO queue_record_evidence(record_id, body) VALUES (?, ?)",
        (record["id"], _dump(with_flat_fields(evidence))),
    )


def insert_docket_filings(conn: sqlite3.Connection, filings: Iterable[Record]) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO docket_filings(id, control_number, body) VALUES (?, ?, ?)",
        [(f["id"], f["controlNumber"], _with_source(f)) for f in filings],
    )


def insert_evidence_chunks(
    conn: sqlite3.Connection,
    chunks: Iterable[Record],
    *,
    authority: str,
    redistribution_policy: str,
    known_from: str,
    known_to: str | None = None,
) -> None:
    """Chunks are wire records without `rank`; the full-text index is kept in step."""
    for c in chunks:
        cur = conn.execute(
            "INSERT INTO evidence_chunks(chunk_id, source_id, authority, redistribution_policy, "
            "kind, page, known_from, known_to, content, body) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (
                c["chunkId"],
                c["sourceId"],
                authority,
                redistribution_policy,
                c["kind"],
                c["page"],
                known_from,
                known_to,
                c["content"],
                _dump(with_source_name(c)),
            ),
        )
        if not is_postgres(conn):  # PostgreSQL indexes generated tsvector columns
            conn.execute(
                "INSERT INTO evidence_fts(rowid, content) VALUES (?, ?)",
                (cur.lastrowid, c["content"]),
            )


def insert_harvest_run(conn: sqlite3.Connection, run: Record) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO harvest_runs(run_id, source_id, asset_hash, observed_at, body) "
        "VALUES (?, ?, ?, ?, ?)",
        (
            run["runId"],
            run["sourceId"],
            run["assetHash"],
            run["observedAt"],
            _dump(with_source_name(run)),
        ),
    )
