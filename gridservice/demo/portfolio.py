"""A demo site screened on an older release of the queue, so that out of the box a site reads
"changed since assessment".

The demo ships thirteen monthly releases of its ERCOT queue. The builder loads the releases up
to `SCREENED_ON_MONTH`, screens `SEEDED_SITE` (demo-alpha's) on what the store then holds,
and only then loads the later releases: the assessment cites the June report as the one it
was made on, and `GET /v1/sites/{siteId}/changes` lists what moved near the site since.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from gridservice.demo.common import BUILT_AT
from gridservice.demo.territories import DEMO_POINTS
from gridservice.geography.markets import market_at
from gridservice.screening import screen_site
from gridservice.screening.assessment_summary import store_assessment
from gridservice.store import tenancy

SCREENED_ON_MONTH = "2025-06"
SEEDED_TENANT = "demo-alpha"
SEEDED_SITE_ID = "site_demo_screened_on_2025_06"
SEEDED_ASSESSMENT_ID = "asm_demo_screened_on_2025_06"
_LATITUDE, _LONGITUDE = DEMO_POINTS["dual_certified"]
SEEDED_SITE: dict[str, Any] = {
    "id": SEEDED_SITE_ID,
    "tenantId": SEEDED_TENANT,
    "customerReference": "Demo: Hays County campus (screened on the June 2025 queue)",
    "createdAt": BUILT_AT,
    "metadata": {"seeded": "demo"},
    "requestedPeakLoadMw": 300.0,
    "averageLoadMw": 240.0,
    "serviceVoltageKv": 138.0,
    "curtailableMw": None,
    "targetInServiceDate": "2029-06-01",
    "loadProfile": "flat",
    "redundancy": "n_plus_1",
    "rampProfile": None,
    "onSiteGeneration": None,
    "energyStorage": None,
    "location": {"latitude": _LATITUDE, "longitude": _LONGITUDE},
    "address": None,
    "market": None,  # the region its point is in, named when it is seeded
    "archivedAt": None,
}


def split_releases(releases: dict[str, list], month: str) -> tuple[dict, dict]:
    """Return (the releases up to and including `month`, the later ones)."""
    later = {r["report_id"] for r in releases["reports"] if r["report_month"] > month}

    def part(keep_earlier: bool) -> dict[str, list]:
        def kept(rows: list[dict]) -> list[dict]:
            return [r for r in rows if (r["report_id"] in later) != keep_earlier]

        return {
            "reports": kept(releases["reports"]),
            "rows": kept(releases["rows"]),
            "points": releases["points"] if keep_earlier else [],
            "namings": kept(releases["namings"]),
        }

    return part(True), part(False)


def seed_screened_site(conn: sqlite3.Connection) -> None:
    """Insert the seeded site, with the market region its point is in (as the service's
    `POST /v1/sites` sets it), and screen it on what the store holds now."""
    site = SEEDED_SITE | {"market": market_at(conn, _LATITUDE, _LONGITUDE)}
    text = json.dumps(site, separators=(",", ":"))
    tenancy.insert_site(conn, SEEDED_SITE_ID, SEEDED_TENANT, BUILT_AT, text)
    assessment = screen_site(
        conn,
        site,
        assessment_id=SEEDED_ASSESSMENT_ID,
        tenant_id=SEEDED_TENANT,
        created_at=BUILT_AT,
    )
    store_assessment(
        conn, assessment, json.dumps(assessment, separators=(",", ":"), allow_nan=False)
    )
