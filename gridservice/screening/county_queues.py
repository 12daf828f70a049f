"""Which markets' queues cover each county of a site's surroundings, and the queue figures
of a county no harvested monthly report names (from its markets' queue records).

ERCOT's monthly GIS reports (the queue history) give a county its figures, firmness, changes
and dropout rates. A county they never name takes its figures from the queue records loaded
for it, whatever their market (PJM, MISO, SPP...): counts and MW by fuel, without firmness,
which those records do not state; a county no record names takes its market from the ISO
boundary holding it (HIFLD's polygons), so a county across an ISO border is counted in the
queue of the market it lies in. A county with neither says so (`unavailable`), its figures
null: never a zero that reads as "no projects". Each dataset that covers only some markets is
named with its markets where the answer leaves it out (`abstentions`).
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from typing import Any

from gridservice.geography.markets import market_at, market_codes
from gridservice.screening.dataset_coverage import QUEUE_HISTORY, is_dated
from gridservice.screening.territory import county_index
from gridservice.store import screening_reads, surroundings_reads

# The markets whose monthly reports the queue history is harvested from.
HISTORY_MARKETS = ["ERCOT"]
RECORDS_LISTED = 25  # as the report-based lists: the first, by queue id; the figures count all
_NULL_FIGURES = {
    "activeProjects": None,
    "activeMw": None,
    "withoutCapacity": None,
    "byFuel": None,
    "byFirmness": None,
}


def county_region(conn: sqlite3.Connection, county: dict) -> dict[str, Any] | None:
    """Return the market region (`markets.market_at`) holding a point inside the county, or
    None when no ISO boundary or non-ISO region is loaded there."""
    # a point inside the shape, not its centroid: a crescent's centroid can lie outside it
    inside = county_index(conn).geometry(county["county_fips"]).representative_point()
    return market_at(conn, inside.y, inside.x)


def county_markets(conn: sqlite3.Connection, county: dict, in_history: bool) -> list[str]:
    """Return the markets (upper case) whose loaded queues cover a county: ERCOT when its
    monthly reports name the county, the market of each queue record located there, and,
    for a county neither names, the ISO whose boundary holds it when that ISO's queue is
    loaded (its figures are then that queue's, zero included: the queue lists none there)."""
    found = set(surroundings_reads.queue_markets_in_county(conn, county["state"], county["name"]))
    if in_history:
        found.update(HISTORY_MARKETS)
    if not found:
        region = county_region(conn, county)
        if region and region["isIso"] and surroundings_reads.queue_has_market(conn, region["code"]):
            found.add(region["code"].upper())
    return sorted(found)


def territory_markets(conn: sqlite3.Connection, county_fips: str) -> list[str]:
    """Return the market codes the loaded service territories of a county name."""
    found = {
        code
        for t in screening_reads.territories_for_county(conn, county_fips)
        for code in market_codes(t["candidate"].get("isoRto"))
    }
    return sorted(found)


def _record_figures(bodies: list[str]) -> dict[str, Any]:
    """Return count and MW of the active records, in all and by fuel, and their newest
    observation date."""
    by_fuel: dict[str, list[float | None]] = defaultdict(list)
    projects, observed = [], []
    for text in bodies:
        record = json.loads(text)
        observed.append(str(record.get("observedAt") or "")[:10])
        if not (record.get("statusNow") or {}).get("countsAsActive"):
            continue
        mw = record.get("requestedCapacityMw")
        value = float(mw) if isinstance(mw, int | float) and mw > 0 else None
        by_fuel[str(record.get("technology") or record.get("fuel") or "unknown")].append(value)
        projects.append({"projectId": record.get("recordKey"), "recordId": record["id"],
                         "capacityMw": value, "market": record.get("market")})  # fmt: skip
    values = [v for group in by_fuel.values() for v in group]

    def total(group: list[float | None]) -> float:
        return round(sum(v or 0.0 for v in group), 1)

    fuels = sorted(((total(g), f, len(g)) for f, g in by_fuel.items()), key=lambda i: (-i[0], i[1]))
    return {
        "activeProjects": len(values),
        "activeMw": total(values),
        "withoutCapacity": sum(1 for v in values if v is None),
        "byFuel": [{"fuel": f, "projects": n, "mw": mw} for mw, f, n in fuels],
        "byFirmness": None,
        "projects": [],
        "records": sorted(projects, key=lambda p: str(p["projectId"]).upper())[:RECORDS_LISTED],
        "recordsTotal": len(projects),
        "asOf": max((d for d in observed if d), default=None),
    }


def records_queue(conn: sqlite3.Connection, county: dict, markets: list[str]) -> dict[str, Any]:
    """Return a county's `queue` from its markets' queue records (`basis: queue_records`), or
    its figures null with the reason when no loaded queue covers it."""
    entry: dict[str, Any] = {"locationBasis": "county", "reportId": None, "markets": markets}
    if not markets:
        region = county_region(conn, county)
        known = (
            [region["code"]]
            if region and region["isIso"]
            else territory_markets(conn, county["county_fips"])
        )
        where = f"{county['name']} County, {county['state']}"
        said = (
            f"{'/'.join(known)}'s queue is not loaded"
            if known
            else "no loaded interconnection queue names it and its market is not known here"
        )
        return {
            **entry,
            **_NULL_FIGURES,
            "basis": None,
            "asOf": None,
            "projects": [],
            "records": [],
            "recordsTotal": None,
            "unavailable": f"Queue figures for {where} are not available: {said}.",
        }
    bodies = surroundings_reads.queue_record_bodies_in_county(
        conn, county["state"], county["name"], markets
    )
    return {**entry, "basis": "queue_records", **_record_figures(bodies), "unavailable": None}


def abstentions(site_markets: list[str], uncovered: list[dict]) -> list[dict[str, Any]]:
    """Return what the answer leaves out for counties the queue history does not cover: the
    dataset, the markets it covers, the counties and markets it is missing for."""
    if not uncovered:
        return []
    missing = sorted({m for c in uncovered for m in c["queue"]["markets"]} | set(site_markets))
    missing = [m for m in missing if m not in HISTORY_MARKETS]
    covers = ", ".join(HISTORY_MARKETS)
    where = ", ".join(missing) if missing else "markets not loaded here"
    return [
        {
            "dataset": QUEUE_HISTORY.dataset,
            "title": QUEUE_HISTORY.title,
            "coversMarkets": HISTORY_MARKETS,
            "missingForMarkets": missing,
            "countyFips": [c["countyFips"] for c in uncovered],
            "statement": f"Queue history: {covers} only — not available for {where} "
            f"({len(uncovered)} of the counties within the radius): no changes, firmness or "
            "dropout rates there.",
        }
    ]


def mark_stale(counties: list[dict], newest: str | None) -> None:
    """Say, on each county's queue (in place), whether its source is more than a year older
    than the newest source of the answer (`dated`)."""
    for county in counties:
        queue = county["queue"]
        as_of = queue.get("asOf")
        queue["dated"] = is_dated(as_of, newest)
