"""What the queue of a place will really build: a heuristic, labelled as one.

Each project still queued counts its MW times the share of the place's ended projects of
the same fuel and phase reached that reached commercial operation (the fuel alone when
fewer than `MIN_ENDED` of that fuel and phase have ended; no weight when fewer of the fuel
have). Flagged apart: MW approved for synchronisation yet still listed queued, and
projects whose projected COD is already past the data's as-of date.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from gridservice.screening.outcomes import parse_date

Row = dict[str, Any]
# Fewer ended projects than this make no share worth weighting by.
MIN_ENDED = 5
ENDED = ("reachedOperation", "droppedOut", "leftUnstated")
LABEL = "heuristic"
BASIS = (
    "A heuristic, not a forecast: each project still queued counts its MW times the share of "
    "this place's ended projects (reached operation, dropped out or left) of the same fuel and "
    f"phase reached that reached commercial operation; of the same fuel alone when fewer than "
    f"{MIN_ENDED} of that fuel and phase have ended; unweighted (left out) when fewer than "
    f"{MIN_ENDED} of the fuel have."
)


def _share(ended: list[Row]) -> float | None:
    if len(ended) < MIN_ENDED:
        return None
    return sum(1 for p in ended if p["outcome"] == "reachedOperation") / len(ended)


def _mw(projects: list[Row]) -> float:
    return round(sum(p["capacityMw"] or 0.0 for p in projects), 1)


def _flag(projects: list[Row]) -> dict[str, Any]:
    projects = sorted(projects, key=lambda p: p["projectId"])
    return {
        "projects": len(projects),
        "mw": _mw(projects),
        "projectIds": [p["projectId"] for p in projects],
    }


def likely_to_build(projects: list[Row], as_of: str) -> dict[str, Any]:
    """Return the queued MW, that MW weighted by historical completion of the same fuel and
    phase (`weightedMw`, by group with its basis), and the two flags, every figure with its
    projects."""
    ended_by_fuel: dict[str, list[Row]] = defaultdict(list)
    ended_by_group: dict[tuple[str, str], list[Row]] = defaultdict(list)
    queued_by_group: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for project in projects:
        key = (project["fuel"], project["phaseReached"])
        if project["outcome"] in ENDED:
            ended_by_fuel[project["fuel"]].append(project)
            ended_by_group[key].append(project)
        elif project["outcome"] == "stillQueued":
            queued_by_group[key].append(project)
    groups = []
    for (fuel, phase), queued in sorted(queued_by_group.items()):
        share, basis = _share(ended_by_group[(fuel, phase)]), "fuel_and_phase"
        ended = ended_by_group[(fuel, phase)]
        if share is None:
            share, basis, ended = _share(ended_by_fuel[fuel]), "fuel", ended_by_fuel[fuel]
        groups.append(
            {
                "fuel": fuel,
                "phase": phase,
                "queuedMw": _mw(queued),
                "projectIds": [p["projectId"] for p in queued],
                "completionShare": None if share is None else round(share, 4),
                "shareBasis": basis if share is not None else "too_few_ended",
                "endedProjects": len(ended),
                "weightedMw": None if share is None else round(_mw(queued) * share, 1),
            }
        )
    queued = [p for ps in queued_by_group.values() for p in ps]
    now = parse_date(as_of)
    past = [p for p in queued if (cod := parse_date(p["projectedCod"])) and now and cod < now]
    return {
        "label": LABEL,
        "queuedMw": _mw(queued),
        "weightedMw": round(sum(g["weightedMw"] or 0.0 for g in groups), 1),
        "unweightedMw": round(sum(g["queuedMw"] for g in groups if g["weightedMw"] is None), 1),
        "byGroup": groups,
        "synchronisedStillQueued": _flag([p for p in queued if p["synchronisedMonth"]]),
        "projectedCodPast": _flag(past),
        "asOf": as_of,
        "basis": BASIS,
    }
