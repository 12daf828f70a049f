"""The polygons of a shapefile's records, read with numpy: the same geometries pyshp's GeoJSON
gives shapely, for a fraction of the processor time.

pyshp reads every point of a shape into a Python list and shapely then builds each ring from
those lists, point by point: the demo database's county and state outlines spent about two
processor-seconds there, on the first start's path (docs/BENCHMARKS.md, "First start"). Here
the index (`.shx`) gives each record's place in the `.shp`; its parts and points are read as
arrays, and the rings are grouped as pyshp groups them (`shapefile.organize_polygon_rings`):
clockwise rings are exteriors, counter-clockwise ones holes, in the file's order. A shape whose
grouping needs more than that (several exteriors and holes to share out among them, or no
exterior, or a ring too flat for its orientation to be sure) is handed to pyshp and shapely as
before, so every answer is the geometry pyshp's reading gives.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np
import shapefile
from shapely.geometry import MultiPolygon, Polygon, shape
from shapely.geometry.base import BaseGeometry

HEADER_BYTES = 100
POLYGON = 5
# Twice a ring's signed area, in squared degrees, below which its orientation is left to pyshp
FLAT_RING = 1e-9


def read_polygons(base: Path, numbers: Iterable[int]) -> dict[int, BaseGeometry]:
    """Return the polygons of the records `numbers` (0-based) of the shapefile `base` (its
    path without an extension), by record number."""
    numbers = sorted(set(numbers))
    index = np.fromfile(f"{base}.shx", dtype=">i4", offset=HEADER_BYTES).reshape(-1, 2)
    content = np.memmap(f"{base}.shp", dtype=np.uint8, mode="r")
    polygons: dict[int, BaseGeometry] = {}
    fallback: list[int] = []
    for number in numbers:
        start = int(index[number, 0]) * 2 + 8  # a word is 2 bytes; the record header is 8
        geometry = _polygon(content, start)
        if geometry is None:
            fallback.append(number)
        else:
            polygons[number] = geometry
    if fallback:
        with shapefile.Reader(str(base)) as reader:
            for number in fallback:
                polygons[number] = shape(reader.shape(number).__geo_interface__)
    return polygons


def _polygon(content: np.ndarray, start: int) -> BaseGeometry | None:
    """Return the polygon of the record content at `start`, or None where pyshp must read it."""
    (shape_type,) = np.frombuffer(content, dtype="<i4", count=1, offset=start)
    if shape_type != POLYGON:
        return None
    part_count, point_count = np.frombuffer(content, dtype="<i4", count=2, offset=start + 36)
    if part_count == 0:
        return None
    parts = np.frombuffer(content, dtype="<i4", count=part_count, offset=start + 44)
    points = np.frombuffer(
        content, dtype="<f8", count=2 * point_count, offset=start + 44 + 4 * part_count
    ).reshape(-1, 2)
    ends = [*parts[1:].tolist(), point_count]
    rings = [points[begin:end] for begin, end in zip(parts.tolist(), ends, strict=True)]
    areas = [_twice_signed_area(ring) for ring in rings]
    if any(abs(area) < FLAT_RING for area in areas):
        return None
    exteriors = [ring for ring, area in zip(rings, areas, strict=True) if area < 0]
    holes = [ring for ring, area in zip(rings, areas, strict=True) if area >= 0]
    if len(exteriors) == 1:
        return Polygon(exteriors[0], holes)
    if len(exteriors) > 1 and not holes:
        return MultiPolygon([Polygon(ring) for ring in exteriors])
    return None


def _twice_signed_area(ring: np.ndarray) -> float:
    """Return twice the ring's signed area as pyshp's `signed_area(fast=True)` sums it
    (negative for a clockwise ring)."""
    x, y = ring[:, 0], ring[:, 1]
    count = len(ring)
    if count < 3:
        return 0.0
    following = np.append(y[2:], y[1])  # y[i + 1], pyshp's list extended by its second point
    return float(np.sum(x[1:count] * (following - y[: count - 1])))
