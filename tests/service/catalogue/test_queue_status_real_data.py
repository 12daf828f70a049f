"""On the real files: active queue counts and MW are what ERCOT's newest report lists active.

One store per module: Census counties, ERCOT's November 2025 GIS report and LBNL Queued Up
(data through 2024), harvested in the order `gridservice build` uses. The expected figures
come from the CSV extracts of the report's sheets (SOURCES.md), read here with pandas, not
from the harvester's own parse of the workbook.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from harvest_support import counties_store
from shapely.geometry import shape

from gridservice.catalogue.quality import STATUS_DISAGREEMENT_CODE, compute_quality
from gridservice.harvest import run_harvest
from gridservice.screening import screen_site

REPO_ROOT = Path(__file__).resolve().parents[3]
DATA = REPO_ROOT / ".." / "shared" / "data"
GIS = DATA / "ercot_gis_queue"
WORKBOOK = GIS / "GIS_Report_November2025.xlsx"
LBNL = DATA / "lbnl_queued_up" / "lbnl_queued_up_thru2024_ercot_q2023_ge100mw.csv"
SHEETS = {
    "inactive": GIS / "ercot_gis_inactive_November2025.csv",
    "cancelled": GIS / "ercot_gis_cancellation_November2025.csv",
}
ACTIVE = [
    GIS / "ercot_gis_large_gen_November2025.csv",
    GIS / "ercot_gis_small_gen_November2025.csv",
]
FILES = [WORKBOOK, LBNL, *SHEETS.values(), *ACTIVE]
FINDING = re.compile(r"^(\d+) active queue requests? totalling ([\d,.]+) MW in (.+) County, TX")


@pytest.fixture(scope="module")
def conn(tmp_path_factory, census_counties_store):
    missing = [str(p) for p in FILES if not p.is_file()]
    if missing:
        pytest.skip(f"shared public data files are absent: {', '.join(missing)}")
    path = tmp_path_factory.mktemp("status") / "harvest.db"
    connection = counties_store(census_counties_store, path)
    run_harvest(connection, "ercot-gis", WORKBOOK)
    run_harvest(connection, "lbnl-queued-up", LBNL)
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def active_sheets() -> pd.DataFrame:
    """The report's active rows (Large Gen and Small Gen), as the CSV extracts give them."""
    return pd.concat([pd.read_csv(p) for p in ACTIVE], ignore_index=True)


@pytest.fixture(scope="module")
def expected_by_county(active_sheets) -> dict[str, tuple[int, float]]:
    """{county: (active rows, MW)}; MW sums the positive capacities, as the finding does (a
    repowering's net change can be zero or negative; the finding leaves it out and says so)."""
    county = active_sheets["county"].str.casefold()
    positive = active_sheets["capacity_mw"].where(active_sheets["capacity_mw"] > 0, 0.0)
    counts, mws = county.value_counts(), positive.groupby(county).sum()
    return {name: (int(counts[name]), float(mws[name])) for name in counts.index}


def assess_county(conn, geojson: str) -> dict:
    point = shape(json.loads(geojson)).representative_point()
    site = {
        "requestedPeakLoadMw": 200,
        "serviceVoltageKv": 138,
        "targetInServiceDate": "2029-06-01",
        "location": {"latitude": point.y, "longitude": point.x},
    }
    return screen_site(
        conn, site, assessment_id="a", tenant_id="t", created_at="2026-01-01T00:00:00Z"
    )


def queue_finding(assessment: dict) -> tuple[int, float] | None:
    """(active requests, MW) as the queue congestion finding states them; None when it abstains."""
    for finding in assessment["readiness"]["findings"]:
        if finding["factor"] == "queue_congestion":
            match = FINDING.match(finding["finding"])
            assert match, finding["finding"]
            return int(match.group(1)), float(match.group(2).replace(",", ""))
    return None


def test_every_county_counts_what_the_newest_report_lists_active(conn, expected_by_county):
    counties = conn.execute(
        "SELECT county_fips, name, geojson FROM counties WHERE state = 'TX' ORDER BY county_fips"
    ).fetchall()
    assert len(counties) == 254
    wrong = []
    for fips, name, geojson in counties:
        assessment = assess_county(conn, geojson)
        assert assessment["county"]["fips"] == fips
        count, mw = expected_by_county.get(name.casefold(), (0, 0.0))
        stated = queue_finding(assessment) or (0, 0.0)
        # The finding rounds MW to whole megawatts (one decimal below 10 MW).
        if stated[0] != count or abs(stated[1] - mw) > 0.51:
            wrong.append((name, stated, (count, round(mw, 2))))
    assert not wrong, f"counties whose active queue differs from the report: {wrong}"


def test_ector_county_counts_the_report_and_says_why_firebird_is_left_out(conn, expected_by_county):
    ector = conn.execute(
        "SELECT geojson FROM counties WHERE state = 'TX' AND name = 'Ector'"
    ).fetchone()[0]
    assessment = assess_county(conn, ector)
    count, mw = expected_by_county["ector"]
    assert queue_finding(assessment) == (count, round(mw))
    inactive = pd.read_csv(SHEETS["inactive"])
    firebird = inactive[inactive["inr"] == "26INR0279"].iloc[0]
    finding = next(
        f["finding"]
        for f in assessment["readiness"]["findings"]
        if f["factor"] == "queue_congestion"
    )
    assert (
        f"{firebird['project_name']} (26INR0279), inactive as of {firebird['inactive_date'][:10]} "
        f"in ercot_gis_report ({WORKBOOK.name}#Inactive Projects!R{firebird['source_row']})"
    ) in finding
    stored = conn.execute(
        "SELECT body FROM queue_records WHERE id = 'lbnl-ercot-26INR0279'"
    ).fetchone()[0]
    record = json.loads(stored)
    assert record["status"] == "active"  # LBNL's word stays readable, as history
    assert record["sourceLocator"].startswith(f"{LBNL.name}#R")
    assert record["statusNow"]["status"] == "inactive"
    assert record["statusNow"]["countsAsActive"] is False


def test_quality_report_lists_every_record_whose_sources_disagree(conn, active_sheets):
    lbnl = pd.read_csv(LBNL, dtype=str)
    on_active_sheets = set(active_sheets["inr"].str.upper())
    said_active = lbnl["q_status"].str.lower() == "active"
    listed_active = lbnl["q_id"].str.upper().isin(on_active_sheets)
    expected = set(lbnl.loc[said_active != listed_active, "q_id"])
    listed_rows = {
        status: dict(zip(frame["inr"], frame["source_row"], strict=True))
        for status, frame in ((s, pd.read_csv(p)) for s, p in SHEETS.items())
    }
    report = compute_quality(conn, generated_at="2026-01-01T00:00:00Z")
    disagreements = report["queueStatusDisagreements"]
    assert report["queue"][STATUS_DISAGREEMENT_CODE] == len(disagreements) == len(expected)
    assert {d["recordKey"] for d in disagreements} == expected
    line_of = {q_id: i + 2 for i, q_id in enumerate(lbnl["q_id"])}  # line 1 is the header
    for d in disagreements:
        assert d["sourceLocator"] == f"{LBNL.name}#R{line_of[d['recordKey']]}"
        assert d["statusNowSourceLocator"].startswith(WORKBOOK.name)
        if d["statusNow"] in listed_rows:
            row = listed_rows[d["statusNow"]][d["recordKey"]]
            assert d["statusNowSourceLocator"].endswith(f"!R{row}")
        elif d["statusNow"] == "not_listed":
            assert d["recordKey"] not in on_active_sheets
            assert not any(d["recordKey"] in rows for rows in listed_rows.values())
