"""site_surroundings: the counties within a radius of a site, their queue, grid and plants,
how the queue there moved between two harvested reports, and how often projects dropped out.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from gridservice.screening import county_queues
from gridservice.screening.dataset_coverage import OPERATIONS, RESERVE_MARGINS, dataset_abstentions
from gridservice.screening.neighbourhood import plants_by_county, points_by_county, queue_figures
from gridservice.screening.queue_change import dropout_rates, queue_changes, report_wire
from gridservice.screening.queue_history import firm_mw, month_shift
from gridservice.screening.territory import county_index
from gridservice.store import screening_reads, surroundings_reads

Row = dict[str, Any]
DEFAULT_RADIUS_KM = 40.0
MAX_RADIUS_KM = 150.0
CHANGE_WINDOW_MONTHS = 12
DISTANCE_BASIS = (
    "Distance from the site to the nearest point of each county's Census boundary (2016 "
    "cartographic boundary, simplified to about 100 m), on a plane centred on the site; 0 for "
    "the site's own county. Plants: great-circle distance to the plant's coordinates."
)


class SurroundingsInputError(ValueError):
    """A request the data cannot answer: carries the HTTP status, a code and the field."""

    def __init__(self, status: int, code: str, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.field = status, code, detail, field


def checked_radius(radius_km: float | None) -> float:
    """Return the radius asked for (the default when none), or the 422 it is out of range."""
    radius = DEFAULT_RADIUS_KM if radius_km is None else float(radius_km)
    if not 0 <= radius <= MAX_RADIUS_KM:
        raise SurroundingsInputError(
            422,
            "radius_out_of_range",
            f"radius_km must be between 0 and {MAX_RADIUS_KM:g} km; got {radius:g}.",
            "radius_km",
        )
    return radius


def _pick_report(reports: list[Row], month: str, field: str) -> Row:
    for report in reports:
        if report["report_month"] == month:
            return report
    months = ", ".join(r["report_month"] for r in reports) or "none"
    raise SurroundingsInputError(
        422,
        "month_not_harvested",
        f"No queue report is harvested for {field}={month}. Harvested report months: {months}.",
        field,
    )


def _report_pair(
    reports: list[Row], from_month: str | None, to_month: str | None
) -> tuple[Row | None, Row]:
    """Return (from, to) reports: by default the newest and the one twelve months before it
    (or the oldest harvested after that month when it is missing)."""
    to_report = _pick_report(reports, to_month, "to") if to_month else reports[-1]
    if from_month:
        from_report = _pick_report(reports, from_month, "from")
    else:
        target = month_shift(to_report["report_month"], -CHANGE_WINDOW_MONTHS)
        earlier = [r for r in reports if target <= r["report_month"] < to_report["report_month"]]
        from_report = earlier[0] if earlier else None
    if from_report is not None and from_report["report_month"] >= to_report["report_month"]:
        raise SurroundingsInputError(
            422,
            "invalid_month_range",
            f"from ({from_report['report_month']}) must be before to "
            f"({to_report['report_month']}).",
            "from",
        )
    return from_report, to_report


def market_reports(conn: sqlite3.Connection, reports: list[Row], fips: list[str]) -> list[Row]:
    """Return the reports of the market whose newest report names the most of these counties."""
    markets = sorted({r["market"] for r in reports})
    if len(markets) > 1:

        def named(market: str) -> int:
            newest = [r for r in reports if r["market"] == market][-1]
            rows = surroundings_reads.history_rows(conn, [newest["report_id"]], fips)
            return len(rows)

        markets.sort(key=lambda m: -named(m))
    return [r for r in reports if r["market"] == markets[0]]


def _report_rows(
    conn: sqlite3.Connection,
    reports: list[Row | None],
    fips: list[str],
    *,
    described: bool = False,
) -> list[Row]:
    """Return the rows in `fips` of some reports (None for none), read once for all of them
    (`described`: whole, for an answer that describes every one)."""
    ids = sorted({r["report_id"] for r in reports if r is not None})
    return surroundings_reads.history_rows(conn, ids, fips, described=described)


def _county_entry(
    county: dict, distance: float, site_fips: str, report: Row | None
) -> dict[str, Any]:
    return {
        "countyFips": county["county_fips"],
        "name": county["name"],
        "state": county["state"],
        "distanceKm": round(distance, 2),
        "isSiteCounty": county["county_fips"] == site_fips,
        "queue": {"locationBasis": "county", "reportId": report["report_id"] if report else None},
    }


def _limitations(
    conn: sqlite3.Connection, counties: list[dict], reports: list[Row], checked: list[Row]
) -> list[str]:
    limitations = [
        "Queued projects are placed by the county their report names (ERCOT publishes no "
        "coordinates for them): a project in a county within the radius may lie farther from "
        "the site than the radius, and one in a county just outside it may lie nearer.",
        "Queue records are interconnection requests, not built or committed capacity.",
    ]
    plants = [p for c in counties for p in c["plants"]["nearest"]]
    bare = sum(1 for p in plants if p["capacityMw"] is None)
    if bare:
        limitations.append(
            f"{bare} of the {len(plants)} plants listed have no generator records loaded, so "
            "their capacity and technology are unknown here."
        )
    without_events = [
        r["report_month"] for r in reports if "cancellation" not in (r["sheets"] or "")
    ]
    if without_events:
        limitations.append(
            f"{len(without_events)} of the {len(reports)} harvested reports "
            f"({', '.join(without_events)}) were harvested without their inactive, cancellation "
            "and commissioning sheets: a project that left the queue in those months is "
            "'unstated' unless a later report lists it, and their cancellations are not counted "
            "in the dropout rates."
        )
    for report in checked:
        if not surroundings_reads.report_has_security_dates(conn, report["report_id"]):
            limitations.append(
                f"The {report['report_month']} report as harvested ({report['file_name']}) "
                "says nothing of financial security and notice to proceed, so its firmness "
                "reads 'IA signed' at most."
            )
    if screening_reads.meta_value(conn, "data_kind") == "demo":
        limitations.append("The loaded data is fictional demo data.")
    return limitations


def site_surroundings(
    conn: sqlite3.Connection,
    site: dict,
    *,
    radius_km: float | None = None,
    from_month: str | None = None,
    to_month: str | None = None,
    summaries: int | None = None,
) -> dict[str, Any]:
    """Return the surroundings of a site (the wire `SiteSurroundings`), every project of
    every list in it; `summaries`: how many of each list to describe in full (None: all),
    the others carrying their queue id alone (for an answer that lists only those)."""
    radius = checked_radius(radius_km)
    latitude = float(site["location"]["latitude"])
    longitude = float(site["location"]["longitude"])
    index = county_index(conn)
    site_county = index.county_at(latitude, longitude)
    if site_county is None:
        raise SurroundingsInputError(
            404,
            "site_outside_counties",
            f"The site's point ({latitude:g}, {longitude:g}) lies in none of the "
            f"{len(index)} counties this store holds.",
        )
    within = index.counties_within(latitude, longitude, radius)
    fips = [c["county_fips"] for c, _ in within]
    in_history = surroundings_reads.counties_in_history(conn, fips)
    reports = (
        market_reports(conn, surroundings_reads.queue_reports(conn), fips) if in_history else []
    )
    from_report, to_report = (
        _report_pair(reports, from_month, to_month) if reports else (None, None)
    )
    newest = reports[-1] if reports else None
    history_fips = [f for f in fips if f in in_history]
    report_rows = _report_rows(conn, [newest, from_report, to_report], history_fips)
    now_rows = [r for r in report_rows if newest and r["report_id"] == newest["report_id"]]
    points = points_by_county(conn, fips)
    plants = plants_by_county(conn, index, fips, latitude, longitude)
    now_by_county: dict[str, list[Row]] = {}
    for row in now_rows:
        now_by_county.setdefault(row["county_fips"], []).append(row)
    counties = []
    for county, distance in within:
        entry = _county_entry(county, distance, site_county["county_fips"], newest)
        in_reports = county["county_fips"] in in_history
        markets = county_queues.county_markets(conn, county, in_reports)
        if in_reports:
            rows = now_by_county.get(county["county_fips"], [])
            entry["queue"].update(queue_figures(conn, rows, summaries=summaries))
            as_of = newest["report_date"] or newest["report_month"]
            entry["queue"].update(markets=markets, basis="queue_history", asOf=as_of)
            entry["queue"].update(records=[], recordsTotal=None, unavailable=None)
        else:
            entry["queue"] = county_queues.records_queue(conn, county, markets)
        entry["interconnectionPoints"] = points[county["county_fips"]]
        entry["plants"] = {"locationBasis": "coordinates", "nearest": plants[county["county_fips"]]}
        counties.append(entry)
    county_queues.mark_stale(counties, max(c["queue"]["asOf"] or "" for c in counties) or None)
    # Without a monthly report the radius has no total: null figures, never a zero.
    totals = (
        queue_figures(conn, now_rows, with_projects=False)
        if newest
        else {k: None for k in ("activeProjects", "activeMw", "withoutCapacity", "byFuel")}
        | {"byFirmness": None}
    )
    names = {c["county_fips"]: c["name"] for c, _ in within}
    checked = [r for r in (from_report, to_report, newest) if r is not None]
    site_entry = next(c for c in counties if c["isSiteCounty"])
    site_markets = site_entry["queue"]["markets"] or county_queues.territory_markets(
        conn, site_county["county_fips"]
    )
    uncovered = [c for c in counties if c["countyFips"] not in in_history]
    return {
        "siteId": site.get("id"),
        "location": {"latitude": latitude, "longitude": longitude},
        "radiusKm": radius,
        "siteCounty": {
            "countyFips": site_county["county_fips"],
            "name": site_county["name"],
            "state": site_county["state"],
        },
        "market": site_markets[0] if site_markets else None,
        "distanceBasis": DISTANCE_BASIS,
        "queueNow": {
            "locationBasis": "county",
            "report": report_wire(newest) if newest else None,
            **totals,
        },
        "reports": [report_wire(r) for r in reports],
        "counties": counties,
        "changes": (
            queue_changes(conn, reports, from_report, to_report, fips, report_rows, summaries)
            if from_report is not None and to_report is not None
            else None
        ),
        "dropout": dropout_rates(conn, reports, fips, names) if reports else None,
        "abstentions": county_queues.abstentions(site_markets, uncovered)
        + dataset_abstentions(conn, site_markets, (RESERVE_MARGINS, OPERATIONS)),
        "limitations": _limitations(
            conn, counties, reports, list({id(r): r for r in checked}.values())
        ),
    }


def county_queue_history(conn: sqlite3.Connection, county: dict | None) -> dict[str, Any] | None:
    """Return the assessment's `queueHistory` for the site's county: the firmness of its queue
    in the newest harvested report and what changed over the twelve months before it, every
    project citing its source cells; None when no harvested report covers the county's state.
    """
    if county is None or not surroundings_reads.counties_in_history(conn, [county["fips"]]):
        return None
    fips = [county["fips"]]
    reports = market_reports(conn, surroundings_reads.queue_reports(conn), fips)
    from_report, newest = _report_pair(reports, None, None)
    rows = _report_rows(conn, [newest, from_report], fips, described=True)
    figures = queue_figures(conn, [r for r in rows if r["report_id"] == newest["report_id"]])
    changes = queue_changes(conn, reports, from_report, newest, fips, rows) if from_report else None
    return {
        "locationBasis": "county",
        "countyFips": county["fips"],
        "report": report_wire(newest),
        "activeProjects": figures["activeProjects"],
        "activeMw": figures["activeMw"],
        "byFirmness": figures["byFirmness"],
        "firmMw": firm_mw(figures["byFirmness"]),
        "projects": [
            {k: p[k] for k in ("projectId", "capacityMw", "firmness", "source")}
            for p in figures["projects"]
        ],
        "changes": changes,
    }
