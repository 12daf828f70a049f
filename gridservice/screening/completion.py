"""Completion and time to operation of the projects queued in some counties, from every
harvested monthly report.

A project belongs where a report queued it, and ends by its final word: the newest month a
report lists it queued, inactive, cancelled or approved for commercial operation (a tie
goes to the later step). Queued in the newest report: still queued. Gone from the queue
with no event sheet naming it: left, unstated. Its cohort is the year of the first report
that queues it; one already queued in the first harvested report entered before it, at a
month the reports do not say. Months to operation are Kaplan-Meier curves (`survival`)
counting projects still queued, or gone without reaching operation, as censored.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from gridservice.screening.completion_paths import project_paths
from gridservice.screening.likely_build import likely_to_build
from gridservice.screening.outcomes import months_between, parse_date
from gridservice.screening.queue_history import cell
from gridservice.screening.surroundings import (
    SurroundingsInputError,
    checked_radius,
    county_queue_history,
    market_reports,
)
from gridservice.screening.survival import kaplan_meier, median_months
from gridservice.screening.territory import county_index
from gridservice.store import surroundings_reads

Row = dict[str, Any]
OUTCOMES = ("reachedOperation", "droppedOut", "stillQueued", "leftUnstated")
# The final word's steps, in the order a tie of months is broken (the later step wins).
_STEPS = (
    ("last_active", "stillQueued"),
    ("last_inactive", "droppedOut"),
    ("last_cancelled", "droppedOut"),
    ("last_commissioned", "reachedOperation"),
)
# Where a curve starts: the first queued month, the IA date, the first month with security.
STARTS = ("entry", "interconnectionAgreement", "noticeToProceed")


def _month_date(month: str | None) -> Any:
    return parse_date(f"{month}-01") if month else None


def final_word(path: Row, newest_month: str) -> tuple[str, str]:
    """Return a project's outcome (one of `OUTCOMES`) and the month of its final word."""
    first = path["first_active"]
    words = [
        (path[column], step, outcome)
        for step, (column, outcome) in enumerate(_STEPS)
        if path[column] is not None and path[column] >= first
    ]
    month, _, outcome = max(words)
    if outcome == "stillQueued" and month < newest_month:
        return "leftUnstated", month
    return outcome, month


def phase_reached(path: Row) -> str:
    """Return the furthest step a project's rows show: security_ntp, ia_signed or neither."""
    if path["first_security"]:
        return "security_ntp"
    return "ia_signed" if parse_date(path["ia_signed"]) else "neither"


def _starts(path: Row, first_month: str) -> dict[str, Any]:
    """Return the date each curve starts a project at (None when the reports do not say):
    a month already reached in the first harvested report is not a start."""
    return {
        "entry": _month_date(path["first_active"]) if path["first_active"] > first_month else None,
        "interconnectionAgreement": parse_date(path["ia_signed"]),
        "noticeToProceed": (
            _month_date(path["first_security"])
            if path["first_security"] and path["first_security"] > first_month
            else None
        ),
    }


def _duration(path: Row, start: Any, outcome: str, newest_month: str) -> tuple[int, bool] | None:
    """Return (months from `start`, reached operation) or None when it cannot be measured."""
    if start is None:
        return None
    if outcome == "reachedOperation":
        end = parse_date(path["cod_date"]) or _month_date(path["last_commissioned"])
    elif outcome == "stillQueued":
        end = _month_date(newest_month)
    else:
        end = _month_date(path["last_active"])
    months = months_between(start, end)
    return (months, outcome == "reachedOperation") if months >= 0 else None


def _measured(duration: tuple[int, bool] | None) -> dict[str, Any] | None:
    return None if duration is None else {"months": duration[0], "reachedOperation": duration[1]}


def _pairs(projects: list[Row], start: str) -> list[tuple[str, tuple[int, bool]]]:
    """Return (project id, (months, reached operation)) of the projects measured from `start`."""
    return [
        (p["projectId"], (m["months"], m["reachedOperation"]))
        for p in projects
        if (m := p["monthsFrom"][start]) is not None
    ]


def _curve(projects: list[Row], start: str) -> dict[str, Any]:
    measured = _pairs(projects, start)
    steps = kaplan_meier(d for _, d in measured)
    return {
        "projects": len(measured),
        "reachedOperation": sum(1 for _, (_, event) in measured if event),
        "censored": sum(1 for _, (_, event) in measured if not event),
        "medianMonths": median_months(steps),
        "steps": steps,
        "projectIds": [project for project, _ in measured],
    }


def _group(projects: list[Row]) -> dict[str, Any]:
    """Return a group's counts, shares and project ids by outcome, and its median months
    from entry to operation."""
    entry: dict[str, Any] = {"projects": len(projects)}
    for outcome in OUTCOMES:
        ids = [p["projectId"] for p in projects if p["outcome"] == outcome]
        share = round(len(ids) / len(projects), 4) if projects else None
        entry[outcome] = {"count": len(ids), "share": share, "projectIds": ids}
    steps = kaplan_meier(d for _, d in _pairs(projects, "entry"))
    entry["medianMonthsFromEntry"] = median_months(steps)
    return entry


def _grouped(projects: list[Row], key: Callable[[Row], str]) -> dict[str, list[Row]]:
    groups: dict[str, list[Row]] = defaultdict(list)
    for project in projects:
        groups[key(project)].append(project)
    return dict(sorted(groups.items()))


def project_outcomes(conn: sqlite3.Connection, reports: list[Row], fips: list[str]) -> list[Row]:
    """Return each project queued in `fips` in the market's `reports` (oldest first): its
    id, fuel, county, cohort, phase reached, outcome and month, months measured from each
    start (None where unknown) and its newest queued row's cell."""
    first_month, newest_month = reports[0]["report_month"], reports[-1]["report_month"]
    found = []
    for path in project_paths(conn, reports[-1]["market"], fips):
        outcome, month = final_word(path, newest_month)
        starts = _starts(path, first_month)
        entered = path["first_active"]
        found.append(
            {
                "projectId": path["project_id"],
                "projectName": path["project_name"],
                "countyFips": path["county_fips"],
                "county": path["county"],
                "fuel": (path["fuel"] or "").strip().upper() or "unknown",
                "capacityMw": path["capacity_mw"],
                "projectedCod": path["projected_cod"],
                "cohort": entered[:4] if entered > first_month else f"by {first_month}",
                "phaseReached": phase_reached(path),
                "outcome": outcome,
                "outcomeMonth": month,
                "synchronisedMonth": path["synchronised"],
                "monthsFrom": {
                    name: _measured(_duration(path, start, outcome, newest_month))
                    for name, start in starts.items()
                },
                "source": cell(path),
            }
        )
    return found


def completion_figures(projects: list[Row], reports: list[Row]) -> dict[str, Any]:
    """Return completion by cohort, fuel, county and phase reached, and the three curves
    of months to operation, every figure listing its projects."""
    newest = reports[-1]
    return {
        "window": {
            "firstMonth": reports[0]["report_month"],
            "lastMonth": newest["report_month"],
            "reports": len(reports),
        },
        "asOf": newest["report_date"] or newest["report_month"],
        "all": _group(projects),
        "byCohort": [
            {"cohort": k, **_group(g)} for k, g in _grouped(projects, lambda p: p["cohort"]).items()
        ],
        "byFuel": [
            {"fuel": k, **_group(g)} for k, g in _grouped(projects, lambda p: p["fuel"]).items()
        ],
        "byCounty": [
            {"countyFips": k, "county": g[0]["county"], **_group(g)}
            for k, g in _grouped(projects, lambda p: p["countyFips"]).items()
        ],
        "byPhase": [
            {"phase": k, **_group(g)}
            for k, g in _grouped(projects, lambda p: p["phaseReached"]).items()
        ],
        "timeToOperation": {start: _curve(projects, start) for start in STARTS},
        "likelyToBuild": likely_to_build(projects, newest["report_date"] or newest["report_month"]),
        "projects": projects,
    }


def _place(
    conn: sqlite3.Connection,
    county: str | None,
    latitude: float | None,
    longitude: float | None,
    radius_km: float | None,
) -> dict[str, Any]:
    """Return the counties asked for: one by FIPS, or those within a radius of a point."""
    if (county is None) == (latitude is None or longitude is None):
        raise SurroundingsInputError(
            400,
            "invalid_parameter",
            "Give either county (a FIPS code) or latitude and longitude (and radius_km).",
            "county",
        )
    if county is not None:
        return {"basis": "county", "countyFips": [county]}
    radius = checked_radius(radius_km)
    within = county_index(conn).counties_within(latitude, longitude, radius)
    return {
        "basis": "radius",
        "latitude": latitude,
        "longitude": longitude,
        "radiusKm": radius,
        "countyFips": [c["county_fips"] for c, _ in within],
    }


def queue_completion(
    conn: sqlite3.Connection,
    *,
    county: str | None = None,
    latitude: float | None = None,
    longitude: float | None = None,
    radius_km: float | None = None,
    fuel: str | None = None,
    cohort: str | None = None,
) -> dict[str, Any]:
    """Return the wire `QueueCompletion` for a county or the counties within a radius of a
    point, the projects narrowed to one fuel or entry cohort when asked; the problem
    (`SurroundingsInputError`) when the input or the store cannot answer."""
    place = _place(conn, county, latitude, longitude, radius_km)
    fips = sorted(surroundings_reads.counties_in_history(conn, place["countyFips"]))
    if not fips:
        raise SurroundingsInputError(
            404,
            "no_queue_history",
            "No harvested monthly queue report lists a project in "
            + ("that county." if place["basis"] == "county" else "the counties within reach."),
        )
    reports = market_reports(conn, surroundings_reads.queue_reports(conn), fips)
    projects = [
        p
        for p in project_outcomes(conn, reports, fips)
        if (fuel is None or p["fuel"] == fuel.upper()) and (cohort is None or p["cohort"] == cohort)
    ]
    return {
        "market": reports[-1]["market"],
        "place": place,
        "filters": {"fuel": fuel.upper() if fuel else None, "cohort": cohort},
        **completion_figures(projects, reports),
        "basis": BASIS,
    }


BASIS = (
    "Every project a harvested monthly report queues in these counties, counted once by its "
    "final word: the newest report listing it queued, inactive, cancelled or approved for "
    "commercial operation (approval for synchronisation is an earlier milestone and does not "
    "count). Dropped out: inactive or cancelled. Left, unstated: gone from the queue with no "
    "event sheet naming it. Cohort: the year of the first report queuing it ('by' the first "
    "harvested month when already queued then: its entry month is unknown). Months to "
    "operation are Kaplan-Meier estimates: a project still queued, or gone without reaching "
    "operation, is censored at the last month it was seen, not counted as a failure."
)


def county_completion(conn: sqlite3.Connection, county_fips: str) -> dict[str, Any] | None:
    """Return the assessment's short completion figures for a county (counts by outcome, the
    three median months to operation, the likely build and its flags, and where the whole
    answer is), or None when no harvested report queues a project there."""
    try:
        whole = queue_completion(conn, county=county_fips)
    except SurroundingsInputError:
        return None
    likely = whole["likelyToBuild"]
    curves = whole["timeToOperation"]
    return {
        "href": f"/v1/queue-history/completion?county={county_fips}",
        "asOf": whole["asOf"],
        "window": whole["window"],
        "projects": whole["all"]["projects"],
        **{outcome: whole["all"][outcome]["count"] for outcome in OUTCOMES},
        "timeToOperation": {
            start: {k: curve[k] for k in ("projects", "reachedOperation", "medianMonths")}
            for start, curve in curves.items()
        },
        "likelyToBuild": {
            **{k: likely[k] for k in ("label", "queuedMw", "weightedMw", "unweightedMw", "basis")},
            **{
                flag: {k: likely[flag][k] for k in ("projects", "mw")}
                for flag in ("synchronisedStillQueued", "projectedCodPast")
            },
        },
    }


def queue_history_with_completion(conn: sqlite3.Connection, county: dict | None) -> dict | None:
    """Return the assessment's `queueHistory` for the site's county (`county_queue_history`)
    with its completion figures (`completion`), or None."""
    history = county_queue_history(conn, county)
    if history is not None:
        history["completion"] = county_completion(conn, county["fips"])
    return history
