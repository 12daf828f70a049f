"""The demo's market regions: fictional ISO boundaries drawn as the outlines of the demo's
states, so a point's market is named offline as it is from HIFLD's boundaries on real data."""

from __future__ import annotations

import json
import sqlite3

from shapely.geometry import mapping, shape
from shapely.ops import unary_union

from gridservice.store import writer

SOURCE_ID = "demo-iso-boundaries"
FILE_NAME = "iso_boundaries_demo.geojson"
# Which fictional market each demo state lies in (whole states: the real boundaries are not).
MARKET_OF_STATE = {
    "TX": "ERCOT",
    "OK": "SPP",
    "NM": "SPP",
    "LA": "MISO",
    "VA": "PJM",
    "MD": "PJM",
    "DC": "PJM",
    "WV": "PJM",
}


def load_market_regions(conn: sqlite3.Connection) -> None:
    """Store one region per fictional market, the union of its demo states' outlines."""
    shapes: dict[str, list] = {}
    for state, geojson in conn.execute("SELECT state, geojson FROM states ORDER BY state"):
        market = MARKET_OF_STATE.get(state)
        if market is not None:
            shapes.setdefault(market, []).append(shape(json.loads(geojson)))
    rows = []
    for index, (code, parts) in enumerate(sorted(shapes.items())):
        region = unary_union(parts)
        min_lon, min_lat, max_lon, max_lat = region.bounds
        region_id = f"demo-iso-{code.lower()}"
        body = {
            "code": code,
            "name": f"{code} (demo: the outlines of its demo states)",
            "isIso": True,
            "evidence": {
                "sourceId": SOURCE_ID,
                "publisher": "ISO boundaries (demo)",
                "fileName": FILE_NAME,
                "featureIndex": index,
                "regionId": region_id,
                "sourceLocator": f"{FILE_NAME}#features[{index}]",
                "authority": "demo_fixture",
            },
        }
        rows.append(
            {
                "region_id": region_id,
                "min_lon": min_lon,
                "min_lat": min_lat,
                "max_lon": max_lon,
                "max_lat": max_lat,
                "geojson": json.dumps(mapping(region)),
                "body": writer.dump_record(body),
            }
        )
    writer.replace_polygon_layer(conn, "market_regions", rows)
