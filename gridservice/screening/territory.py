"""Point -> service-territory candidates: by polygon and by county listing.

Territory polygons holding the point are one method (`territory_polygons`); the other is the
county: territories that are unions of counties cover the point's county. Where several overlap (dual certification), each candidate's heuristic confidence
is its source-authority confidence divided by the number of candidates: the point is
served by one of them and the data cannot say which, so none may look surer than 1/n of
what its source alone would support.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from typing import Any

from gridservice.geography.geo import GEOMETRY_SOURCE, CountyIndex
from gridservice.geography.markets import market_at
from gridservice.geography.polygon_index import snapshot_key
from gridservice.screening.territory_polygons import (
    mark_agreement,
    polygon_candidates,
    territory_outlines,
)
from gridservice.store import screening_reads

CONFIDENCE_BASIS = "source_authority_heuristic_not_benchmark_accuracy"
DEFAULT_RESOLUTION_METHOD = "regulator_polygon"
# Used when a territory template carries no confidence of its own.
DEFAULT_SOURCE_CONFIDENCE = 0.6
COUNTY_METHOD = "census_point_in_polygon"
# A territory known only as the list of counties a utility reports (EIA-861), not a shape.
COUNTY_LISTING_GEOMETRY = "county_union_not_polygon"
COUNTY_LISTING_METHODS = {"eia861_county_listing"}

_CACHE_SIZE = 8
_index_cache: OrderedDict[tuple[Any, ...], CountyIndex] = OrderedDict()
_index_lock = threading.Lock()


def county_index(conn: sqlite3.Connection) -> CountyIndex:
    """Return the county index of this store, built once per database and geography."""
    key = snapshot_key(conn, "counties", lambda: screening_reads.geography_signature(conn))
    with _index_lock:
        index = _index_cache.get(key)
        if index is not None:
            _index_cache.move_to_end(key)
            return index
    index = CountyIndex.from_conn(conn)
    with _index_lock:
        _index_cache[key] = index
        while len(_index_cache) > _CACHE_SIZE:
            _index_cache.popitem(last=False)
    return index


def county_at(conn: sqlite3.Connection, latitude: float, longitude: float) -> dict | None:
    """Return the assessment's `county` object for a point, or None outside every county."""
    found = county_index(conn).county_at(latitude, longitude)
    if found is None:
        return None
    source = screening_reads.meta_value(conn, "geometry_source") or GEOMETRY_SOURCE
    return {
        "fips": found["county_fips"],
        "name": found["name"],
        "state": found["state"],
        "stateFips": found["state_fips"],
        "method": COUNTY_METHOD,
        "source": source,
    }


def is_county_listing(candidate: dict) -> bool:
    """Return whether a candidate's territory is a county listing rather than a polygon."""
    evidence = candidate.get("evidence") or {}
    return (
        evidence.get("geometry") == COUNTY_LISTING_GEOMETRY
        or candidate.get("resolutionMethod") in COUNTY_LISTING_METHODS
    )


def _number(value: Any, default: float) -> float:
    return (
        float(value) if isinstance(value, int | float) and not isinstance(value, bool) else default
    )


def territory_candidates(conn: sqlite3.Connection, county: dict | None) -> list[dict]:
    """Return the service-territory candidates of a county (empty when none or no county)."""
    if county is None:
        return []
    territories = screening_reads.territories_for_county(conn, county["fips"])
    count = len(territories)
    candidates = []
    for territory in territories:
        template = territory["candidate"]
        source_confidence = _number(template.get("confidence"), DEFAULT_SOURCE_CONFIDENCE)
        source_confidence = min(max(source_confidence, 0.0), 1.0)
        evidence = dict(template.get("evidence") or {})
        # A county listing cites the matched county's own line of the listing.
        evidence.update((evidence.pop("countyRows", None) or {}).get(county["fips"]) or {})
        evidence.update(
            {
                "territoryId": territory["territoryId"],
                "matchedCountyFips": county["fips"],
                "matchedCounty": f"{county['name']}, {county['state']}",
                "territoryCountyCount": territory["countyCount"],
                "overlappingCandidates": count,
                "sourceAuthorityConfidence": source_confidence,
                "confidenceRule": "source-authority confidence divided by the number of "
                "overlapping candidates",
            }
        )
        candidates.append(
            {
                "utilityId": template.get("utilityId"),
                "utility": template.get("utility"),
                "companyType": template.get("companyType"),
                "ccnNumber": template.get("ccnNumber"),
                "isoRto": template.get("isoRto"),
                "confidence": round(source_confidence / count, 3),
                "confidenceBasis": CONFIDENCE_BASIS,
                "resolutionMethod": template.get("resolutionMethod") or DEFAULT_RESOLUTION_METHOD,
                "evidence": evidence,
            }
        )
    candidates.sort(
        key=lambda c: (-c["confidence"], str(c["utilityId"]), c["evidence"]["territoryId"])
    )
    return candidates


def service_territory_candidates(
    conn: sqlite3.Connection, latitude: float, longitude: float, county: dict | None
) -> list[dict]:
    """Return the candidates of both methods, surest first: every territory polygon holding
    the point and every utility listing its county, each saying where the other disagrees."""
    polygons = polygon_candidates(conn, latitude, longitude)
    listed = territory_candidates(conn, county)
    mark_agreement(conn, polygons, listed, county)
    candidates = polygons + listed
    candidates.sort(key=lambda c: -c["confidence"])
    return candidates


def attribution_of(candidates: list[dict], market: dict | None) -> str | None:
    """Return the attribution the polygons' licence asks of an answer built on them (as their
    harvest stored it), or None when the answer uses none."""
    sources = [market or {}, *((c.get("evidence") or {}) for c in candidates)]
    return next((s["attribution"] for s in sources if s.get("attribution")), None)


def resolve_service_territory(conn: sqlite3.Connection, latitude: float, longitude: float) -> dict:
    """Return `{location, candidates, market, attribution, polygons}` for a point: its
    county, the territories holding or listing it, the market region it is in and the
    territory polygons holding it, simplified for a map."""
    county = county_at(conn, latitude, longitude)
    candidates = service_territory_candidates(conn, latitude, longitude, county)
    market = market_at(conn, latitude, longitude)
    return {
        "location": {"type": "Point", "coordinates": [longitude, latitude], "county": county},
        "candidates": candidates,
        "market": market,
        "attribution": attribution_of(candidates, market),
        "polygons": territory_outlines(conn, latitude, longitude),
    }
