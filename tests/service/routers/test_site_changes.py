"""What changed near a site since its assessment, over the demo store (seeded site screened on an
older queue release): counts recomputed with plain SQL over `queue_history`, restated facts,
stale and foreign `since`, tenant isolation."""

from __future__ import annotations

import json

from service_calls import create_assessment

from gridservice.demo.portfolio import SCREENED_ON_MONTH, SEEDED_SITE_ID

ALPHA = {"Authorization": "Bearer gds_demo_alpha"}
BETA = {"Authorization": "Bearer gds_demo_beta"}


def changes(client, site_id, headers=ALPHA, **params):
    return client.get(f"/v1/sites/{site_id}/changes", params=params, headers=headers)


def listed(client, headers=ALPHA) -> dict[str, dict]:
    response = client.get(
        "/v1/sites", params={"include": "latest_assessment", "limit": 500}, headers=headers
    )
    assert response.status_code == 200, response.text
    return {s["id"]: s for s in response.json()["data"]}


def active_projects(conn, report_id: str, fips: list[str]) -> set[str]:
    marks = ",".join("?" * len(fips))
    rows = conn.execute(
        f"SELECT upper(project_id) FROM queue_history WHERE report_id = ? AND status = 'active' "
        f"AND county_fips IN ({marks})",
        [report_id, *fips],
    )
    return {r[0] for r in rows}


def test_the_seeded_site_is_marked_changed_out_of_the_box(demo_with_db):
    client, _ = demo_with_db
    seeded = listed(client)[SEEDED_SITE_ID]
    newest = seeded["newerDataSinceAssessment"]
    assert newest["changed"] is True
    months = [
        r[0] for r in demo_with_db[1].execute("SELECT report_month FROM queue_reports ORDER BY 1")
    ]
    assert newest["newerQueueReport"] == months[-1] > SCREENED_ON_MONTH
    history = seeded["latestAssessment"]["queueHistory"]
    assert history["report"]["reportMonth"] == SCREENED_ON_MONTH


def test_changes_count_what_sql_over_the_reports_says(demo_with_db):
    client, conn = demo_with_db
    response = changes(client, SEEDED_SITE_ID)
    assert response.status_code == 200, response.text
    body = response.json()["data"]
    queue = body["queue"]
    assert body["changedSinceAssessment"] is True
    assert body["since"]["isLatest"] is True
    assert queue["from"]["reportMonth"] == SCREENED_ON_MONTH
    fips = [c["countyFips"] for c in queue["counties"]]
    before = active_projects(conn, queue["from"]["reportId"], fips)
    after = active_projects(conn, queue["to"]["reportId"], fips)
    assert {p["projectId"].upper() for p in queue["entered"]} == after - before
    assert {p["projectId"].upper() for p in queue["left"]} == before - after
    assert queue["counts"]["entered"] + queue["counts"]["left"] + queue["counts"]["changed"] > 0
    for project in queue["changed"]:
        assert project["projectId"].upper() in before & after
        assert all(
            c["fromCell"]["reportId"] == queue["from"]["reportId"] for c in project["changes"]
        )


def test_screening_again_keeps_the_old_assessment_and_clears_the_mark(demo_with_db):
    client, _ = demo_with_db
    old = listed(client)[SEEDED_SITE_ID]["latestAssessment"]["id"]
    new = create_assessment(client, ALPHA, SEEDED_SITE_ID, "rescreen-seeded-0001")
    assessments = client.get(f"/v1/sites/{SEEDED_SITE_ID}/assessments", headers=ALPHA).json()
    assert {old, new["id"]} <= {a["id"] for a in assessments["data"]}
    now = changes(client, SEEDED_SITE_ID).json()["data"]
    assert now["since"]["assessmentId"] == new["id"]
    assert now["changedSinceAssessment"] is False
    assert now["queue"]["counts"]["entered"] == now["queue"]["counts"]["left"] == 0
    assert listed(client)[SEEDED_SITE_ID]["newerDataSinceAssessment"]["changed"] is False
    # Asked since the old one, the changes are still there.
    since_old = changes(client, SEEDED_SITE_ID, since=old).json()["data"]
    assert since_old["changedSinceAssessment"] is True
    assert since_old["since"]["isLatest"] is False
    assert since_old["since"]["latestAssessmentId"] == new["id"]


def test_a_fact_restated_after_the_assessment_is_listed(demo_with_db):
    client, conn = demo_with_db
    site = client.post(
        "/v1/sites",
        json={"requestedPeakLoadMw": 80.0, "location": {"latitude": 30.0, "longitude": -97.9}},
        headers={**ALPHA, "Idempotency-Key": "restated-site-0001"},
    ).json()["data"]
    assessment = create_assessment(client, ALPHA, site["id"], "restated-asm-0001")
    signal = next(s for s in assessment["marketSignals"] if s["knownTo"] is None)
    restated = {**signal, "id": signal["id"] + "-restated", "value": signal["value"] + 1000.0}
    restated["knownFrom"] = "2099-01-01T00:00:00Z"
    kind, period, valid_from, valid_to = conn.execute(
        "SELECT kind, period, valid_from, valid_to FROM facts WHERE id = ?", (signal["id"],)
    ).fetchone()
    with conn:
        conn.execute(
            "INSERT INTO facts(id, kind, market, period, valid_from, valid_to, known_from, body) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (restated["id"], kind, signal["market"], period, valid_from, valid_to,
             restated["knownFrom"], json.dumps(restated)),
        )  # fmt: skip
    try:
        body = changes(client, site["id"]).json()["data"]
        found = [f for f in body["facts"] if f["after"]["id"] == restated["id"]]
        assert len(found) == 1 and found[0]["change"] == "restated"
        assert found[0]["before"]["value"] == signal["value"]
        assert found[0]["after"]["value"] == signal["value"] + 1000.0
        assert body["changedSinceAssessment"] is True
        assert listed(client)[site["id"]]["newerDataSinceAssessment"]["factsKnownSince"] >= 1
    finally:
        with conn:
            conn.execute("DELETE FROM facts WHERE id = ?", (restated["id"],))


def problem_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["code"] == code
    return problem


def test_an_unknown_since_is_a_problem_naming_the_parameter(demo_with_db):
    client, _ = demo_with_db
    problem = problem_of(changes(client, SEEDED_SITE_ID, since="asm_nope"), 404, "since_not_found")
    assert problem["errors"][0]["field"] == "since"


def test_a_since_whose_report_is_no_longer_held_says_why(demo_with_db):
    client, conn = demo_with_db
    body = json.loads(
        conn.execute(
            "SELECT body FROM assessments WHERE site_id = ? ORDER BY created_at LIMIT 1",
            (SEEDED_SITE_ID,),
        ).fetchone()[0]
    )
    body["id"] = "asm_replaced_report"
    body["queueHistory"]["report"]["reportId"] = "ercot-gis-1999-01"
    with conn:
        conn.execute(
            "INSERT INTO assessments(id, tenant_id, site_id, created_at, body) VALUES (?,?,?,?,?)",
            (body["id"], "demo-alpha", SEEDED_SITE_ID, "2000-01-01T00:00:00Z", json.dumps(body)),
        )
    problem = problem_of(
        changes(client, SEEDED_SITE_ID, since=body["id"]), 409, "since_report_not_held"
    )
    assert "ercot-gis-1999-01" in problem["detail"] and "no longer holds" in problem["detail"]


def test_another_tenants_site_and_assessment_leak_nothing(demo_with_db):
    client, _ = demo_with_db
    foreign = problem_of(changes(client, SEEDED_SITE_ID, headers=BETA), 404, "site_not_found")
    assert "for this tenant" in foreign["detail"]
    made_up = problem_of(changes(client, "site_nope", headers=BETA), 404, "site_not_found")
    assert {k: v for k, v in foreign.items() if k not in ("detail", "instance", "requestId")} == {
        k: v for k, v in made_up.items() if k not in ("detail", "instance", "requestId")
    }
    beta_site = client.post(
        "/v1/sites",
        json={"requestedPeakLoadMw": 10.0, "location": {"latitude": 30.0, "longitude": -97.9}},
        headers={**BETA, "Idempotency-Key": "beta-site-changes-0001"},
    ).json()["data"]
    alpha_assessment = listed(client)[SEEDED_SITE_ID]["latestAssessment"]["id"]
    refused = changes(client, beta_site["id"], headers=BETA, since=alpha_assessment)
    problem_of(refused, 404, "since_not_found")
    assert SEEDED_SITE_ID not in refused.text and "demo-alpha" not in refused.text
    assert SEEDED_SITE_ID not in listed(client, BETA)
