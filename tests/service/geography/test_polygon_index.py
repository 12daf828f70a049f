"""The polygon layers' index: kept per data snapshot, rebuilt when the layer changes, and the
distance to a polygon's edge measured as on the whole ring.

A store of two market boxes written here (no published file needed), on SQLite and on
PostgreSQL: the real layers are checked in test_territory_polygons.py.
"""

from __future__ import annotations

import math
import random

import pytest
import shapely
from polygon_layers import market_row, write_layer
from shapely.geometry import Point, Polygon, shape

from gridservice.geography.geo import edge_km, local_km
from gridservice.geography.markets import market_at
from gridservice.geography.polygon_index import polygon_layer
from gridservice.screening.territory_polygons import simplified_geojson
from gridservice.store import db, meta_reads


def two_markets(conn) -> None:
    write_layer(
        conn,
        "market_regions",
        [market_row("EAST", (-80, 35, -75, 40)), market_row("WEST", (-90, 35, -85, 40))],
    )


@pytest.fixture
def conn(tmp_path):
    """A SQLite store of two market boxes (its statements can be traced)."""
    conn = db.connect(tmp_path / "markets.db")
    db.init_schema(conn)
    two_markets(conn)
    yield conn
    conn.close()


@pytest.fixture
def any_conn(store_backend, request, tmp_path):
    """A store of two market boxes on each backend: SQLite, and PostgreSQL (migrated)."""
    if store_backend == "postgresql":
        location = request.getfixturevalue("postgres_cluster").new_database()
    else:
        location = tmp_path / "markets.db"
    conn = db.connect(location)
    db.init_schema(conn)
    two_markets(conn)
    yield conn
    conn.close()


def statements_of(conn, action) -> list[str]:
    """Return the SQL statements `action()` runs on `conn`."""
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    try:
        action()
    finally:
        conn.set_trace_callback(None)
    return seen


def test_a_lookup_reads_no_layer_while_the_snapshot_is_kept(conn):
    # Every resolution, site and assessment looks its point up: scanning the layer to see
    # whether it changed cost more than the lookup itself.
    meta_reads.data_snapshot_sha256(conn)
    assert market_at(conn, 37.0, -77.0)["code"] == "EAST"
    statements = statements_of(conn, lambda: market_at(conn, 37.5, -87.0))
    assert not [s for s in statements if "market_regions" in s], statements
    assert market_at(conn, 37.5, -87.0)["code"] == "WEST"


def test_a_new_edition_of_the_layer_is_seen_with_or_without_a_kept_snapshot(any_conn):
    conn = any_conn
    meta_reads.data_snapshot_sha256(conn)
    before = polygon_layer(conn, "market_regions")
    assert market_at(conn, 37.0, -77.0)["code"] == "EAST"
    write_layer(conn, "market_regions", [market_row("NORTH", (-80, 35, -75, 40))])
    assert market_at(conn, 37.0, -77.0)["code"] == "NORTH"
    meta_reads.data_snapshot_sha256(conn)
    assert polygon_layer(conn, "market_regions") is not before
    assert market_at(conn, 37.0, -77.0)["code"] == "NORTH"
    assert market_at(conn, 37.0, -87.0) is None


def test_the_distance_to_the_edge_is_that_of_the_whole_ring():
    # A long ragged ring: the nearest edge is found on a clipped piece of it.
    rng = random.Random(7)
    ring = [
        (
            -100 + 12 * math.cos(a) * rng.uniform(0.6, 1.0),
            40 + 6 * math.sin(a) * rng.uniform(0.6, 1.0),
        )
        for a in (i * 2 * math.pi / 400 for i in range(400))
    ]
    boundary = shapely.Polygon(ring).boundary
    for latitude, longitude in [(40.0, -100.0), (44.0, -95.0), (36.5, -108.0), (41.0, -90.5)]:
        whole = local_km(boundary, latitude, longitude).distance(Point(0, 0))
        assert edge_km(boundary, latitude, longitude) == pytest.approx(whole, abs=1e-6)


def test_an_invalid_published_territory_is_still_drawn_rounded() -> None:
    """HIFLD publishes some territories with self-touching rings; the territory answer's
    outline of one must not fail the whole resolution (it answered 500 in Franklin County)."""
    # two holes touching along an edge: GEOS calls such a polygon invalid
    touching_holes = Polygon(
        [(0, 0), (2, 0), (2, 2), (0, 2)],
        [
            [(0.5, 0.5), (1.5, 0.5), (1.5, 1.5), (0.5, 1.5)],
            [(1, 1), (1.8, 1), (1.8, 1.8), (1, 1.8)],
        ],
    )
    outline, _ = simplified_geojson(touching_holes)
    drawn = shape(outline)
    assert drawn.bounds == touching_holes.bounds
    assert all(round(x, 4) == x for x, _ in drawn.exterior.coords)
