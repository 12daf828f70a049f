"""Which stored polygons hold a point: one STRtree per store and layer, built once.

A layer (retail service territories, market regions, states) is read and indexed the first
time a process asks for it, and kept for the store's data snapshot: the snapshot hash kept in
`meta` (forgotten by the store on any change to public data) names it in one key lookup.
While no hash is kept, the layer's signature (rows, bounding boxes, the file's hash) does,
at the price of a scan of the layer per lookup. A lookup then tests only the polygons whose
bounding boxes hold the point, not all 2,919 territories, and measures the distance to the
edge only on the part of the ring near the point.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import shapely
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from gridservice.geography.geo import edge_km, geometries_from_geojson
from gridservice.store import geography_reads, meta_reads, screening_reads

_CACHE_SIZE = 16


@dataclass(frozen=True)
class Holding:
    """A polygon holding a point: its stored body, how far inside the point is, and its
    area in square degrees (for ranking overlapping polygons, not a measure)."""

    region_id: str
    body: dict[str, Any]
    edge_km: float
    area: float
    # the stored shape, for an answer that draws it (never compared: a shape is its id's)
    geometry: BaseGeometry | None = field(default=None, compare=False, repr=False)


class PolygonLayer:
    """The polygons of one layer with an STRtree over them."""

    def __init__(self, regions: list[tuple[str, dict[str, Any], BaseGeometry]]) -> None:
        self._regions = regions
        geometries = [geometry for _, _, geometry in regions]
        shapely.prepare(geometries)
        self._tree = shapely.STRtree(geometries)
        self._boundaries = list(shapely.boundary(geometries)) if geometries else []
        # what answers draw of a region (a simplified outline), kept as long as the layer is:
        # simplifying every overlapping territory again for each answer was most of one
        self._drawn: dict[tuple[str, Callable[..., Any]], Any] = {}

    def __len__(self) -> int:
        return len(self._regions)

    def holding(self, latitude: float, longitude: float) -> list[Holding]:
        """Return every polygon holding the point (boundary included), in region id order."""
        point = Point(longitude, latitude)
        found = []
        for position in sorted(self._tree.query(point, predicate="intersects")):
            region_id, body, geometry = self._regions[int(position)]
            edge = edge_km(self._boundaries[int(position)], latitude, longitude)
            found.append(Holding(region_id, body, round(edge, 3), geometry.area, geometry))
        return found

    def drawn(self, holding: Holding, draw: Callable[[BaseGeometry], Any]) -> Any:
        """Return `draw(holding.geometry)`, computed the first time the region is drawn so
        and kept with the layer (for its store's data snapshot)."""
        key = (holding.region_id, draw)
        kept = self._drawn.get(key)
        if kept is None:
            kept = self._drawn[key] = draw(holding.geometry)
        return kept

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


def snapshot_key(
    conn: sqlite3.Connection, layer: str, signature: Callable[[], Hashable]
) -> tuple[Any, ...]:
    """Return the cache key of a layer of this store: its data snapshot hash where the store
    keeps one, else the layer's own `signature()` (read only then)."""
    # An in-memory database has no path; its connection is then its identity.
    store = screening_reads.database_path(conn) or f"memory:{id(conn)}"
    snapshot = meta_reads.get_meta(conn, meta_reads.SNAPSHOT_KEY)
    return (store, layer, ("snapshot", snapshot) if snapshot else ("signature", signature()))


def polygon_layer(conn: sqlite3.Connection, table: str) -> PolygonLayer:
    """Return the indexed layer `table` (`retail_territory_polygons`, `market_regions`)."""
    key = snapshot_key(conn, table, lambda: geography_reads.polygon_signature(conn, table))

    def build() -> PolygonLayer:
        rows = geography_reads.polygon_rows(conn, table)
        geometries = geometries_from_geojson([r[1] for r in rows])
        return PolygonLayer(
            [(r[0], json.loads(r[2]), g) for r, g in zip(rows, geometries, strict=True)]
        )

    return _cached(key, build)


def state_layer(conn: sqlite3.Connection) -> PolygonLayer:
    """Return the indexed state outlines of the store (empty when none are loaded)."""
    key = snapshot_key(conn, "states", lambda: geography_reads.state_signature(conn))

    def build() -> PolygonLayer:
        rows = geography_reads.state_rows(conn)
        geometries = geometries_from_geojson([r[3] for r in rows])
        return PolygonLayer(
            [
                (r[1], {"state": r[1], "name": r[2]}, g)
                for r, g in zip(rows, geometries, strict=True)
            ]
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
