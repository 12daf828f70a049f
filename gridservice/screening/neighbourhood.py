"""A site's neighbourhood, county by county: the queue now, interconnection points, plants.

Queue figures are placed by the county the report names (`locationBasis: county`: ERCOT
publishes no coordinates for queued projects); plants by their own coordinates
(`locationBasis: coordinates`).
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections import defaultdict
from typing import Any

from gridservice.geography.geo import CountyIndex, great_circle_km
from gridservice.harvest.poi import parse_poi
from gridservice.screening.queue_history import (
    FIRMNESS,
    active_by_project,
    cell,
    firmness,
    positive_mw,
    project_summary,
)
from gridservice.store import surroundings_reads, surroundings_summary

Row = dict[str, Any]
PLANTS_PER_COUNTY = 5
_PLACED_AT_ONCE = 256  # plants placed in their counties in one query of the county index


def queue_figures(
    conn: sqlite3.Connection,
    rows: list[Row],
    *,
    with_projects: bool = True,
    summaries: int | None = None,
) -> dict[str, Any]:
    """Return count and MW of active projects, in all, by fuel and by firmness (and, unless
    `with_projects` is False, every active project by queue id: the first `summaries` (None:
    all) with their summary, the others with their queue id alone).

    `rows`: `surroundings_reads.history_rows` rows; those described are filled in here.

    MW sums positive capacities only; `withoutCapacity` counts the projects left out.
    """
    active = list(active_by_project(rows).values())  # by upper-case queue id
    mw = [positive_mw(r) for r in active]
    by_fuel: dict[str, list[float | None]] = defaultdict(list)
    by_grade: dict[str, list[float | None]] = defaultdict(list)
    for row, value in zip(active, mw, strict=True):
        by_fuel[row["fuel"] or "unknown"].append(value)
        by_grade[firmness(row)].append(value)

    def total(group: list[float | None]) -> float:
        return round(sum(value or 0.0 for value in group), 1)

    fuels = sorted(((total(group), fuel, len(group)) for fuel, group in by_fuel.items()),
                   key=lambda item: (-item[0], item[1]))  # fmt: skip
    figures = {
        "activeProjects": len(active),
        "activeMw": total(mw),
        "withoutCapacity": sum(1 for value in mw if value is None),
        "byFuel": [{"fuel": fuel, "projects": n, "mw": mw_total} for mw_total, fuel, n in fuels],
        "byFirmness": [
            {
                "firmness": grade,
                "label": label,
                "projects": len(by_grade[grade]),
                "mw": total(by_grade[grade]),
            }
            for grade, label in FIRMNESS
        ],
    }
    if with_projects:
        surroundings_reads.describe_rows(conn, active if summaries is None else active[:summaries])
        figures["projects"] = [
            project_summary(r)
            if summaries is None or i < summaries
            else {"projectId": r["project_id"]}
            for i, r in enumerate(active)
        ]
    return figures


@functools.lru_cache(maxsize=256)
def _flags(text: str) -> tuple[str, ...]:
    """Return a point's quality flags as stored (a JSON list; a few distinct values)."""
    return tuple(json.loads(text))


def _point_wire(row: Row, cited_text: str | None) -> dict[str, Any]:
    """Return a point as the wire shows it, its name and text read from the cited cell (the
    point's first naming row may spell it otherwise)."""
    if cited_text:
        cited = parse_poi(cited_text)
        if cited["point_id"] == row["point_id"]:
            row = {**row, **{k: cited[k] for k in ("bus_name", "from_bus_name", "to_bus_name")}}
        row = {**row, "raw": cited_text}
    name = row["bus_name"]
    if row["kind"] == "tap":
        name = f"tap {row['from_bus_name'] or row['from_bus_number']} - " + str(
            row["to_bus_name"] or row["to_bus_number"]
        )
    return {
        "pointId": row["point_id"],
        "kind": row["kind"],
        "kv": row["kv"],
        "name": name,
        "busNumber": row["bus_number"],
        "fromBusNumber": row["from_bus_number"],
        "toBusNumber": row["to_bus_number"],
        "circuit": row["circuit"],
        "raw": row["raw"],
        "qualityFlags": list(_flags(row["quality_flags"] or "[]")),
        "projectIds": sorted(set(row["project_ids"].split(",")), key=str.upper),
        "source": cell(row),
    }


def points_by_county(conn: sqlite3.Connection, fips: list[str]) -> dict[str, dict[str, Any]]:
    """Return each county's interconnection points grouped by kV (highest first) and unparsed."""
    out: dict[str, dict[str, Any]] = {f: {"byKv": [], "unparsed": []} for f in fips}
    by_kv: dict[str, dict[float | None, list[dict]]] = defaultdict(lambda: defaultdict(list))
    rows = surroundings_summary.points_in_counties(conn, fips)
    texts = surroundings_reads.cited_poi_texts(
        conn, [(r["report_id"], r["worksheet"], r["row"]) for r in rows], fips
    )
    for row in rows:
        point = _point_wire(row, texts.get((row["report_id"], row["worksheet"], row["row"])))
        if point["kind"] == "unparsed":
            out[row["county_fips"]]["unparsed"].append(point)
        else:
            by_kv[row["county_fips"]][point["kv"]].append(point)
    for county_fips, levels in by_kv.items():
        order = sorted(levels, key=lambda v: (v is None, -(v or 0)))
        out[county_fips]["byKv"] = [{"kv": v, "points": levels[v]} for v in order]
    return out


def plants_by_county(
    conn: sqlite3.Connection,
    index: CountyIndex,
    fips: list[str],
    latitude: float,
    longitude: float,
) -> dict[str, list[dict[str, Any]]]:
    """Return, per county, its plants nearest the site (by their own coordinates)."""
    shapes = [index.geometry(f) for f in fips]
    min_lon = min(s.bounds[0] for s in shapes)
    min_lat = min(s.bounds[1] for s in shapes)
    max_lon = max(s.bounds[2] for s in shapes)
    max_lat = max(s.bounds[3] for s in shapes)
    box = (min_lon, min_lat, max_lon, max_lat)
    ranked = sorted(
        (round(great_circle_km(latitude, longitude, lat, lon), 2), plant_id, lat, lon)
        for plant_id, lat, lon in surroundings_reads.plant_positions_in_bbox(conn, box)
    )
    # Nearest first (by distance, then id), each plant placed in its county until every
    # county has its few: the box holds thousands of plants at demo scale 100, and placing
    # each in a county was a tenth of the surroundings' time.
    chosen: dict[str, list[tuple[float, str]]] = {f: [] for f in fips}
    short = set(fips)  # the counties still short of their few plants
    for start in range(0, len(ranked), _PLACED_AT_ONCE):
        part = ranked[start : start + _PLACED_AT_ONCE]
        counties = index.fips_at([(lat, lon) for _, _, lat, lon in part])
        for (distance, plant_id, _, _), county_fips in zip(part, counties, strict=True):
            if county_fips in short:
                chosen[county_fips].append((distance, plant_id))
                if len(chosen[county_fips]) == PLANTS_PER_COUNTY:
                    short.discard(county_fips)
        if not short:
            break
    rows = surroundings_reads.plants_with_ids(conn, [i for c in chosen.values() for _, i in c])
    wire = {row["id"]: plant_wire(row, latitude, longitude) for row in rows}
    return {f: [wire[i] for _, i in found] for f, found in chosen.items()}


def plant_capacity(row: Row, body: dict[str, Any]) -> tuple[float | None, str]:
    """Return (a plant's MW, what it is): its current generators' nameplate sum when any is
    loaded, else the plant file's own total, else None."""
    if row["capacity_mw"] is not None:
        return round(row["capacity_mw"], 1), "sum of the plant's current generators' nameplate MW"
    if body.get("totalMw") is not None:
        return round(float(body["totalMw"]), 1), (
            "the plant file's total MW (Total_MW: the sum of its energy sources' MW); no "
            "generator of this plant is loaded"
        )
    return None, "no generator of this plant is loaded and the plant file gives no MW"


def plant_wire(row: Row, latitude: float, longitude: float) -> dict[str, Any]:
    """Return a plant as the surroundings and key figures give it (`NearbyPlant`)."""
    body = json.loads(row["body"])
    technologies = row["technologies"].split("|") if row["technologies"] else []
    capacity, basis = plant_capacity(row, body)
    return {
        "id": row["id"],
        "plantId": row["plant_id"],
        "plantName": body.get("plantName"),
        "latitude": row["latitude"],
        "longitude": row["longitude"],
        "distanceKm": round(
            great_circle_km(latitude, longitude, row["latitude"], row["longitude"]), 2
        ),
        "capacityMw": capacity,
        "installedMw": body.get("installedMw"),
        "technologies": technologies,
        "capacityBasis": basis,
        "evidence": body.get("evidence"),
    }
