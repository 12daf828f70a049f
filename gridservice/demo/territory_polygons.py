"""Fictional retail territory polygons in northern Virginia, so the demo draws territories as
the harvested store draws HIFLD's: two utilities whose outlines overlap in Loudoun County.

Each outline is a lobed shape around a fictional service centre, cut to the real Census
counties its utility lists, so one side follows county lines and the other does not, as
published territories do. The rows carry the fields of the HIFLD harvest (`harvest/hifld.py`)
with a demo source, publisher and attribution in place of HIFLD's: no HIFLD data is copied.
Loaded after the PJM counties and records (`demo/pjm.py`); no Texas point is held, so the
Texas demo utilities stay county listings and every earlier figure stays as it was.
"""

from __future__ import annotations

import json
import math
import sqlite3
from typing import Any

from shapely.geometry import Polygon, mapping, shape
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from gridservice.demo.common import DemoContext, DemoSource, asset_hash
from gridservice.store import writer

SOURCE = DemoSource(
    "demo-retail-territories",
    "retail_territories_va_demo.geojson",
    "2025-09-26T15:00:00Z",
    "demo_fixture",
    "public_redistribution",
    "Retail service territories (demo)",
)
ATTRIBUTION = (
    "Fictional territory outlines drawn for this demo, cut to U.S. Census county boundaries; "
    "no utility or agency published them"
)
LICENSE = "demo-fictional"
STATE = "VA"
# (utility id, name, customers, centre (lat, lon), radius in degrees of latitude, counties):
# the ids are the demo county listings' (demo/pjm.py), so the two methods agree on both.
UTILITIES = (
    (
        "demo-util-dvec",
        "Dominion Valley Electric (demo)",
        412_000,
        (38.90, -77.50),
        0.36,
        ("Loudoun", "Prince William", "Fauquier"),
    ),
    (
        "demo-util-brvc",
        "Blue Ridge Valley Electric Cooperative (demo)",
        38_500,
        (39.05, -77.95),
        0.36,
        ("Loudoun", "Fauquier", "Clarke"),
    ),
)
# The outline's lobes: (amplitude, waves round the centre, phase); the radius never falls
# below 1 - 0.26 of its nominal, so a point that near the centre is inside whatever the phase.
LOBES = ((0.18, 3, 0.7), (0.08, 7, 2.1))
VERTICES = 72


def _lobed_outline(centre: tuple[float, float], radius: float) -> Polygon:
    """Return the lobed shape around `centre` (lat, lon), `radius` degrees of latitude
    across, stretched in longitude so it is round on the ground."""
    latitude, longitude = centre
    stretch = 1 / math.cos(math.radians(latitude))
    ring = []
    for step in range(VERTICES):
        angle = 2 * math.pi * step / VERTICES
        reach = radius * (1 + sum(a * math.sin(n * angle + p) for a, n, p in LOBES))
        ring.append(
            (longitude + reach * stretch * math.cos(angle), latitude + reach * math.sin(angle))
        )
    return Polygon(ring)


def _county_union(conn: sqlite3.Connection, names: tuple[str, ...]) -> BaseGeometry:
    marks = ",".join("?" * len(names))
    rows = conn.execute(
        f"SELECT geojson FROM counties WHERE state = ? AND name IN ({marks})", (STATE, *names)
    ).fetchall()
    if len(rows) != len(names):
        raise ValueError(f"demo territory counties not all loaded: {names}")
    return unary_union([shape(json.loads(geojson)) for (geojson,) in rows])


def _evidence(ctx: DemoContext, index: int, region_id: str) -> dict[str, Any]:
    """Return a polygon's evidence with the fields of a harvested HIFLD feature's."""
    return {
        "sourceId": SOURCE.source_id,
        "publisher": SOURCE.title,
        "fileName": SOURCE.file_name,
        "featureIndex": index,
        "regionId": region_id,
        "assetHash": asset_hash(SOURCE, ctx.seed, ctx.scale),
        "sourceLocator": f"{SOURCE.file_name}#features[{index}]",
        "authority": SOURCE.authority,
        "license": LICENSE,
        "attribution": ATTRIBUTION,
    }


def territory_polygon_rows(conn: sqlite3.Connection, ctx: DemoContext) -> list[dict[str, Any]]:
    """Return the `retail_territory_polygons` rows of the demo (the VA counties loaded)."""
    rows = []
    for index, (utility_id, name, customers, centre, radius, counties) in enumerate(UTILITIES):
        outline = _lobed_outline(centre, radius).intersection(_county_union(conn, counties))
        region_id = f"demo-territory-{utility_id.removeprefix('demo-util-')}"
        body = {
            "utilityId": utility_id,
            "utility": name,
            "state": STATE,
            "customers": customers,
            "sourceDate": SOURCE.observed_at[:10],
            "evidence": _evidence(ctx, index, region_id),
        }
        min_lon, min_lat, max_lon, max_lat = outline.bounds
        rows.append(
            {
                "region_id": region_id,
                "utility_id": utility_id,
                "min_lon": min_lon,
                "min_lat": min_lat,
                "max_lon": max_lon,
                "max_lat": max_lat,
                # simplified to about 100 m, as fine as HIFLD's own outlines
                "geojson": json.dumps(mapping(outline.simplify(1e-3)), separators=(",", ":")),
                "body": writer.dump_record(body),
            }
        )
    return rows


def load_territory_polygons(conn: sqlite3.Connection, ctx: DemoContext) -> None:
    """Store the demo's territory polygons (after the PJM counties are loaded)."""
    writer.replace_polygon_layer(
        conn, "retail_territory_polygons", territory_polygon_rows(conn, ctx)
    )
