"""The features of a published GeoJSON file that hold a point, found with shapely straight
from the file, independently of the service's polygon index."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from shapely.geometry import Point, shape
from shapely.geometry.base import BaseGeometry


def features_holding(path: Path, latitude: float, longitude: float) -> list[dict]:
    """Return the properties of every feature of a GeoJSON file holding the point."""
    point = Point(longitude, latitude)
    return [properties for properties, geometry in _features(path) if geometry.intersects(point)]


@cache  # each file is read and its shapes made once per test process, not once per point
def _features(path: Path) -> tuple[tuple[dict, BaseGeometry], ...]:
    features = json.loads(path.read_text("utf-8"))["features"]
    return tuple((f["properties"], shape(f["geometry"])) for f in features)
