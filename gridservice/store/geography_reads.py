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
