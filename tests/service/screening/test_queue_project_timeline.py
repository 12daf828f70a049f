"""One project's timeline across the monthly reports (demo store): its rows and its outcome
checked against the store's own rows (completion_expected works the final word out there)."""

from __future__ import annotations

import pytest
from completion_expected import project_words

from gridservice.screening.project_timeline import project_timeline
from gridservice.store import db

ALPHA = {"Authorization": "Bearer gds_demo_alpha"}


def _timeline(client, project_id: str) -> dict:
    response = client.get(f"/v1/queue-history/projects/{project_id}", headers=ALPHA)
    assert response.status_code == 200, response.text
    return response.json()["data"]


@pytest.fixture(scope="module")
def county_words(demo_with_db) -> dict[str, dict]:
    """Each project the demo queues in its busiest county, with its final word and month."""
    _, conn = demo_with_db
    (county,) = conn.execute(
        "SELECT county_fips FROM queue_history WHERE status = 'active' AND county_fips IS NOT "
        "NULL GROUP BY county_fips ORDER BY count(DISTINCT project_id) DESC LIMIT 1"
    ).fetchone()
    return project_words(conn, {county})


def test_every_row_of_the_project_is_listed_oldest_first_with_its_cell(demo_with_db):
    client, conn = demo_with_db
    (project_id,) = conn.execute(
        "SELECT project_id FROM queue_history GROUP BY upper(project_id) "
        "ORDER BY count(DISTINCT status) DESC, count(*) DESC LIMIT 1"
    ).fetchone()
    stored = conn.execute(
        "SELECT r.report_month, h.status, h.file_name, h.worksheet, h.row FROM queue_history h "
        "JOIN queue_reports r ON r.report_id = h.report_id WHERE upper(h.project_id) = ?",
        [project_id.upper()],
    ).fetchall()
    data = _timeline(client, project_id.lower())
    listed = [
        (
            r["month"],
            r["status"],
            r["source"]["fileName"],
            r["source"]["worksheet"],
            r["source"]["row"],
        )
        for r in data["rows"]
    ]
    assert sorted(listed) == sorted(stored)
    assert [r["month"] for r in data["rows"]] == sorted(r[0] for r in stored)
    assert data["monthsListed"] == len({r[0] for r in stored if r[1] == "active"})


def test_the_timeline_ends_as_the_reports_say(demo_with_db, county_words):
    client, _ = demo_with_db
    for key, expected in county_words.items():
        outcome = _timeline(client, key)["outcome"]
        assert (outcome["outcome"], outcome["month"]) == (expected["outcome"], expected["month"])
        assert outcome["source"]["sourceLocator"]


def test_each_change_cites_the_row_that_says_the_new_value(demo_with_db, county_words):
    client, conn = demo_with_db
    checked = 0
    for key in county_words:
        for change in _timeline(client, key)["changes"]:
            column = {"status": "status", "capacityMw": "capacity_mw"}.get(change["field"])
            if column is None:
                continue
            source = change["source"]
            (cited,) = conn.execute(
                f"SELECT {column} FROM queue_history WHERE file_name = ? AND worksheet = ? "
                "AND row = ?",
                [source["fileName"], source["worksheet"], source["row"]],
            ).fetchone()
            assert cited == change["after"] != change["before"]
            checked += 1
    assert checked  # the county's projects changed status or MW at least once


def test_a_project_no_report_lists_is_a_problem(demo_with_db):
    client, _ = demo_with_db
    response = client.get("/v1/queue-history/projects/99INR9999", headers=ALPHA)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "no_queue_history"


def test_postgresql_answers_as_sqlite_does(
    demo_with_db, county_words, postgres_cluster, postgres_demo_template
):
    keys = sorted(county_words)[:5]
    conn = db.connect(postgres_cluster.new_database(template=postgres_demo_template))
    try:
        on_postgres = [project_timeline(conn, key.lower()) for key in keys]
    finally:
        conn.close()
    assert on_postgres == [_timeline(demo_with_db[0], key) for key in keys]
