"""What changed near a site since one of its assessments.

The assessment was made on one harvested queue report (the `queueHistory.report` it cites;
an assessment made before that member existed is placed on the newest report run on or
before the day it was made). The queue projects in the counties within the surroundings
radius that entered, left or changed between that report and the newest one are counted
with `queue_change.queue_changes`, the same comparison the surroundings use; the facts of
the site's markets that became known after the assessment are listed as restated (a new
version of a fact known then) or new.
"""

from __future__ import annotations

import bisect
import sqlite3
from typing import Any

from gridservice.screening.queue_change import queue_changes
from gridservice.screening.surroundings import DEFAULT_RADIUS_KM, SurroundingsInputError
from gridservice.screening.territory import county_index
from gridservice.store import change_reads, surroundings_reads

Row = dict[str, Any]
FACT_MEMBERS = ("factKey", "market", "predicate", "period", "scenario", "unit")


def _made_on(reports: list[Row], assessment: dict) -> tuple[Row | None, str | None]:
    """Return (the report the assessment was made on, None) or (None, why there is none)."""
    cited = ((assessment.get("queueHistory") or {}).get("report") or {}).get("reportId")
    if cited:
        held = [r for r in reports if r["report_id"] == cited]
        if held:
            return held[0], None
        return None, (
            f"Assessment {assessment['id']} was made on the queue report {cited}, which this "
            "store no longer holds (a later harvest replaced it), so nothing can be compared "
            "with it. Screen the site again."
        )
    made_on = str(assessment["createdAt"])[:10]
    earlier = [r for r in reports if (r["report_date"] or "9999") <= made_on]
    if reports and not earlier:
        return None, (
            f"Assessment {assessment['id']} was made on {made_on}, before the oldest harvested "
            f"queue report ({reports[0]['report_month']}), so there is no report it was made on "
            "to compare with. Screen the site again."
        )
    if not earlier:
        return None, None
    return max(earlier, key=lambda r: (r["report_date"] or "", r["report_month"])), None


def _basis_report(reports: list[Row], assessment: dict) -> Row | None:
    """Return the report the assessment was made on; raise when it can no longer be read."""
    report, why_not = _made_on(reports, assessment)
    if why_not:
        code = "since_report_not_held" if "no longer holds" in why_not else "since_before_reports"
        # 409: the request is well formed; the store no longer holds what it compares with.
        raise SurroundingsInputError(409, code, why_not, "since")
    return report


def newer_data_since(conn: sqlite3.Connection, assessments: dict[str, dict]) -> dict[str, dict]:
    """Return, per site, whether the store holds data newer than its assessment.

    Cheap enough for a whole portfolio: the reports and the facts' knowledge times are read
    once; `newerQueueReport` is the newest report month of the assessment's market when later
    than the one it was made on (or when that one is no longer held).
    """
    reports = surroundings_reads.queue_reports(conn)
    newest = {r["market"].upper(): r for r in reports}  # oldest first: the last one stays
    known = change_reads.fact_times_by_market(conn)
    found = {}
    for site_id, assessment in assessments.items():
        basis, why_not = _made_on(reports, assessment)
        market = basis["market"] if basis else reports[-1]["market"] if reports else ""
        latest = newest.get(market.upper())
        newer = None
        if latest is not None and (
            why_not or (basis and latest["report_month"] > basis["report_month"])
        ):
            newer = latest["report_month"]
        made_at = str(assessment["createdAt"])
        facts = sum(
            len(times) - bisect.bisect_right(times, made_at)
            for times in (known.get(m.upper(), []) for m in _markets(assessment))
        )
        found[site_id] = {
            "newerQueueReport": newer,
            "factsKnownSince": facts,
            "changed": bool(newer or facts),
        }
    return found


def _queue_part(conn: sqlite3.Connection, site: dict, assessment: dict) -> dict[str, Any] | None:
    reports = surroundings_reads.queue_reports(conn)
    basis = _basis_report(reports, assessment)
    if basis is None:
        return None
    market_reports = [r for r in reports if r["market"] == basis["market"]]
    newest = market_reports[-1]
    latitude = float(site["location"]["latitude"])
    longitude = float(site["location"]["longitude"])
    within = county_index(conn).counties_within(latitude, longitude, DEFAULT_RADIUS_KM)
    fips = [c["county_fips"] for c, _ in within]
    changes = queue_changes(conn, market_reports, basis, newest, fips)
    changes["radiusKm"] = DEFAULT_RADIUS_KM
    changes["counties"] = [
        {"countyFips": c["county_fips"], "name": c["name"], "state": c["state"]} for c, _ in within
    ]
    return changes


def _fact_version(fact: dict | None) -> dict[str, Any] | None:
    if fact is None:
        return None
    return {k: fact.get(k) for k in ("id", "factVersion", "value", "knownFrom", "evidence")}


def _markets(assessment: dict) -> set[str]:
    markets = {s.get("market") for s in assessment.get("marketSignals") or []}
    markets |= {
        j.get("id") for j in assessment.get("jurisdictions") or [] if j.get("level") == "iso_rto"
    }
    return {m for m in markets if m}


def facts_since(conn: sqlite3.Connection, assessment: dict) -> list[dict[str, Any]]:
    """Return each fact of the site's markets first known after the assessment was made."""
    made_at = str(assessment["createdAt"])
    found = []
    for kind, fact in change_reads.facts_known_since(conn, _markets(assessment), made_at):
        before = change_reads.fact_known_at(conn, str(fact.get("factKey")), made_at)
        found.append(
            {
                "kind": kind,
                "change": "restated" if before else "new",
                **{k: fact.get(k) for k in FACT_MEMBERS},
                "before": _fact_version(before),
                "after": _fact_version(fact),
            }
        )
    return found


def _summary(queue: dict | None, facts: list[dict]) -> str:
    parts = []
    if queue is not None:
        counts = queue["counts"]
        parts.append(
            f"Between the {queue['from']['reportMonth']} and {queue['to']['reportMonth']} queue "
            f"reports, {counts['entered']} projects near the site entered the queue, "
            f"{counts['left']} left and {counts['changed']} changed MW, COD, study phase or "
            "firmness."
        )
    restated = sum(1 for f in facts if f["change"] == "restated")
    parts.append(f"{restated} market facts restated and {len(facts) - restated} new since.")
    return " ".join(parts)


def site_changes(
    conn: sqlite3.Connection, site: dict, assessment: dict, latest_id: str | None
) -> dict[str, Any]:
    """Return what changed near a site since an assessment (the wire `SiteChanges`)."""
    queue = _queue_part(conn, site, assessment)
    facts = facts_since(conn, assessment)
    queue_moved = queue is not None and any(
        queue["counts"][k] for k in ("entered", "left", "changed")
    )
    limitations = [
        "Queued projects are placed by the county their report names: counties whose "
        f"boundary lies within {DEFAULT_RADIUS_KM:g} km of the site are searched.",
        "Queue records are interconnection requests, not built or committed capacity.",
    ]
    if queue is None:
        limitations.append("No harvested queue report is held, so queue changes are not known.")
    return {
        "siteId": site["id"],
        "since": {
            "assessmentId": assessment["id"],
            "createdAt": assessment["createdAt"],
            "report": queue["from"] if queue else None,
            "isLatest": assessment["id"] == latest_id,
            "latestAssessmentId": latest_id,
        },
        "changedSinceAssessment": bool(queue_moved or facts),
        "summary": _summary(queue, facts),
        "queue": queue,
        "facts": facts,
        "limitations": limitations,
    }
