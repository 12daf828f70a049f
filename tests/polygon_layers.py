"""Small polygon layers written straight into a store: market regions and retail territories
as boxes, for tests that need the layers' behaviour without the published HIFLD files."""

from __future__ import annotations

import json
import sqlite3

import shapely
from shapely.geometry import box

from gridservice.store import writer

ATTRIBUTION = "Contains HIFLD data via CommonGrid (ODbL 1.0), written by a test"


def box_row(region_id: str, bounds: tuple[float, float, float, float], body: dict) -> dict:
    """Return a layer row of the box `bounds` (min_lon, min_lat, max_lon, max_lat)."""
    return {
        "region_id": region_id,
        **dict(zip(("min_lon", "min_lat", "max_lon", "max_lat"), bounds, strict=True)),
        "geojson": shapely.to_geojson(box(*bounds)),
        "body": json.dumps(body),
    }


def market_row(code: str, bounds: tuple[float, float, float, float]) -> dict:
    """Return a `market_regions` row: an ISO called `code` over the box `bounds`."""
    evidence = {"publisher": "HIFLD (test)", "attribution": ATTRIBUTION}
    body = {"code": code, "name": f"{code} (test)", "isIso": True, "evidence": evidence}
    return box_row(f"region-iso-{code.lower()}", bounds, body)


def territory_row(utility_id: str, utility: str, bounds: tuple[float, float, float, float]) -> dict:
    """Return a `retail_territory_polygons` row: `utility`'s territory over the box `bounds`."""
    evidence = {"publisher": "HIFLD (test)", "attribution": ATTRIBUTION}
    body = {"utilityId": utility_id, "utility": utility, "state": "TX", "evidence": evidence}
    return {**box_row(f"region-st-{utility_id}", bounds, body), "utility_id": utility_id}


def around(latitude: float, longitude: float, half: float = 0.5) -> tuple[float, ...]:
    """Return the box bounds `half` degrees either side of a point."""
    return (longitude - half, latitude - half, longitude + half, latitude + half)


def write_layer(conn: sqlite3.Connection, table: str, rows: list[dict]) -> None:
    """Replace the layer `table` of the store by `rows` and commit."""
    with conn:
        writer.replace_polygon_layer(conn, table, rows)
