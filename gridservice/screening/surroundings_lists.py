"""The project lists of a site's surroundings, bounded, and the pages of the rest.

At scale the surroundings of a site name thousands of queued projects (every active project
of every county, every project that entered, left or changed). The answer lists the first
`LIST_LIMIT` of each list, in the list's own order (queue id, case-insensitive), and says how
many there are in all (`lists`); the figures beside them (counts, MW, firmness, dropout) are
always computed over every project. The rest is read page by page from
`/v1/sites/{siteId}/surroundings/projects`, keyset-paged on the same order: the listed
projects are exactly that resource's first page.

Each listed project carries `recordId`: the queue record with its queue id in its county and
market, so a client links it to `/v1/queue-records/{recordId}` without reading the queue.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from gridservice.store import screening_reads

LIST_LIMIT = 25
CHANGE_LISTS = ("entered", "left", "changed")
LISTS = ("queue", *CHANGE_LISTS)
# (list, county FIPS or None, last key listed) -> the cursor of the next page, or None.
Signer = Callable[[str, str | None, str], str | None]


def project_key(project: dict[str, Any]) -> str:
    """Return the key a list is ordered and paged on: the queue id, upper case."""
    return str(project["projectId"]).upper()


def page_after(
    projects: list[dict[str, Any]], after: str | None, limit: int
) -> tuple[list[dict[str, Any]], bool]:
    """Return (the projects after the key `after`, at most `limit`, whether more follow)."""
    rest = [p for p in projects if after is None or project_key(p) > after]
    return rest[:limit], len(rest) > limit


def project_list(surroundings: dict[str, Any], name: str, county: str | None) -> list[dict]:
    """Return every project of one list of full (unbounded) surroundings, in key order, in
    `county` only when given (the queue: the site's county by default)."""
    if name == "queue":
        wanted = county or surroundings["siteCounty"]["countyFips"]
        for entry in surroundings["counties"]:
            if entry["countyFips"] == wanted:
                return entry["queue"]["projects"]
        return []
    changes = surroundings["changes"]
    projects = changes[name] if changes else []
    return [p for p in projects if county is None or p["countyFips"] == county]


def _listed(
    projects: list[dict], name: str, county: str | None, href: str, sign: Signer | None
) -> tuple[list[dict], dict[str, Any]]:
    shown, more = page_after(projects, None, LIST_LIMIT)
    cursor = sign(name, county, project_key(shown[-1])) if more and sign else None
    return shown, {"listed": len(shown), "total": len(projects), "nextCursor": cursor, "href": href}


def list_href(site_id: str | None, name: str, county: str | None, query: dict[str, Any]) -> str:
    """Return the path (and query) of one list's pages; without a site id, relative to the
    site (`/v1/sites/{siteId}/`)."""
    params = {"list": name, **({"county": county} if county else {}), **query}
    wanted = {k: v for k, v in params.items() if v is not None}
    relative = f"surroundings/projects?{urlencode(wanted)}"
    return f"/v1/sites/{site_id}/{relative}" if site_id else relative


def bound_surroundings(
    surroundings: dict[str, Any], query: dict[str, Any], sign: Signer | None
) -> dict[str, Any]:
    """Return the surroundings with each project list cut to its first page (in place).

    `query`: the surroundings' own query (radius_km, from, to), repeated in each `href`.
    """
    site_id = surroundings["siteId"]
    for entry in surroundings["counties"]:
        queue, fips = entry["queue"], entry["countyFips"]
        href = list_href(site_id, "queue", fips, query)
        queue["projects"], listed = _listed(queue["projects"], "queue", fips, href, sign)
        queue["lists"] = {"projects": listed}
    changes = surroundings["changes"]
    if changes:
        changes["lists"] = {}
        for name in CHANGE_LISTS:
            href = list_href(site_id, name, None, query)
            changes[name], changes["lists"][name] = _listed(changes[name], name, None, href, sign)
    return surroundings


def bound_queue_history(history: dict[str, Any] | None) -> dict | None:
    """Return an assessment's `queueHistory` with its lists cut to their first `LIST_LIMIT`
    (a copy; the findings read the whole). An assessment is kept, and a cursor expires, so
    its `lists` give no cursor: `href` reads each whole list from the start (the site's county,
    radius 0, the months the assessment compared). `href` is relative to the site, so the
    blinded review packet, which carries the assessment, names no site."""
    if history is None:
        return None
    site = None
    county = history["countyFips"]
    href = list_href(site, "queue", county, {"radius_km": 0})
    bounded = {**history}
    bounded["projects"], listed = _listed(history["projects"], "queue", county, href, None)
    bounded["lists"] = {"projects": listed}
    changes = history["changes"]
    if changes:
        window = {"radius_km": 0, "from": changes["from"]["reportMonth"]}
        window["to"] = changes["to"]["reportMonth"]
        bounded["changes"] = {**changes, "lists": {}}
        for name in CHANGE_LISTS:
            href = list_href(site, name, None, window)
            shown, listed = _listed(changes[name], name, None, href, None)
            bounded["changes"][name], bounded["changes"]["lists"][name] = shown, listed
    return bounded


def listed_projects(surroundings: dict[str, Any]) -> list[dict]:
    """Return every project the (bounded) surroundings list."""
    found = [p for c in surroundings["counties"] for p in c["queue"]["projects"]]
    changes = surroundings["changes"]
    if changes:
        found += [p for name in CHANGE_LISTS for p in changes[name]]
    return found


def add_record_ids(
    conn: sqlite3.Connection, market: str, projects: list[dict], states: dict[str, str]
) -> None:
    """Give each project its `recordId`: the queue record of its market with its queue id in
    one of the projects' counties (the first by id when two sources list it), or None.

    `states`: each county FIPS's state, as queue records name it (`TX`).
    """
    places: dict[str, set[str]] = {}
    for project in projects:
        state = states.get(project.get("countyFips") or "")
        if state and project.get("county"):
            places.setdefault(state, set()).add(project["county"])
    keys = sorted({project_key(p) for p in projects})
    found = screening_reads.queue_record_ids(conn, market, places, keys) if keys else {}
    for project in projects:
        project["recordId"] = found.get(project_key(project))
