"""An assessment's key figures (an extension member, `keyFigures`): the numbers a portfolio
compares sites on, stated once at screening time so a list of sites needs no further request.

- `tightestReserveMargin`: the period where capacity (or a stated margin) less forecast peak
  falls furthest short of the reserve need, exactly as the market-adequacy finding reads it,
  in MW (`marginMw`) and as a share of that period's peak (`shareOfPeak`, which is also
  capacity over peak less one), with the predicates it was read from, so a caption can say
  whether the capacity is firm or total (null when the facts give no margin).
- `nearestPlant`: the generating plant of at least `NEAREST_PLANT_MIN_MW` nearest the site
  by the plant's own coordinates (great-circle distance), searched within `PLANT_SEARCH_KM`
  (null when none is that near): a plant that matters to a large load, not a rooftop array
  or a landfill-gas engine. A plant whose MW is unknown is not counted.
"""

from __future__ import annotations

import math
import sqlite3
from typing import Any

from gridservice.geography.geo import KM_PER_DEGREE, great_circle_km
from gridservice.screening.dataset_coverage import is_dated
from gridservice.screening.market import tightest_reserve_margin
from gridservice.screening.neighbourhood import plant_wire
from gridservice.store import surroundings_reads

PLANT_SEARCH_KM = (25.0, 100.0, 300.0)
NEAREST_PLANT_MIN_MW = 10.0
_PLANTS_READ_AT_ONCE = 50  # nearest first: most sites find a large plant in the first few


def _margin_wire(facts: list[dict], newest: str | None) -> dict[str, Any] | None:
    tightest = tightest_reserve_margin(facts)
    if tightest is None:
        return None
    read = [tightest["peak"], tightest["supply"]]
    if tightest["requirement"]:
        read.append(tightest["requirement"])
    cited = [f["id"] for f in read]
    known = max((str(f.get("knownFrom") or "")[:10] for f in read), default="") or None
    return {
        "market": tightest["peak"].get("market"),
        "period": tightest["period"],
        "marginMw": round(tightest["margin"], 1),
        "shareOfPeak": round(tightest["share"], 4),
        "peakMw": float(tightest["peak"]["value"]),
        "peakPredicate": tightest["peak"].get("predicate"),
        "supplyPredicate": tightest["supply"].get("predicate"),
        "needMw": round(tightest["need"], 1),
        "needBasis": "stated requirement" if tightest["requirement"] else "screening reserve",
        "factIds": cited,
        "asOf": known,
        "dated": is_dated(known, newest),
    }


def _first_large(
    conn: sqlite3.Connection, ranked: list[tuple[float, str]], latitude: float, longitude: float
) -> dict | None:
    """Return the first plant of `ranked` (distance, id) of at least NEAREST_PLANT_MIN_MW."""
    for start in range(0, len(ranked), _PLANTS_READ_AT_ONCE):
        part = ranked[start : start + _PLANTS_READ_AT_ONCE]
        rows = {r["id"]: r for r in surroundings_reads.plants_with_ids(conn, [i for _, i in part])}
        for _, plant_id in part:
            plant = plant_wire(rows[plant_id], latitude, longitude)
            if (plant["capacityMw"] or 0) >= NEAREST_PLANT_MIN_MW:
                return plant
    return None


def nearest_plant(conn: sqlite3.Connection, latitude: float, longitude: float) -> dict | None:
    """Return the plant of at least NEAREST_PLANT_MIN_MW nearest a point (widening the
    search box), or None."""
    for radius in PLANT_SEARCH_KM:
        lat_span = radius / KM_PER_DEGREE
        lon_span = radius / (KM_PER_DEGREE * max(math.cos(math.radians(latitude)), 0.01))
        box = (longitude - lon_span, latitude - lat_span, longitude + lon_span, latitude + lat_span)
        within = sorted(
            (round(great_circle_km(latitude, longitude, lat, lon), 2), plant_id)
            for plant_id, lat, lon in surroundings_reads.plant_positions_in_bbox(conn, box)
        )
        plant = _first_large(conn, [p for p in within if p[0] <= radius], latitude, longitude)
        if plant is not None:
            return plant
    return None


def key_figures(
    conn: sqlite3.Connection, site: dict, facts: list[dict], newest: str | None = None
) -> dict[str, Any]:
    """Return the assessment's `keyFigures`; the margin is `dated` when its facts are over a
    year older than `newest` (the data's as-of date)."""
    location = site.get("location") or {}
    plant = nearest_plant(conn, float(location["latitude"]), float(location["longitude"]))
    return {
        "tightestReserveMargin": _margin_wire(facts, newest),
        "nearestPlant": (
            {
                **{k: plant[k] for k in ("id", "plantId", "plantName", "distanceKm")},
                **{k: plant[k] for k in ("capacityMw", "capacityBasis")},
                "minimumMw": NEAREST_PLANT_MIN_MW,
            }
            if plant
            else None
        ),
    }
