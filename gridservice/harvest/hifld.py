"""HIFLD Electric Retail Service Territories and ISO boundaries, as compiled by CommonGrid.

Two GeoJSON FeatureCollections (ODbL 1.0, attribution required): 2,919 retail service
territories (property `eiaId` joins EIA-861's utility number) and 11 market regions (seven
ISO/RTOs and four regions outside any ISO). Each feature is stored with its geometry as
published and evidence naming its file, its index in the file, its `regionId` and the
file's SHA-256; a feature without a polygon is rejected, named and counted.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import shapely
from shapely.geometry.base import BaseGeometry

from gridservice.harvest._base import Asset, Harvest, HarvestError, rejection
from gridservice.store import writer

TERRITORIES_SOURCE_ID = "hifld_retail_service_territories"
MARKETS_SOURCE_ID = "hifld_iso_boundaries"
PUBLISHER = "HIFLD via CommonGrid"
LICENSE = "ODbL-1.0"
ATTRIBUTION = (
    "Contains HIFLD Electric Retail Service Territories and ISO boundaries via CommonGrid, ODbL 1.0"
)
AUTHORITY = "federal_compilation_not_regulator"
TERRITORY_METHOD = "retail_territory_polygon"
# The market code of each region outside any ISO, by CommonGrid's region id.
NON_ISO_CODES = {
    "region-iso-west-non-iso": "West",
    "region-iso-southeast-non-iso": "Southeast",
    "region-iso-alaska-non-iso": "Alaska",
    "region-iso-hawaii-non-iso": "Hawaii",
}
_POLYGONS = {"Polygon", "MultiPolygon"}


def _features(asset: Asset, expected: str) -> list[dict[str, Any]]:
    try:
        document = json.loads(asset.path.read_bytes())
    except (OSError, ValueError) as exc:
        raise HarvestError(
            f"{asset.file_name}: not readable GeoJSON ({exc}); expected {expected}"
        ) from exc
    if not isinstance(document, dict) or not isinstance(document.get("features"), list):
        raise HarvestError(f"{asset.file_name}: no FeatureCollection; expected {expected}")
    return document["features"]


def _geometry(feature: Any) -> tuple[str, BaseGeometry] | None:
    """Return a feature's polygon geometry as stored (compact GeoJSON text) and as a shape,
    or None when it has none that can be read."""
    raw = feature.get("geometry") if isinstance(feature, dict) else None
    if not isinstance(raw, dict) or raw.get("type") not in _POLYGONS:
        return None
    # GEOS reads the text the store keeps: shapely's `shape()` builds each ring in Python and
    # took half the harvest of 2,919 territories.
    text = json.dumps(raw, separators=(",", ":"))
    geometry = shapely.from_geojson(text, on_invalid="ignore")
    if geometry is None or geometry.is_empty:
        return None
    return text, geometry


def _evidence(asset: Asset, source_id: str, index: int, region_id: str) -> dict[str, Any]:
    return {
        "sourceId": source_id,
        "publisher": PUBLISHER,
        "fileName": asset.file_name,
        "featureIndex": index,
        "regionId": region_id,
        "assetHash": asset.sha256,
        "sourceLocator": f"{asset.file_name}#features[{index}]",
        "authority": AUTHORITY,
        "license": LICENSE,
        "attribution": ATTRIBUTION,
    }


def _layer(
    asset: Asset, expected: str, source_id: str, row_of
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """Return (rows, rejections, features read) of one file, `row_of(properties, evidence)`
    giving each feature's own columns."""
    features = _features(asset, expected)
    rows, rejections = [], []
    for index, feature in enumerate(features):
        properties = (feature.get("properties") if isinstance(feature, dict) else None) or {}
        region_id = str(properties.get("regionId") or properties.get("id") or "").strip()
        read = _geometry(feature)
        locator = f"{asset.file_name}#features[{index}]"
        if not region_id or read is None:
            missing = "regionId" if not region_id else "a Polygon or MultiPolygon geometry"
            rejections.append(rejection(locator, f"feature has no {missing}"))
            continue
        text, geometry = read
        evidence = _evidence(asset, source_id, index, region_id)
        min_lon, min_lat, max_lon, max_lat = geometry.bounds
        rows.append(
            {
                "region_id": region_id,
                "min_lon": min_lon,
                "min_lat": min_lat,
                "max_lon": max_lon,
                "max_lat": max_lat,
                "geojson": text,
                **row_of(properties, evidence),
            }
        )
    if not rows:
        raise HarvestError(f"{asset.file_name}: no polygon feature; expected {expected}")
    return rows, rejections, len(features)


def _territory_columns(properties: dict[str, Any], evidence: dict[str, Any]) -> dict[str, Any]:
    eia_id = str(properties.get("eiaId") or "").strip()
    body = {
        "utilityId": f"eia:{eia_id}" if eia_id else None,
        "utility": properties.get("name"),
        "state": properties.get("state"),
        "customers": properties.get("customers"),
        "sourceDate": properties.get("sourceDate"),
        "evidence": evidence,
    }
    return {"utility_id": body["utilityId"], "body": writer.dump_record(body)}


def _market_columns(properties: dict[str, Any], evidence: dict[str, Any]) -> dict[str, Any]:
    region_id = evidence["regionId"]
    short = str(properties.get("shortName") or "").strip()
    body = {
        "code": short or NON_ISO_CODES.get(region_id) or region_id,
        "name": properties.get("name"),
        "isIso": bool(short),
        "eiaId": properties.get("eiaId"),
        "evidence": evidence,
    }
    return {"body": writer.dump_record(body)}


def _harvest(asset: Asset, source_id: str, table: str, rows, rejections, read) -> Harvest:
    def store(conn: sqlite3.Connection) -> None:
        writer.replace_polygon_layer(conn, table, rows)

    return Harvest(
        source_id=source_id,
        input_records=read,
        accepted_records=len(rows),
        rejections=rejections,
        store=store,
    )


def parse_territories(asset: Asset, conn: sqlite3.Connection) -> Harvest:
    """Read the retail service territory polygons (each with its EIA utility id)."""
    expected = "HIFLD Electric Retail Service Territories as a GeoJSON FeatureCollection"
    rows, rejections, read = _layer(asset, expected, TERRITORIES_SOURCE_ID, _territory_columns)
    return _harvest(
        asset, TERRITORIES_SOURCE_ID, "retail_territory_polygons", rows, rejections, read
    )


def parse_markets(asset: Asset, conn: sqlite3.Connection) -> Harvest:
    """Read the ISO/RTO boundaries and the regions outside any ISO."""
    expected = "HIFLD Independent System Operators as a GeoJSON FeatureCollection"
    rows, rejections, read = _layer(asset, expected, MARKETS_SOURCE_ID, _market_columns)
    return _harvest(asset, MARKETS_SOURCE_ID, "market_regions", rows, rejections, read)
