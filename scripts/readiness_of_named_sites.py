"""Print the readiness of named real sites side by side, screened on a store harvested from
the public files (Census counties, EIA-861 territories, the ERCOT CDR of May 2025 and the
ERCOT GIS report of November 2025), as a Markdown table for docs/SCREENING.md.

    uv run python scripts/readiness_of_named_sites.py              # harvest into a temporary store
    uv run python scripts/readiness_of_named_sites.py --db PATH    # screen on a harvested store

Every site asks for 200 MW at 138 kV by mid-2029, so only where it is changes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from gridservice.harvest import census, run_harvest  # noqa: E402
from gridservice.screening import screen_site  # noqa: E402
from gridservice.screening.readiness import factor_weight  # noqa: E402
from gridservice.store import db  # noqa: E402

DATA = REPO_ROOT / ".." / "shared" / "data"
SOURCES = {
    "eia861": DATA / "eia861" / "Service_Territory_2024.xlsx",
    "ercot-cdr": DATA / "ercot_cdr" / "CapacityDemandandReservesReport_May2025.xlsx",
    "ercot-gis": DATA / "ercot_gis_queue" / "GIS_Report_November2025.xlsx",
}
# (latitude, longitude) of each town's centre
NAMED_SITES = {
    "Abilene, TX": (32.4487, -99.7331),
    "Odessa, TX": (31.8457, -102.3676),
    "Houston, TX": (29.7604, -95.3698),
    "Temple, TX": (31.0982, -97.3428),
    "Oklahoma City, OK": (35.4676, -97.5164),
    "Phoenix, AZ": (33.4484, -112.0740),
}
SITE = {
    "requestedPeakLoadMw": 200.0,
    "serviceVoltageKv": 138.0,
    "targetInServiceDate": "2029-06-01",
}
FACTORS = (
    "service_territory",
    "queue_congestion",
    "transmission",
    "load_scale",
    "timeline",
    "market_adequacy",
)


def harvested_store(path: Path) -> Path:
    """Return `path` holding a store harvested from the public files (SOURCES)."""
    conn = db.connect(path)
    try:
        db.init_schema(conn)
        run_harvest(conn, "census-counties", census.default_path())
        for source, file in SOURCES.items():
            run_harvest(conn, source, file)
    finally:
        conn.close()
    return path


def readiness_rows(path: Path) -> list[dict[str, str]]:
    """Return one row per named site: its readiness level, friction score and severities."""
    conn = db.connect(path)
    rows = []
    try:
        for number, (name, (latitude, longitude)) in enumerate(NAMED_SITES.items()):
            site = {
                **SITE,
                "id": f"site_{number}",
                "location": {"latitude": latitude, "longitude": longitude},
            }
            assessment = screen_site(
                conn,
                site,
                assessment_id=f"asm_{number}",
                tenant_id="t",
                created_at="2026-01-01T00:00:00Z",
            )
            readiness = assessment["readiness"]
            severities = {f["factor"]: f["severity"] for f in readiness["findings"]}
            county = assessment["county"] or {}
            rows.append(
                {
                    "Site": name,
                    "County": county.get("name") or "none",
                    "Readiness": readiness["level"].replace("_", " "),
                    "Active queue": active_queue(assessment),
                    "Score": ""
                    if readiness.get("frictionScore") is None
                    else f"{readiness['frictionScore']:.2f}",
                    **{factor: severities.get(factor, "abstained") for factor in FACTORS},
                }
            )
    finally:
        conn.close()
    return rows


def active_queue(assessment: dict) -> str:
    """Return the active queue MW in the site's county, as the assessment counted it."""
    found = (assessment.get("queueHistory") or {}).get("activeMw")
    return "" if found is None else f"{found:,.0f} MW"


def markdown(rows: list[dict[str, str]]) -> str:
    """Return the rows as a Markdown table, each factor's header with its weight."""
    headers = [*rows[0]][:5] + [f"{f.replace('_', ' ')} ({factor_weight(f):g})" for f in FACTORS]
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row.values()) + " |" for row in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a harvested store (default: harvest one now)")
    args = parser.parse_args()
    missing = [str(p) for p in SOURCES.values() if not p.is_file()]
    if args.db is None and missing:
        print(f"missing public data files: {', '.join(missing)}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as folder:
        path = args.db or harvested_store(Path(folder) / "harvest.db")
        print(markdown(readiness_rows(path)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
