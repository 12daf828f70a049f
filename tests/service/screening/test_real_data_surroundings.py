"""Surroundings on the real ERCOT GIS reports of November 2024 and 2025, checked against the
published per-sheet CSVs of the same workbooks.

The store holds the Census counties, the two GIS workbooks and the EIA plant layer. Every
expected figure is computed here: which counties lie within 40 km (pyshp and shapely on the
full-resolution Census shapefile, haversine to the nearest boundary point), the queue per
county (rows with an INR, MW, firmness), and which projects entered and left, and why.
"""

from __future__ import annotations

import csv
import math
import re
from collections import defaultdict
from pathlib import Path

import httpx
import pytest
import shapefile
from harvest_support import counties_store
from service_support import every_listed
from shapely.geometry import Point, shape
from shapely.ops import nearest_points

from gridservice.geography import geo
from gridservice.harvest import run_harvest
from gridservice.runtime.server import start_in_thread
from gridservice.settings import Settings
from gridservice.store import writer

REPO_ROOT = Path(__file__).resolve().parents[3]
DATA = REPO_ROOT / ".." / "shared" / "data"
QUEUE = DATA / "ercot_gis_queue"
WORKBOOKS = [QUEUE / "GIS_Report_November2024.xlsx", QUEUE / "GIS_Report_November2025.xlsx"]
PLANTS = DATA / "eia_plants" / "eia_power_plants_202305_texas.csv"
TOKEN = "gds_real_surroundings_token"
SITES = {"Abilene": (32.45, -99.73), "Odessa": (31.85, -102.37), "Houston": (29.76, -95.37)}
INR = re.compile(r"^\d{2}INR\d{4}")


def sheet_csv(kind: str, month: str) -> list[dict]:
    with (QUEUE / f"ercot_gis_{kind}_{month}.csv").open(newline="", encoding="utf-8") as handle:
        return [r for r in csv.DictReader(handle) if INR.match((r["inr"] or "").strip())]


def date_or_none(value: str | None) -> str | None:
    value = (value or "").strip()
    return None if not value or value.startswith("1900-01-01") else value


@pytest.fixture(scope="module")
def store(tmp_path_factory, census_counties_store) -> Path:
    needed = [*WORKBOOKS, PLANTS, QUEUE / "ercot_gis_large_gen_November2025.csv"]
    missing = [str(p) for p in needed if not p.is_file()]
    if missing:
        pytest.skip(f"shared public data files are absent: {', '.join(missing)}")
    path = tmp_path_factory.mktemp("real-surroundings") / "harvest.db"
    conn = counties_store(census_counties_store, path)
    run_harvest(conn, "eia-plants", PLANTS)
    for workbook in WORKBOOKS:
        run_harvest(conn, "ercot-gis", workbook)
    with conn:
        writer.add_token(conn, TOKEN, "tenant-real", "2026-01-01T00:00:00Z")
    conn.close()
    return path


@pytest.fixture(scope="module")
def answers(store) -> dict[str, dict]:
    server = start_in_thread(Settings(db_path=store))
    headers = {"Authorization": f"Bearer {TOKEN}"}
    found = {}
    try:
        with httpx.Client(base_url=server.base_url, timeout=60) as client:
            for name, (latitude, longitude) in SITES.items():
                body = {
                    "requestedPeakLoadMw": 200,
                    "location": {"latitude": latitude, "longitude": longitude},
                }
                site = client.post(
                    "/v1/sites",
                    json=body,
                    headers={**headers, "Idempotency-Key": f"real-surroundings-{name}"},
                ).json()["data"]
                response = client.get(f"/v1/sites/{site['id']}/surroundings", headers=headers)
                assert response.status_code == 200, response.text
                found[name] = response.json()["data"]
                changes = found[name]["changes"]
                for key in ("entered", "left", "changed"):
                    page = changes["lists"][key]
                    changes[key] = every_listed(client, changes[key], page, headers)
    finally:
        server.stop()
    return found


def census_distances(latitude: float, longitude: float) -> dict[str, float]:
    """County FIPS -> km from the point to the full-resolution Texas county boundary."""
    site = Point(longitude, latitude)
    out = {}
    with shapefile.Reader(str(geo.package_data_dir() / geo.COUNTY_FILE)) as reader:
        for index, record in enumerate(reader.iterRecords()):
            if record["STATEFP"] != "48":
                continue
            boundary = shape(reader.shape(index).__geo_interface__)
            if boundary.covers(site):
                out[record["GEOID"]] = 0.0
                continue
            near = nearest_points(boundary, site)[0]
            p1, p2 = math.radians(latitude), math.radians(near.y)
            h = (
                math.sin((p2 - p1) / 2) ** 2
                + math.cos(p1) * math.cos(p2) * math.sin(math.radians(near.x - longitude) / 2) ** 2
            )
            out[record["GEOID"]] = 2 * 6371.0088 * math.asin(math.sqrt(h))
    return out


def queue_by_county(month: str) -> dict[str, dict[str, dict]]:
    """County name (lower case) -> INR (upper) -> the row, from both project sheets."""
    out: dict[str, dict[str, dict]] = defaultdict(dict)
    for kind in ("large_gen", "small_gen"):
        for row in sheet_csv(kind, month):
            out[row["county"].strip().lower()].setdefault(row["inr"].strip().upper(), row)
    return out


@pytest.mark.parametrize("name", sorted(SITES))
def test_the_counties_within_40_km(answers, name):
    distances = census_distances(*SITES[name])
    got = {c["countyFips"]: c["distanceKm"] for c in answers[name]["counties"]}
    assert sum(1 for d in got.values() if d == 0) == 1
    for fips, distance in distances.items():
        if distance < 39:
            assert fips in got, (name, fips, distance)
        if distance > 41:
            assert fips not in got, (name, fips, distance)
    for fips, distance in got.items():
        assert distance == pytest.approx(distances[fips], abs=1.0)


@pytest.mark.parametrize("name", sorted(SITES))
def test_queue_counts_mw_and_firmness_per_county_match_the_november_2025_report(answers, name):
    published = queue_by_county("November2025")
    for county in answers[name]["counties"]:
        rows = published.get(county["name"].lower(), {})
        queue = county["queue"]
        assert queue["activeProjects"] == len(rows), county["name"]
        mw = sum(float(r["capacity_mw"]) for r in rows.values() if float(r["capacity_mw"] or 0) > 0)
        assert queue["activeMw"] == pytest.approx(mw, abs=0.1), county["name"]
        firm = defaultdict(int)
        for row in rows.values():
            # The report says Yes or No (no date); small generators have no such column.
            security = (row.get("financial_security_and_ntp_provided") or "").strip() == "Yes"
            ia = date_or_none(row.get("ia_signed"))
            firm["security_ntp" if security else "ia_signed" if ia else "neither"] += 1
        got = {f["firmness"]: f["projects"] for f in queue["byFirmness"] if f["projects"]}
        assert got == dict(firm), county["name"]
    assert answers[name]["queueNow"]["activeProjects"] > 0


@pytest.mark.parametrize("name", sorted(SITES))
def test_entered_and_left_since_november_2024_match_the_reports(answers, name):
    changes = answers[name]["changes"]
    assert changes["from"]["reportMonth"] == "2024-11"
    assert changes["to"]["reportMonth"] == "2025-11"
    names = {c["name"].lower() for c in answers[name]["counties"]}
    before = {k for c, rows in queue_by_county("November2024").items() if c in names for k in rows}
    after = {k for c, rows in queue_by_county("November2025").items() if c in names for k in rows}
    assert {p["projectId"].upper() for p in changes["entered"]} == after - before
    # a project still queued in another county on the later report moved: it did not leave
    queued_anywhere = {k for rows in queue_by_county("November2025").values() for k in rows}
    assert {p["projectId"].upper() for p in changes["left"]} == before - after - queued_anywhere
    said = {}
    for kind, status in (
        ("inactive", "inactive"),
        ("cancellation", "cancelled"),
        ("commissioning", "commissioned"),
    ):
        for row in sheet_csv(kind, "November2025"):
            said[row["inr"].strip().upper()] = status  # later kinds win, as in the service
    for project in changes["left"]:
        key = project["projectId"].upper()
        assert project["outcome"] == said.get(key, "unstated"), key
        assert project["fromCell"]["fileName"] == "GIS_Report_November2024.xlsx"


def test_plants_have_their_published_coordinates(answers):
    with PLANTS.open(newline="", encoding="utf-8") as handle:
        published = {int(r["Plant_Code"]): r for r in csv.DictReader(handle)}
    plants = [
        p for data in answers.values() for c in data["counties"] for p in c["plants"]["nearest"]
    ]
    assert plants
    for plant in plants:
        row = published[plant["plantId"]]
        assert plant["latitude"] == pytest.approx(float(row["Latitude"]))
        assert plant["longitude"] == pytest.approx(float(row["Longitude"]))
