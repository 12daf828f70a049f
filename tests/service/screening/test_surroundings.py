"""A site's surroundings over the demo store: every figure recomputed here from the tables.

The expected values are computed independently of the service: county distances with
shapely's nearest point and the haversine formula, queue figures, changes and dropout
rates with plain SQL over `queue_history`.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict

import pytest
import shapely
from screening_support import grouped_fuel
from service_support import every_listed
from shapely.geometry import Point, shape
from shapely.ops import nearest_points

from gridservice.demo import DEMO_POINTS

ALPHA = {"Authorization": "Bearer gds_demo_alpha"}
BETA = {"Authorization": "Bearer gds_demo_beta"}
HAYS = DEMO_POINTS["dual_certified"]  # San Marcos area, Hays County TX


def make_site(client, headers, point, suffix):
    latitude, longitude = point
    body = {
        "requestedPeakLoadMw": 200.0,
        "targetInServiceDate": "2028-06-01",
        "location": {"latitude": latitude, "longitude": longitude},
    }
    response = client.post(
        "/v1/sites", json=body, headers={**headers, "Idempotency-Key": f"surround-{suffix}-0001"}
    )
    assert response.status_code == 201, response.text
    return response.json()["data"]["id"]


def surroundings(client, site_id, headers=ALPHA, **params):
    return client.get(f"/v1/sites/{site_id}/surroundings", params=params, headers=headers)


def in_full(client, data: dict, headers: dict = ALPHA) -> dict:
    """Return surroundings with every bounded list read in full (listed, then paged)."""
    for county in data["counties"]:
        queue = county["queue"]
        queue["projects"] = every_listed(
            client, queue["projects"], queue["lists"]["projects"], headers
        )
    changes = data["changes"]
    for name in ("entered", "left", "changed") if changes else ():
        changes[name] = every_listed(client, changes[name], changes["lists"][name], headers)
    return data


@pytest.fixture(scope="module")
def hays(demo_with_db):
    client, _ = demo_with_db
    site_id = make_site(client, ALPHA, HAYS, "hays")
    response = surroundings(client, site_id)
    assert response.status_code == 200, response.text
    return site_id, in_full(client, response.json()["data"])


def haversine_km(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = (
        math.sin((p2 - p1) / 2) ** 2
        + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    )
    return 2 * 6371.0088 * math.asin(math.sqrt(h))


def county_distances(conn, latitude, longitude):
    site = Point(longitude, latitude)
    distances = {}
    for fips, text in conn.execute("SELECT county_fips, geojson FROM counties"):
        geometry = shape(json.loads(text))
        if geometry.covers(site):
            distances[fips] = 0.0
            continue
        nearest = nearest_points(geometry, site)[0]
        distances[fips] = haversine_km(latitude, longitude, nearest.y, nearest.x)
    return distances


def report_ids(conn):
    return [r[0] for r in conn.execute("SELECT report_id FROM queue_reports ORDER BY report_month")]


def active_rows(conn, report_id, fips):
    marks = ",".join("?" * len(fips))
    rows = conn.execute(
        "SELECT upper(project_id), capacity_mw, fuel, ia_signed, security_ntp, projected_cod, "
        "study_phase, county_fips FROM queue_history WHERE report_id = ? AND status = 'active' "
        f"AND county_fips IN ({marks})",
        [report_id, *fips],
    ).fetchall()
    return {r[0]: r for r in rows}


def grade(ia_signed, security_ntp):
    return "security_ntp" if security_ntp else "ia_signed" if ia_signed else "neither"


def test_counties_within_the_radius_and_their_distances(demo_with_db, hays):
    _, conn = demo_with_db
    _, data = hays
    expected = county_distances(conn, *HAYS)
    got = {c["countyFips"]: c["distanceKm"] for c in data["counties"]}
    assert data["radiusKm"] == 40 and data["siteCounty"]["name"] == "Hays"
    assert got[data["siteCounty"]["countyFips"]] == 0
    for fips, distance in expected.items():
        if distance < 39.5:
            assert fips in got, fips
        if distance > 40.5:
            assert fips not in got, fips
    for fips, distance in got.items():
        assert distance == pytest.approx(expected[fips], rel=0.01, abs=0.3)
    assert [c["distanceKm"] for c in data["counties"]] == sorted(got.values())


def test_the_queue_now_per_county_by_fuel_and_firmness(demo_with_db, hays):
    _, conn = demo_with_db
    _, data = hays
    newest = report_ids(conn)[-1]
    for county in data["counties"]:
        rows = active_rows(conn, newest, [county["countyFips"]])
        queue = county["queue"]
        assert queue["locationBasis"] == "county" and queue["reportId"] == newest
        assert queue["activeProjects"] == len(rows)
        assert queue["activeMw"] == pytest.approx(sum(r[1] for r in rows.values() if r[1] > 0))
        by_fuel = defaultdict(float)
        by_grade = defaultdict(int)
        for row in rows.values():
            by_fuel[row[2]] += max(row[1], 0)
            by_grade[grade(row[3], row[4])] += 1
        assert {f["fuel"]: f["mw"] for f in queue["byFuel"]} == pytest.approx(dict(by_fuel))
        assert {f["firmness"]: f["projects"] for f in queue["byFirmness"] if f["projects"]} == (
            dict(by_grade)
        )
        assert {p["projectId"].upper() for p in queue["projects"]} == set(rows)
        for project in queue["projects"]:
            cell = project["source"]
            stored = conn.execute(
                "SELECT capacity_mw FROM queue_history WHERE report_id = ? AND file_name = ? "
                "AND worksheet = ? AND row = ?",
                (cell["reportId"], cell["fileName"], cell["worksheet"], cell["row"]),
            ).fetchone()
            assert stored[0] == project["capacityMw"]
    total = sum(c["queue"]["activeProjects"] for c in data["counties"])
    assert data["queueNow"]["activeProjects"] == total > 0


def test_changes_between_the_default_months(demo_with_db, hays):
    _, conn = demo_with_db
    _, data = hays
    ids = report_ids(conn)
    changes = data["changes"]
    # Default: the newest report and the one twelve months before it.
    assert (changes["from"]["reportId"], changes["to"]["reportId"]) == (ids[-13], ids[-1])
    fips = [c["countyFips"] for c in data["counties"]]
    before, after = active_rows(conn, ids[-13], fips), active_rows(conn, ids[-1], fips)
    assert {p["projectId"].upper() for p in changes["entered"]} == set(after) - set(before)
    assert {p["projectId"].upper() for p in changes["left"]} == set(before) - set(after)
    for project in changes["left"]:
        said = conn.execute(
            "SELECT status FROM queue_history WHERE upper(project_id) = ? AND status != 'active' "
            "AND report_id > ? ORDER BY report_id DESC LIMIT 1",
            (project["projectId"].upper(), ids[-13]),
        ).fetchone()
        assert project["outcome"] == (said[0] if said else "unstated")
    changed = {
        key
        for key in set(before) & set(after)
        if before[key][1] != after[key][1]
        or before[key][5] != after[key][5]
        or before[key][6] != after[key][6]
        or grade(*before[key][3:5]) != grade(*after[key][3:5])
    }
    assert {p["projectId"].upper() for p in changes["changed"]} == changed
    assert changes["counts"]["entered"] == len(changes["entered"]) > 0
    assert changes["counts"]["left"] == len(changes["left"]) > 0
    assert changed


def test_each_change_cites_both_cells_it_compares(demo_with_db, hays):
    _, conn = demo_with_db
    _, data = hays
    columns = {"capacityMw": "capacity_mw", "projectedCod": "projected_cod",
               "studyPhase": "study_phase"}  # fmt: skip
    checked = 0
    for project in data["changes"]["changed"]:
        for change in project["changes"]:
            if change["field"] not in columns:
                continue
            for side, value in (("fromCell", change["from"]), ("toCell", change["to"])):
                cell = change[side]
                stored = conn.execute(
                    f"SELECT {columns[change['field']]} FROM queue_history WHERE file_name = ? "
                    "AND worksheet = ? AND row = ?",
                    (cell["fileName"], cell["worksheet"], cell["row"]),
                ).fetchone()
                assert stored[0] == value
            assert change["fromCell"]["fileName"] != change["toCell"]["fileName"]
            checked += 1
    assert checked


def test_dropout_rates_by_fuel_with_their_counts(demo_with_db, hays):
    _, conn = demo_with_db
    _, data = hays
    fips = [c["countyFips"] for c in data["counties"]]
    marks = ",".join("?" * len(fips))
    rows = conn.execute(
        "SELECT upper(h.project_id), r.report_month, h.status, h.fuel, h.technology "
        "FROM queue_history h "
        f"JOIN queue_reports r USING (report_id) WHERE h.county_fips IN ({marks})",
        fips,
    ).fetchall()
    first_active, fuel_of, last_active, drops = {}, {}, {}, defaultdict(set)
    for key, month, status, fuel, technology in rows:
        if status == "active":
            first_active[key] = min(first_active.get(key, month), month)
            if month >= last_active.get(key, ""):
                last_active[key], fuel_of[key] = month, grouped_fuel(fuel, technology)
    for key, month, status, *_ in rows:
        if status in ("inactive", "cancelled") and month >= first_active.get(key, "9999"):
            drops[key].add(status)
    expected = defaultdict(lambda: [0, 0])
    for key, fuel in fuel_of.items():
        expected[fuel][0] += 1
        expected[fuel][1] += 1 if drops[key] else 0
    got = {f["fuel"]: [f["projects"], f["droppedOut"]] for f in data["dropout"]["byFuel"]}
    assert got == dict(expected)
    for entry in data["dropout"]["byFuel"]:
        assert entry["rate"] == pytest.approx(entry["droppedOut"] / entry["projects"], abs=1e-4)
    assert "under-counts eventual withdrawals" in data["dropout"]["statement"]
    assert sum(c["projects"] for c in data["dropout"]["byCounty"]) == len(fuel_of)


def test_plants_are_placed_by_their_coordinates(demo_with_db, hays):
    _, conn = demo_with_db
    _, data = hays
    for county in data["counties"]:
        assert county["plants"]["locationBasis"] == "coordinates"
        geometry = shape(
            json.loads(
                conn.execute(
                    "SELECT geojson FROM counties WHERE county_fips = ?", (county["countyFips"],)
                ).fetchone()[0]
            )
        )
        distances = [p["distanceKm"] for p in county["plants"]["nearest"]]
        assert distances == sorted(distances)
        for plant in county["plants"]["nearest"]:
            assert shapely.intersects(geometry, Point(plant["longitude"], plant["latitude"]))
            assert plant["distanceKm"] == pytest.approx(
                haversine_km(*HAYS, plant["latitude"], plant["longitude"]), abs=0.01
            )
            mw = conn.execute(
                "SELECT sum(capacity_mw) FROM generators WHERE plant_id = ? AND is_current = 1",
                (plant["plantId"],),
            ).fetchone()[0]
            assert plant["capacityMw"] == (None if mw is None else pytest.approx(mw, abs=0.05))
    assert any(c["plants"]["nearest"] for c in data["counties"])


def test_interconnection_points_by_kv(demo_with_db, hays):
    _, conn = demo_with_db
    _, data = hays
    site_county = next(c for c in data["counties"] if c["isSiteCounty"])
    expected = conn.execute(
        "SELECT DISTINCT p.point_id, p.kv FROM interconnection_point_projects x JOIN "
        "interconnection_points p USING (point_id) WHERE x.county_fips = ? AND p.kind != "
        "'unparsed'",
        (site_county["countyFips"],),
    ).fetchall()
    levels = site_county["interconnectionPoints"]["byKv"]
    got = {(p["pointId"], level["kv"]) for level in levels for p in level["points"]}
    assert got == set(expected) and got
    assert [level["kv"] for level in levels] == sorted((level["kv"] for level in levels),
                                                       reverse=True)  # fmt: skip


def test_another_tenants_site_is_not_found(demo_with_db, hays):
    client, _ = demo_with_db
    site_id, _ = hays
    response = surroundings(client, site_id, headers=BETA)
    assert response.status_code == 404
    assert response.json()["code"] == "site_not_found"
    assert response.headers["content-type"].startswith("application/problem+json")


@pytest.mark.parametrize(
    ("params", "status", "code", "says"),
    [
        ({"radius_km": 150.5}, 422, "radius_out_of_range", "between 0 and 150"),
        ({"radius_km": -1}, 422, "radius_out_of_range", "got -1"),
        ({"from": "2020-01"}, 422, "month_not_harvested", "from=2020-01"),
        ({"to": "2030-01"}, 422, "month_not_harvested", "to=2030-01"),
        ({"from": "2025-09", "to": "2025-03"}, 422, "invalid_month_range", "must be before"),
        ({"from": "2025-9"}, 400, "invalid_parameter", "YYYY-MM"),
    ],
)
def test_bad_input_says_which(demo_with_db, hays, params, status, code, says):
    client, _ = demo_with_db
    site_id, _ = hays
    response = surroundings(client, site_id, **params)
    assert response.status_code == status
    problem = response.json()
    assert problem["code"] == code and says in problem["detail"]
    assert response.headers["content-type"].startswith("application/problem+json")


def test_sites_outside_the_harvested_counties(demo_with_db):
    client, _ = demo_with_db
    at_sea = make_site(client, ALPHA, DEMO_POINTS["outside_coverage"], "sea")
    response = surroundings(client, at_sea)
    assert response.status_code == 404 and response.json()["code"] == "site_outside_counties"
    oklahoma_city = make_site(client, ALPHA, (35.4676, -97.5164), "okc")
    response = surroundings(client, oklahoma_city)
    assert response.status_code == 200
    answer = response.json()["data"]
    assert answer["market"] == "SPP" and answer["dropout"] is None
    site_county = next(c for c in answer["counties"] if c["isSiteCounty"])
    assert site_county["queue"]["basis"] == "queue_records"
    assert "not available for SPP" in answer["abstentions"][0]["statement"]


def test_an_explicit_window_and_a_zero_radius(demo_with_db, hays):
    client, conn = demo_with_db
    site_id, _ = hays
    data = surroundings(client, site_id, radius_km=0, **{"from": "2025-03", "to": "2025-06"})
    data = data.json()["data"]
    assert [c["name"] for c in data["counties"]] == ["Hays"]
    assert data["changes"]["from"]["reportMonth"] == "2025-03"
    assert data["changes"]["to"]["reportMonth"] == "2025-06"
    fips = [data["siteCounty"]["countyFips"]]
    ids = dict(conn.execute("SELECT report_month, report_id FROM queue_reports").fetchall())
    before = active_rows(conn, ids["2025-03"], fips)
    after = active_rows(conn, ids["2025-06"], fips)
    left = in_full(client, data)["changes"]["left"]
    assert {p["projectId"].upper() for p in left} == set(before) - set(after)


def test_the_assessment_cites_firmness_and_change_and_carries_them(demo_with_db, hays):
    client, conn = demo_with_db
    site_id, data = hays
    response = client.post(
        f"/v1/sites/{site_id}/assessments",
        headers={**ALPHA, "Idempotency-Key": "surround-assess-0001"},
    )
    assert response.status_code == 201, response.text
    assessment = response.json()["data"]
    history = assessment["queueHistory"]
    site_county = next(c for c in data["counties"] if c["isSiteCounty"])
    # The same county, the same newest report: the same figures as the surroundings.
    assert history["byFirmness"] == site_county["queue"]["byFirmness"]
    newest = report_ids(conn)[-1]
    rows = active_rows(conn, newest, [site_county["countyFips"]])
    firm_mw = sum(r[1] for r in rows.values() if r[4] and r[1] > 0)
    finding = next(
        f for f in assessment["readiness"]["findings"] if f["factor"] == "queue_congestion"
    )
    assert f"{firm_mw:,.0f} MW with financial security and notice to proceed" in finding["finding"]
    counts = history["changes"]["counts"]
    assert f"{counts['entered']} entered, {counts['left']} left" in finding["finding"]
    timeline = next(f for f in assessment["readiness"]["findings"] if f["factor"] == "timeline")
    assert "projected COD" in timeline["finding"]

    export = client.post(
        f"/v1/assessments/{assessment['id']}/exports",
        json={"format": "csv"},
        headers={**ALPHA, "Idempotency-Key": "surround-export-0001"},
    ).json()["data"]
    lines = export["content"].splitlines()
    left = [line for line in lines if line.startswith("queue_change,") and ",left (" in line]
    assert len(left) == counts["left"]
    packet = client.get(
        f"/v1/assessments/{assessment['id']}/expert-review.json", headers=ALPHA
    ).json()["data"]
    assert packet["serviceAssessment"]["queueHistory"] == history
