"""The surroundings' bounded project lists: the figures count every project, the lists name
the first few, and the pages of `/v1/sites/{siteId}/surroundings/projects` give the rest,
each project exactly once, with the queue record it links to."""

from __future__ import annotations

import json

import httpx
import pytest
from service_support import every_listed

from gridservice.demo import DEMO_POINTS
from gridservice.screening import surroundings_lists
from gridservice.store import db, screening_reads

ALPHA = {"Authorization": "Bearer gds_demo_alpha"}
BETA = {"Authorization": "Bearer gds_demo_beta"}
LIMIT = 4


@pytest.fixture(scope="module")
def site_id(demo_with_db):
    client, _ = demo_with_db
    body = {
        "requestedPeakLoadMw": 200.0,
        "location": dict(
            zip(("latitude", "longitude"), DEMO_POINTS["dual_certified"], strict=True)
        ),
    }
    response = client.post(
        "/v1/sites", json=body, headers={**ALPHA, "Idempotency-Key": "surround-lists-0001"}
    )
    assert response.status_code == 201, response.text
    return response.json()["data"]["id"]


@pytest.fixture()
def near(demo_with_db, site_id, monkeypatch):
    """The surroundings with lists of at most LIMIT projects (so every list pages)."""
    monkeypatch.setattr(surroundings_lists, "LIST_LIMIT", LIMIT)
    client, _ = demo_with_db
    response = client.get(f"/v1/sites/{site_id}/surroundings", headers=ALPHA)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def active_in_newest(conn, fips: str) -> dict[str, float]:
    """Queue id (upper) -> MW of the county's active projects in the newest report."""
    newest = conn.execute("SELECT max(report_id) FROM queue_reports").fetchone()[0]
    rows = conn.execute(
        "SELECT upper(project_id), capacity_mw FROM queue_history WHERE report_id = ? "
        "AND county_fips = ? AND status = 'active'",
        (newest, fips),
    ).fetchall()
    return dict(rows)


def test_each_county_lists_a_few_and_counts_every_project(demo_with_db, near):
    client, conn = demo_with_db
    paged = 0
    for county in near["counties"]:
        queue, page = county["queue"], county["queue"]["lists"]["projects"]
        rows = active_in_newest(conn, county["countyFips"])
        assert queue["activeProjects"] == page["total"] == len(rows)
        assert queue["activeMw"] == pytest.approx(sum(mw for mw in rows.values() if mw > 0))
        assert len(queue["projects"]) == page["listed"] == min(LIMIT, len(rows))
        every = every_listed(client, queue["projects"], page, ALPHA)
        keys = [p["projectId"].upper() for p in every]
        assert len(keys) == len(set(keys)) and set(keys) == set(rows)
        assert keys == sorted(keys)  # the listed ones are the first page of the same order
        paged += page["nextCursor"] is not None
    assert paged > 0
    total = sum(c["queue"]["lists"]["projects"]["total"] for c in near["counties"])
    assert near["queueNow"]["activeProjects"] == total


def test_each_change_list_lists_a_few_and_pages_the_rest(demo_with_db, near):
    client, _ = demo_with_db
    changes = near["changes"]
    for name in ("entered", "left", "changed"):
        page = changes["lists"][name]
        assert page["total"] == changes["counts"][name] > LIMIT
        assert len(changes[name]) == LIMIT and page["nextCursor"]
        every = every_listed(client, changes[name], page, ALPHA)
        keys = [p["projectId"].upper() for p in every]
        assert len(set(keys)) == len(keys) == changes["counts"][name]


def test_a_page_size_of_one_walks_the_same_list(demo_with_db, site_id, near):
    client, _ = demo_with_db
    page = near["changes"]["lists"]["left"]
    url, found, cursor = httpx.URL(page["href"]), [], None
    while True:
        params = {"limit": 1, **({"cursor": cursor} if cursor else {})}
        body = client.get(str(url.copy_merge_params(params)), headers=ALPHA).json()
        found += body["data"]
        cursor = body["meta"]["nextCursor"]
        if cursor is None:
            break
    assert [p["projectId"] for p in found[:LIMIT]] == [
        p["projectId"] for p in near["changes"]["left"]
    ]
    assert len(found) == page["total"]


def test_listed_projects_link_to_their_queue_record(demo_with_db, near):
    _, conn = demo_with_db
    linked = 0
    for county in near["counties"]:
        for project in county["queue"]["projects"]:
            record_id = project["recordId"]
            if record_id is None:
                continue
            body = json.loads(
                conn.execute(
                    "SELECT body FROM queue_records WHERE id = ?", (record_id,)
                ).fetchone()[0]
            )
            assert body["recordKey"].upper() == project["projectId"].upper()
            assert body["market"].upper() == near["market"].upper()
            linked += 1
    assert linked > 0


def test_the_pages_refuse_what_they_cannot_answer(demo_with_db, site_id, near):
    client, _ = demo_with_db
    path = f"/v1/sites/{site_id}/surroundings/projects"
    cases = [
        ({"list": "nearby"}, ALPHA, 400, "invalid_parameter"),
        ({"list": "entered"}, BETA, 404, "site_not_found"),
        (
            {"list": "left", "cursor": near["changes"]["lists"]["entered"]["nextCursor"]},
            ALPHA,
            400,
            "cursor_filter_mismatch",
        ),
    ]
    for params, headers, status, code in cases:
        response = client.get(path, params=params, headers=headers)
        assert response.status_code == status, (params, response.text)
        assert response.json()["code"] == code


def read_all(client, href: str) -> list[dict]:
    """Return every project at a list's `href`, page after page from the start."""
    url, found, cursor = httpx.URL(href), [], None
    while True:
        params = {"cursor": cursor} if cursor else {}
        response = client.get(str(url.copy_merge_params(params)), headers=ALPHA)
        assert response.status_code == 200, response.text
        found += response.json()["data"]
        cursor = response.json()["meta"]["nextCursor"]
        if cursor is None:
            return found


def test_the_assessment_lists_a_few_and_counts_and_finds_on_every_project(
    demo_with_db, site_id, monkeypatch
):
    client, conn = demo_with_db
    monkeypatch.setattr(surroundings_lists, "LIST_LIMIT", LIMIT)
    response = client.post(
        f"/v1/sites/{site_id}/assessments",
        headers={**ALPHA, "Idempotency-Key": "surround-lists-assess-0001"},
    )
    assert response.status_code == 201, response.text
    assessment = response.json()["data"]
    history = assessment["queueHistory"]
    rows = active_in_newest(conn, history["countyFips"])
    assert history["activeProjects"] == history["lists"]["projects"]["total"] == len(rows) > LIMIT
    assert len(history["projects"]) == history["lists"]["projects"]["listed"] == LIMIT
    # The href is relative to the site: the blinded packet carrying it names no site.
    site_path = f"/v1/sites/{site_id}/"
    assert history["lists"]["projects"]["href"].startswith("surroundings/projects?")
    every = read_all(client, site_path + history["lists"]["projects"]["href"])
    assert sorted(p["projectId"].upper() for p in every) == sorted(rows)
    assert [p["projectId"] for p in every[:LIMIT]] == [p["projectId"] for p in history["projects"]]
    changes = history["changes"]
    finding = next(
        f["finding"]
        for f in assessment["readiness"]["findings"]
        if f["factor"] == "queue_congestion"
    )
    counts = changes["counts"]
    assert f"{counts['entered']} entered, {counts['left']} left" in finding
    for name in ("entered", "left", "changed"):
        page = changes["lists"][name]
        assert page["total"] == counts[name] and page["listed"] == len(changes[name])
        assert page["nextCursor"] is None  # a kept assessment holds no expiring cursor
        every = read_all(client, site_path + page["href"])
        assert len({p["projectId"] for p in every}) == counts[name]
    export = client.post(
        f"/v1/assessments/{assessment['id']}/exports",
        json={"format": "csv"},
        headers={**ALPHA, "Idempotency-Key": "surround-lists-export-0001"},
    ).json()["data"]
    total = history["lists"]["projects"]["total"]
    assert f"queue_history,projects,listed,{LIMIT} of {total}; every one at" in export["content"]


def check_record_ids(conn) -> None:
    """The record ids a store finds for Hays and Travis County queue ids are the records
    whose recordKey (any case) is that id, the first by id; none is missed."""
    keys = sorted(
        {
            r[0].upper()
            for r in conn.execute(
                "SELECT project_id FROM queue_history WHERE county IN ('Hays', 'Travis')"
            ).fetchall()
        }
    )
    found = screening_reads.queue_record_ids(conn, "ERCOT", {"TX": {"Hays", "Travis"}}, keys)
    expected: dict[str, str] = {}
    rows = conn.execute(
        "SELECT id, body FROM queue_records WHERE state = 'TX' "
        "AND county IN ('Hays', 'Travis', 'Hays County', 'Travis County') ORDER BY id"
    ).fetchall()
    for record_id, body in rows:
        record = json.loads(body)
        key = str(record.get("recordKey") or "").upper()
        if key in keys and str(record.get("market")).upper() == "ERCOT":
            expected.setdefault(key, record_id)
    assert found == expected and len(found) > 10


def test_record_ids_on_sqlite(demo_with_db):
    check_record_ids(demo_with_db[1])


def test_record_ids_on_postgresql(postgres_cluster, postgres_demo_template):
    conn = db.connect(postgres_cluster.new_database(template=postgres_demo_template))
    try:
        check_record_ids(conn)
    finally:
        conn.close()
