"""Reading the stored geography (states and counties)."""

from __future__ import annotations

import sqlite3


def county_rows(conn: sqlite3.Connection, state: str | None = None) -> list[sqlite3.Row]:
    """Return county rows (county_fips, state_fips, state, name, bbox, geojson) by FIPS."""
    sql = (
        "SELECT county_fips, state_fips, state, name, min_lon, min_lat, max_lon, max_lat, "
        "geojson FROM counties"
    )
    if state is None:
        return conn.execute(sql + " ORDER BY county_fips").fetchall()
    return conn.execute(sql + " WHERE state = ? ORDER BY county_fips", (state.upper(),)).fetchall()


def state_rows(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """Return state rows (state_fips, state, name, geojson) by FIPS."""
    return conn.execute(
        "SELECT state_fips, state, name, geojson FROM states ORDER BY state_fips"
    ).fetchall()


# The layers of polygons a point is looked up in.
_LAYERS = frozenset({"retail_territory_polygons", "market_regions"})


def polygon_rows(conn: sqlite3.Connection, table: str) -> list[sqlite3.Row]:
    """Return a polygon layer's rows (region_id, geojson, body) by region id."""
    _check_layer(table)
    return conn.execute(
        f"SELECT region_id, geojson, body FROM {table} ORDER BY region_id"
    ).fetchall()


def polygon_signature(conn: sqlite3.Connection, table: str) -> tuple[int, float, str]:
    """Return (rows, sum of bounding boxes, largest evidence text): changes when the layer
    is harvested again from other bytes, cheaply enough to read on every call."""
    _check_layer(table)
    row = conn.execute(
        f"SELECT count(*), coalesce(sum(min_lon + 2 * min_lat + 3 * max_lon + 4 * max_lat), 0), "
        f"coalesce(max(json_extract(body, '$.evidence.assetHash')), '') FROM {table}"
    ).fetchone()
    return int(row[0]), round(float(row[1]), 6), str(row[2])


def state_signature(conn: sqlite3.Connection) -> tuple[int, int]:
    """Return (states, total GeoJSON length): changes when the loaded states change."""
    row = conn.execute("SELECT count(*), coalesce(sum(length(geojson)), 0) FROM states").fetchone()
    return int(row[0]), int(row[1])


def utilities_with_polygons(conn: sqlite3.Connection, utility_ids: list[str]) -> set[str]:
    """Return which of these utility ids have a territory polygon in the store."""
    if not utility_ids:
        return set()
    marks = ", ".join("?" for _ in utility_ids)
    return {
        r[0]
        for r in conn.execute(
            f"SELECT DISTINCT utility_id FROM retail_territory_polygons WHERE utility_id IN "
            f"({marks})",
            utility_ids,
        )
    }


def _check_layer(table: str) -> None:
    if table not in _LAYERS:
        raise ValueError(f"not a polygon layer: {table}")
