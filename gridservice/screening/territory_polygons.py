"""Territory candidates by polygon (HIFLD retail service territories) and where they and the
EIA-861 county listing disagree.

Every stored polygon holding the point is a candidate. Its heuristic confidence is the
source's authority times its share of the overlap, each polygon weighed by how far inside it
the point is (capped, plus the simplification tolerance): a point deep inside one polygon and
near the edge of another leans to the first. docs/SCREENING.md gives the numbers; they are a
heuristic, never an accuracy.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import shapely
from shapely.geometry import mapping
from shapely.geometry.base import BaseGeometry

from gridservice.catalogue.source_fields import source_fields
from gridservice.geography.polygon_index import Holding, polygon_layer
from gridservice.store import geography_reads

POLYGON_METHOD = "retail_territory_polygon"
COUNTY_LISTING_METHOD = "eia861_county_listing"
POLYGON_LAYER = "retail_territory_polygons"
CONFIDENCE_BASIS = "geometry_heuristic_not_benchmark_accuracy"
# HIFLD compiles utility-reported boundaries, simplified; not a regulator's certificate map.
POLYGON_AUTHORITY_CONFIDENCE = 0.7
# Depth inside a polygon counts up to this; deeper says nothing more about the point.
DEPTH_CAP_KM = 25.0
# The polygons are simplified upstream: a point this near an edge may belong to a neighbour.
SIMPLIFICATION_KM = 1.0
# A drawn outline keeps about this many steps across its longest side, and no finer than
# the simplification the polygons already carry (about 100 m).
OUTLINE_DETAIL = 400
OUTLINE_MIN_TOLERANCE = 0.001
# A county-listed utility whose own polygon does not hold the point keeps this share.
CONTRADICTED_LISTING_FACTOR = 0.5


def _weight(holding: Holding) -> float:
    return min(holding.edge_km, DEPTH_CAP_KM) + SIMPLIFICATION_KM


def polygon_candidates(conn: sqlite3.Connection, latitude: float, longitude: float) -> list[dict]:
    """Return a candidate for every territory polygon holding the point (empty when none)."""
    holding = polygon_layer(conn, POLYGON_LAYER).holding(latitude, longitude)
    total = sum(_weight(h) for h in holding)
    candidates = []
    for h in holding:
        share = _weight(h) / total
        stored = h.body.get("evidence", {})
        evidence = {
            # the structured source fields every record's evidence carries (a GeoJSON feature
            # has no worksheet or row); what the harvest stored stays as it was
            **source_fields(stored.get("sourceId"), stored.get("sourceLocator")),
            **stored,
            "territoryId": h.region_id,
            "territoryName": h.body.get("utility"),
            "territoryState": h.body.get("state"),
            "customers": h.body.get("customers"),
            "geometry": "polygon",
            "distanceToEdgeKm": h.edge_km,
            "overlappingPolygons": len(holding),
            "sourceAuthorityConfidence": POLYGON_AUTHORITY_CONFIDENCE,
            "confidenceRule": "source-authority confidence times the polygon's share of the "
            f"overlap, each weighed by its depth (distance to edge, capped at {DEPTH_CAP_KM:g} "
            f"km, plus {SIMPLIFICATION_KM:g} km)",
        }
        candidates.append(
            {
                "utilityId": h.body.get("utilityId"),
                "utility": h.body.get("utility"),
                "companyType": None,
                "ccnNumber": None,
                "isoRto": None,
                "confidence": round(POLYGON_AUTHORITY_CONFIDENCE * share, 3),
                "confidenceBasis": CONFIDENCE_BASIS,
                "resolutionMethod": POLYGON_METHOD,
                "evidence": evidence,
            }
        )
    return candidates


def simplified_geojson(geometry: BaseGeometry) -> tuple[dict[str, Any], float]:
    """Return a shape simplified for drawing (GeoJSON, coordinates to 4 decimals) and the
    tolerance used, in degrees: a fixed share of its size, so a state-wide territory
    travels in a few thousand points and a town's keeps its streets' detail."""
    min_x, min_y, max_x, max_y = geometry.bounds
    tolerance = max(OUTLINE_MIN_TOLERANCE, max(max_x - min_x, max_y - min_y) / OUTLINE_DETAIL)
    # Pointwise rounding: some published territories are invalid (self-touching rings), and
    # the default mode's overlay refuses them; a drawing needs rounded points, not topology.
    simple = shapely.set_precision(
        geometry.simplify(tolerance, preserve_topology=True), 1e-4, mode="pointwise"
    )
    return mapping(simple), round(tolerance, 4)


def territory_outlines(conn: sqlite3.Connection, latitude: float, longitude: float) -> list[dict]:
    """Return the territory polygons holding the point, simplified for a map (`polygons`
    of the territory answer), in the order of their candidates."""
    outlines = []
    layer = polygon_layer(conn, POLYGON_LAYER)
    for h in layer.holding(latitude, longitude):
        shape, tolerance = layer.drawn(h, simplified_geojson)
        outlines.append(
            {
                "territoryId": h.region_id,
                "utilityId": h.body.get("utilityId"),
                "utility": h.body.get("utility"),
                "simplifiedToDegrees": tolerance,
                "geometry": shape,
            }
        )
    return outlines


def _agreement(agrees: bool | None, other: str, note: str) -> dict[str, Any]:
    return {"agrees": agrees, "otherMethod": other, "note": note}


def _listing_name(listed: list[dict]) -> str:
    """Return what the county listing is called in a note: EIA-861 on harvested data, its
    own words where another listing (the demo's) stands in for it."""
    methods = {c.get("resolutionMethod") for c in listed}
    return "EIA-861" if methods == {COUNTY_LISTING_METHOD} else "The county listing"


def is_hifld(polygons: list[dict]) -> bool:
    """Return whether the territory polygons among `polygons` are all HIFLD's (the demo's
    are fictional and say so by their publisher)."""
    held = [c for c in polygons if is_polygon(c)]
    publishers = {str((c.get("evidence") or {}).get("publisher") or "") for c in held}
    return bool(publishers) and all("HIFLD" in p for p in publishers)


def polygon_name(polygons: list[dict]) -> str:
    """Return what the territory polygons are called in a note: HIFLD's where they are."""
    return "HIFLD territory polygon" if is_hifld(polygons) else "territory polygon"


def mark_agreement(
    conn: sqlite3.Connection, polygons: list[dict], listed: list[dict], county: dict | None
) -> None:
    """Give each candidate `methodAgreement`: whether the other method names its utility too.

    A county-listed utility whose polygon does not hold the point keeps only a share of its
    confidence (`CONTRADICTED_LISTING_FACTOR`); a polygon utility the county listing does
    not name is said so. Nothing is said where the other method has no data.
    """
    place = f"{county['name']}, {county['state']}" if county else "this point's county"
    in_polygon = {c["utilityId"] for c in polygons if c["utilityId"]}
    in_listing = {c["utilityId"] for c in listed if c["utilityId"]}
    listing, polygon = _listing_name(listed), polygon_name(polygons)
    listing_method = listed[0]["resolutionMethod"] if listed else COUNTY_LISTING_METHOD
    if listed:
        for candidate in polygons:
            agrees = candidate["utilityId"] in in_listing
            note = (
                f"{listing} also lists this utility for {place}."
                if agrees
                else f"Disagreement: {listing} does not list this utility for {place}."
            )
            candidate["methodAgreement"] = _agreement(agrees, listing_method, note)
    with_polygon = geography_reads.utilities_with_polygons(conn, sorted(in_listing))
    for candidate in listed:
        utility_id = candidate["utilityId"]
        if utility_id in in_polygon:
            candidate["methodAgreement"] = _agreement(
                True, POLYGON_METHOD, f"The utility's {polygon} holds the point too."
            )
        elif utility_id in with_polygon:
            candidate["confidence"] = round(
                candidate["confidence"] * CONTRADICTED_LISTING_FACTOR, 3
            )
            candidate["methodAgreement"] = _agreement(
                False,
                POLYGON_METHOD,
                f"Disagreement: {listing} lists this utility for {place}, but its {polygon} "
                "does not hold the point; its confidence is halved.",
            )


def is_polygon(candidate: dict) -> bool:
    """Return whether a candidate comes from a territory polygon holding the point."""
    return candidate.get("resolutionMethod") == POLYGON_METHOD


def polygon_finding(candidates: list[dict], where: str) -> tuple[str, str]:
    """Return the service-territory finding's (level, statement) when polygons hold the
    point: the polygons first, then what the county listing of `where` says beside them."""
    polygons = [c for c in candidates if is_polygon(c)]
    listed = [c for c in candidates if not is_polygon(c)]
    names = ", ".join(f"{c['utility']} ({c['confidence']:.2f})" for c in polygons)
    publisher = "HIFLD " if is_hifld(polygons) else ""
    if len(polygons) == 1:
        level, statement = (
            "low",
            f"One {publisher}retail service territory polygon holds the point: {names}.",
        )
    else:
        level = "medium"
        statement = (
            f"{len(polygons)} {publisher}retail service territory polygons hold the point "
            f"(overlapping or simplified boundaries): {names}. Which utility serves the site "
            "must be confirmed."
        )
    if listed:
        listing = ", ".join(str(c["utility"]) for c in listed)
        named = (
            "The EIA-861 county listing"
            if _listing_name(listed) == "EIA-861"
            else "The county listing"
        )
        statement += f" {named} of {where}, the second method, names {listing}."
    disagreeing = sorted(
        {
            str(c["utility"])
            for c in candidates
            if (c.get("methodAgreement") or {}).get("agrees") is False
        }
    )
    if disagreeing:
        statement += f" The two methods disagree on {', '.join(disagreeing)}."
    return level, statement
