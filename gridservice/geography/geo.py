"""Census county and state geometry from plotly-geo, and a point -> county index.

The boundaries are the Census Bureau's 2016 cartographic boundary files
(`cb_2016_us_*_500k`) that the `plotly-geo` package ships. They are read with pyshp,
simplified a little for storage (so a map can draw every county fast) and kept in the
store as GeoJSON. Point-in-polygon runs on the stored (simplified) shapes, so every
part of the service that places a point agrees with every other part.
"""

from __future__ import annotations

import json
import math
import random
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import shapefile
import shapely
from shapely.geometry import Point, shape
from shapely.geometry.base import BaseGeometry
from shapely.prepared import prep

from gridservice.geography.shapefile_polygons import read_polygons
from gridservice.store import geography_reads

COUNTY_FILE = "cb_2016_us_county_500k"
STATE_FILE = "cb_2016_us_state_500k"
GEOMETRY_SOURCE = "census_cb_2016_500k_via_plotly_geo"

# Degrees. 0.001 deg is ~100 m: invisible on a state map, and it shrinks the text a lot.
SIMPLIFY_TOLERANCE = 0.001
# Stored coordinates are rounded to 1e-5 deg (~1 m).
COORDINATE_GRID = 0.00001
# Mean Earth radius (IUGG), km.
EARTH_RADIUS_KM = 6371.0088


def package_data_dir() -> Path:
    """Return the folder of plotly-geo that holds the Census shapefiles."""
    return Path(str(resources.files("_plotly_geo").joinpath("package_data")))


def _reader(name: str) -> shapefile.Reader:
    return shapefile.Reader(str(package_data_dir() / name))


@lru_cache(maxsize=1)
def _state_table() -> dict[str, tuple[str, str]]:
    """Abbreviation -> (state FIPS, state name) for every state in the Census file."""
    with _reader(STATE_FILE) as reader:
        return {rec["STUSPS"]: (rec["STATEFP"], rec["NAME"]) for rec in reader.iterRecords()}


def state_fips(abbreviation: str) -> str:
    """Return the two-digit FIPS code of a state abbreviation such as 'TX'."""
    try:
        return _state_table()[abbreviation.upper()][0]
    except KeyError:
        raise ValueError(f"unknown state abbreviation: {abbreviation!r}") from None


def _storage_geometry(geometry: BaseGeometry, tolerance: float) -> BaseGeometry:
    if not geometry.is_valid:
        geometry = shapely.make_valid(geometry)
    simplified = geometry.simplify(tolerance, preserve_topology=True)
    return shapely.set_precision(simplified, COORDINATE_GRID)


def _geometry_row_fields(geometry: BaseGeometry) -> dict[str, Any]:
    min_lon, min_lat, max_lon, max_lat = geometry.bounds
    return {
        "min_lon": min_lon,
        "min_lat": min_lat,
        "max_lon": max_lon,
        "max_lat": max_lat,
        "geojson": shapely.to_geojson(geometry),
    }


def load_states(
    abbreviations: Iterable[str], *, tolerance: float = SIMPLIFY_TOLERANCE
) -> list[dict[str, Any]]:
    """Return state rows (shaped for `writer.insert_states`) for the given abbreviations."""
    wanted = {state_fips(a) for a in abbreviations}
    with _reader(STATE_FILE) as reader:
        records = {
            number: rec
            for number, rec in enumerate(reader.iterRecords(fields=["STATEFP", "STUSPS", "NAME"]))
            if rec["STATEFP"] in wanted
        }
    outlines = read_polygons(package_data_dir() / STATE_FILE, records)
    rows = [
        {
            "state_fips": rec["STATEFP"],
            "state": rec["STUSPS"],
            "name": rec["NAME"],
            "geojson": shapely.to_geojson(_storage_geometry(outlines[number], tolerance)),
        }
        for number, rec in records.items()
    ]
    return sorted(rows, key=lambda r: r["state_fips"])


def load_counties(
    abbreviations: Iterable[str], *, tolerance: float = SIMPLIFY_TOLERANCE
) -> list[dict[str, Any]]:
    """Return county rows (shaped for `writer.insert_counties`) of the given states."""
    by_fips = {state_fips(a): a.upper() for a in abbreviations}
    records = {
        number: rec for number, rec in enumerate(_county_records()) if rec["STATEFP"] in by_fips
    }
    outlines = read_polygons(package_data_dir() / COUNTY_FILE, records)
    rows = [
        {
            "county_fips": rec["GEOID"],
            "state_fips": rec["STATEFP"],
            "state": by_fips[rec["STATEFP"]],
            "name": rec["NAME"],
            **_geometry_row_fields(_storage_geometry(outlines[number], tolerance)),
        }
        for number, rec in records.items()
    ]
    return sorted(rows, key=lambda r: r["county_fips"])


@lru_cache(maxsize=1)
def _county_records() -> tuple[dict[str, str], ...]:
    """Every county's state FIPS, GEOID and name, in the file's order (read once: a build
    reads the counties of several groups of states)."""
    with _reader(COUNTY_FILE) as reader:
        return tuple(
            rec.as_dict() for rec in reader.iterRecords(fields=["STATEFP", "GEOID", "NAME"])
        )


def geometry_from_geojson(text: str) -> BaseGeometry:
    """Return the shapely geometry of a stored GeoJSON text."""
    return shape(json.loads(text))


def geometries_from_geojson(texts: list[str]) -> list[BaseGeometry]:
    """Return the shapely geometries of stored GeoJSON texts, in order.

    GEOS reads them in one call: building a layer's index (thousands of shapes) is then a
    fraction of parsing each text in Python and building shapes ring by ring.
    """
    return list(shapely.from_geojson(texts)) if texts else []


def edge_km(boundary: BaseGeometry, latitude: float, longitude: float) -> float:
    """Return the distance in km from a point to the nearest part of `boundary` (lon/lat).

    Only the part of the boundary that can hold the nearest point is measured: the nearest
    point in degrees lies `d` degrees away, hence at most `d` degrees' worth of km (a degree
    is at most KM_PER_DEGREE km either way), and any point that near in km lies within
    `d / cos(latitude)` degrees east-west and `d` north-south. A large territory's ring is
    thus clipped to a small box before it is projected, and the answer is unchanged.
    """
    point = Point(longitude, latitude)
    reach = boundary.distance(point) / math.cos(math.radians(latitude)) + COORDINATE_GRID
    near = shapely.clip_by_rect(
        boundary, longitude - reach, latitude - reach, longitude + reach, latitude + reach
    )
    return local_km(near, latitude, longitude).distance(Point(0, 0))


def random_point_in(
    geometry: BaseGeometry, rng: random.Random, *, max_tries: int = 500
) -> tuple[float, float]:
    """Return a (latitude, longitude) inside `geometry`, drawn from `rng` (deterministic).

    Rejection sampling in the bounding box; a geometry too thin to hit falls back to
    its representative point, which is always inside.
    """
    prepared = prep(geometry)
    min_lon, min_lat, max_lon, max_lat = geometry.bounds
    for _ in range(max_tries):
        lon = round(rng.uniform(min_lon, max_lon), 5)
        lat = round(rng.uniform(min_lat, max_lat), 5)
        if prepared.contains(Point(lon, lat)):
            return lat, lon
    point = geometry.representative_point()
    return round(point.y, 5), round(point.x, 5)


KM_PER_DEGREE = math.pi * EARTH_RADIUS_KM / 180.0


def local_km(geometry: BaseGeometry, latitude: float, longitude: float) -> BaseGeometry:
    """Return `geometry` (lon/lat) in km east and north of a point (equirectangular there)."""
    scale_x = KM_PER_DEGREE * math.cos(math.radians(latitude))

    def to_km(coords):
        out = coords.copy()
        out[:, 0] = (coords[:, 0] - longitude) * scale_x
        out[:, 1] = (coords[:, 1] - latitude) * KM_PER_DEGREE
        return out

    return shapely.transform(geometry, to_km)


def great_circle_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Return the haversine distance in km between two points."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


@dataclass(frozen=True)
class County:
    county_fips: str
    name: str
    state: str
    state_fips: str
    geometry: BaseGeometry

    def as_dict(self) -> dict[str, str]:
        return {
            "county_fips": self.county_fips,
            "name": self.name,
            "state": self.state,
            "state_fips": self.state_fips,
        }


class CountyIndex:
    """Point -> county over the counties of one store (an STRtree of their shapes)."""

    def __init__(self, counties: list[County]) -> None:
        self._counties = sorted(counties, key=lambda c: c.county_fips)
        self._by_fips = {c.county_fips: c for c in self._counties}
        self._tree = shapely.STRtree([c.geometry for c in self._counties])

    @classmethod
    def from_conn(cls, conn: sqlite3.Connection) -> CountyIndex:
        """Build the index over every county stored in `conn`."""
        rows = geography_reads.county_rows(conn)
        return cls(
            [
                County(
                    county_fips=row["county_fips"],
                    name=row["name"],
                    state=row["state"],
                    state_fips=row["state_fips"],
                    geometry=geometry,
                )
                for row, geometry in zip(
                    rows, geometries_from_geojson([r["geojson"] for r in rows]), strict=True
                )
            ]
        )

    def __len__(self) -> int:
        return len(self._counties)

    def county_at(self, latitude: float, longitude: float) -> dict[str, str] | None:
        """Return the county holding the point, or None when no loaded county does.

        A point on a shared border belongs to the county with the lowest FIPS code,
        so the answer never depends on index order.
        """
        point = Point(longitude, latitude)
        hits = self._tree.query(point, predicate="intersects")
        if len(hits) == 0:
            return None
        return min((self._counties[i] for i in hits), key=lambda c: c.county_fips).as_dict()

    def fips_at(self, positions: list[tuple[float, float]]) -> list[str | None]:
        """Return the FIPS code of the county holding each (latitude, longitude), or None:
        `county_at` for many points in one query of the tree (same border rule)."""
        if not positions:
            return []
        points = shapely.points([(lon, lat) for lat, lon in positions])
        found: list[str | None] = [None] * len(positions)
        inputs, hits = self._tree.query(points, predicate="intersects")
        for i, hit in zip(inputs.tolist(), hits.tolist(), strict=True):
            fips = self._counties[hit].county_fips
            if found[i] is None or fips < found[i]:
                found[i] = fips
        return found

    def geometry(self, county_fips: str) -> BaseGeometry:
        """Return the stored geometry of a county (KeyError when it is not loaded)."""
        return self._by_fips[county_fips].geometry

    def neighbours(self, county_fips: str, *, distance: float = 0.005) -> list[str]:
        """Return the FIPS codes of the loaded counties that border `county_fips`, sorted.

        Stored shapes are simplified independently, so shared borders may not coincide
        exactly; a county within `distance` degrees counts as a neighbour.
        """
        hits = self._tree.query(self.geometry(county_fips), predicate="dwithin", distance=distance)
        return sorted({self._counties[i].county_fips for i in hits} - {county_fips})

    def counties_within(
        self, latitude: float, longitude: float, radius_km: float
    ) -> list[tuple[dict[str, str], float]]:
        """Return (county, distance km) for every loaded county within `radius_km` of a point.

        The distance is from the point to the nearest part of the county's boundary (0 for
        the county holding the point), measured on a plane centred on the point
        (`local_km`), which stays within about 0.5 % of the great-circle distance at 150 km.
        Nearest first, then by FIPS.
        """
        lat_span = radius_km / KM_PER_DEGREE
        lon_span = radius_km / (KM_PER_DEGREE * max(math.cos(math.radians(latitude)), 0.01))
        box = shapely.box(
            longitude - lon_span, latitude - lat_span, longitude + lon_span, latitude + lat_span
        )
        found = []
        for i in self._tree.query(box, predicate="intersects"):
            county = self._counties[i]
            distance = local_km(county.geometry, latitude, longitude).distance(Point(0, 0))
            if distance <= radius_km:
                found.append((county.as_dict(), distance))
        return sorted(found, key=lambda pair: (pair[1], pair[0]["county_fips"]))

    def counties(self, state: str | None = None) -> list[dict[str, str]]:
        """Return every loaded county (optionally of one state), by FIPS."""
        return [c.as_dict() for c in self._counties if state is None or c.state == state.upper()]
