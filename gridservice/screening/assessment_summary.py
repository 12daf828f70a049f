"""An assessment's summary: the few figures a portfolio table shows, kept beside the assessment.

A portfolio lists every site with its latest assessment; the whole assessment lists every
record behind its figures (about 120 KiB per site on the demo store, megabytes on a large one),
so listing 200 sites carried 24 MB. The summary is worked out once, when the assessment is
stored, and listed instead (`GET /v1/sites?include=latest_assessment_summary`, an extension).

`change_basis` keeps what `site_changes.newer_data_since` reads of an assessment, so the
"changed since assessment" mark is worked out without decoding the whole assessment either.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from gridservice.screening.queue_history import firm_mw
from gridservice.store import tenancy

MARGIN_MEMBERS = ("market", "period", "marginMw", "shareOfPeak")
PLANT_MEMBERS = ("plantName", "distanceKm", "capacityMw")


def _picked(found: dict[str, Any] | None, members: tuple[str, ...]) -> dict[str, Any] | None:
    return {m: found.get(m) for m in members} if found else None


def _queue(history: dict[str, Any] | None) -> dict[str, Any] | None:
    """Return the county's active queue from the assessment's queue history, or None."""
    if not history:
        return None
    # an assessment stored before `firmMw` was carried is read from its grades
    firm = history.get("firmMw")
    return {
        "reportMonth": (history.get("report") or {}).get("reportMonth"),
        "countyFips": history.get("countyFips"),
        "activeProjects": history.get("activeProjects"),
        "activeMw": history.get("activeMw"),
        "firmMw": firm if firm is not None else firm_mw(history.get("byFirmness") or []),
    }


def assessment_summary(assessment: dict[str, Any]) -> dict[str, Any]:
    """Return the wire `AssessmentSummary` of a stored assessment."""
    figures = assessment.get("keyFigures") or {}
    return {
        "assessmentId": assessment["id"],
        "createdAt": assessment["createdAt"],
        "readiness": (assessment.get("readiness") or {}).get("level"),
        "territoryCandidates": len(assessment.get("serviceTerritoryCandidates") or []),
        "queue": _queue(assessment.get("queueHistory")),
        "tightestReserveMargin": _picked(figures.get("tightestReserveMargin"), MARGIN_MEMBERS),
        "nearestPlant": _picked(figures.get("nearestPlant"), PLANT_MEMBERS),
    }


def change_basis(assessment: dict[str, Any]) -> dict[str, Any]:
    """Return the members of an assessment that `newer_data_since` reads, nothing else."""
    report = (assessment.get("queueHistory") or {}).get("report") or {}
    signals = assessment.get("marketSignals") or []
    return {
        "id": assessment["id"],
        "createdAt": assessment["createdAt"],
        "queueHistory": {"report": {"reportId": report.get("reportId")}},
        "marketSignals": [
            {"market": m} for m in sorted({s.get("market") or "" for s in signals} - {""})
        ],
        "jurisdictions": [
            {"level": j.get("level"), "id": j.get("id")}
            for j in assessment.get("jurisdictions") or []
            if j.get("level") == "iso_rto"
        ],
    }


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def store_assessment(conn: sqlite3.Connection, assessment: dict[str, Any], body: str) -> None:
    """Store an assessment (its wire JSON `body`) with its summary and change basis."""
    ids = (assessment["id"], assessment["tenantId"], assessment["siteId"])
    tenancy.insert_assessment(conn, *ids, assessment["createdAt"], body)
    tenancy.insert_assessment_summary(
        conn, *ids, _compact(assessment_summary(assessment)), _compact(change_basis(assessment))
    )


def latest_summaries(
    conn: sqlite3.Connection, tenant_id: str, site_ids: list[str]
) -> dict[str, tuple[str, dict[str, Any]]]:
    """Return {site id: (its newest assessment's summary JSON, its change basis)}.

    An assessment stored before summaries were kept is summarised from its body here.
    """
    found = {}
    for site_id, summary, basis, body in tenancy.latest_assessment_summaries(
        conn, tenant_id, site_ids
    ):
        if summary is None:
            assessment = json.loads(body)
            found[site_id] = (_compact(assessment_summary(assessment)), change_basis(assessment))
        else:
            found[site_id] = (summary, json.loads(basis))
    return found
