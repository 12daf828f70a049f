"""Which stored polygons hold a point: one STRtree per store and layer, built once.

A layer (retail service territories, market regions, states) is read and indexed the first
time a process asks for it, and kept until the layer's signature (rows, bounding boxes, the
file's hash) says the data changed; a lookup then tests only the polygons whose bounding
boxes hold the point, not all 2,919 territories.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import shapely
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from gridservice.geo import geometry_from_geojson, local_km
from gridservice.store import geography_reads, screening_reads

_CACHE_SIZE = 16


@dataclass(frozen=True)
class Holding:
    """A polygon holding a point: its stored body, how far inside the point is, and its
    area in square degrees (for ranking overlapping polygons, not a measure)."""

    region_id: str
    body: dict[str, Any]
    edge_km: float
    area: float


class PolygonLayer:
    """The polygons of one layer with an STRtree over them."""

    def __init__(self, regions: list[tuple[str, dict[str, Any], BaseGeometry]]) -> None:
        self._regions = regions
        geometries = [geometry for _, _, geometry in regions]
        for geometry in geometries:
            shapely.prepare(geometry)
        self._tree = shapely.STRtree(geometries)

    def __len__(self) -> int:
        return len(self._regions)

    def holding(self, latitude: float, longitude: float) -> list[Holding]:
        """Return every polygon holding the point (boundary included), in region id order."""
        point = Point(longitude, latitude)
        found = []
        for position in sorted(self._tree.query(point, predicate="intersects")):
            region_id, body, geometry = self._regions[int(position)]
            edge = local_km(geometry.boundary, latitude, longitude).distance(Point(0, 0))
            found.append(Holding(region_id, body, round(edge, 3), geometry.area))
        return found

    def near(self, latitude: float, longitude: float, tolerance_degrees: float) -> bool:
        """Return whether any polygon lies within `tolerance_degrees` of the point."""
        area = Point(longitude, latitude).buffer(tolerance_degrees)
        return len(self._tree.query(area, predicate="intersects")) > 0


_layers: OrderedDict[tuple[Any, ...], PolygonLayer] = OrderedDict()
_lock = threading.Lock()


def _cached(key: tuple[Any, ...], build: Callable[[], PolygonLayer]) -> PolygonLayer:
    with _lock:
        layer = _layers.get(key)
        if layer is not None:
            _layers.move_to_end(key)
            return layer
    layer = build()
    with _lock:
        _layers[key] = layer
        while len(_layers) > _CACHE_SIZE:
            _layers.popitem(last=False)
    return layer


def _store_key(conn: sqlite3.Connection) -> str:
    # An in-memory database has no path; its connection is then its identity.
    return screening_reads.database_path(conn) or f"memory:{id(conn)}"


def polygon_layer(conn: sqlite3.Connection, table: str) -> PolygonLayer:
    """Return the indexed layer `table` (`retail_territory_polygons`, `market_regions`)."""
    key = (_store_key(conn), table, *geography_reads.polygon_signature(conn, table))

    def build() -> PolygonLayer:
        rows = geography_reads.polygon_rows(conn, table)
        return PolygonLayer([(r[0], json.loads(r[2]), geometry_from_geojson(r[1])) for r in rows])

    return _cached(key, build)


def state_layer(conn: sqlite3.Connection) -> PolygonLayer:
    """Return the indexed state outlines of the store (empty when none are loaded)."""
    key = (_store_key(conn), "states", *geography_reads.state_signature(conn))

    def build() -> PolygonLayer:
        rows = geography_reads.state_rows(conn)
        return PolygonLayer(
            [(r[1], {"state": r[1], "name": r[2]}, geometry_from_geojson(r[3])) for r in rows]
        )

    return _cached(key, build)


# The state outlines of the whole country (50 states and DC; the Census file adds the
# territories): a store holding fewer, like the Texas demo, cannot say a point is abroad.
NATIONAL_STATE_COUNT = 51
# The outlines are simplified (1:500,000): a coastal site this near one is taken as inside.
COAST_TOLERANCE_DEGREES = 0.05


def outside_united_states(conn: sqlite3.Connection, latitude: float, longitude: float) -> bool:
    """Return whether a point is in no state outline of a store holding the whole country's
    (False when the store holds fewer: it cannot tell)."""
    states = state_layer(conn)
    if len(states) < NATIONAL_STATE_COUNT:
        return False
    return not states.near(latitude, longitude, COAST_TOLERANCE_DEGREES)
