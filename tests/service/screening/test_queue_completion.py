"""Queue completion over the demo store: outcomes, cohorts and curves worked out here from
the store's own rows (completion_expected), the survival curves against lifelines."""

from __future__ import annotations

import pytest
from completion_expected import entry_durations, lifelines_median, outcome_counts, project_words
from demo_store import demo_store_copy
from sqlite_steps import vm_steps

from gridservice.demo import DEMO_POINTS
from gridservice.screening import screen_site
from gridservice.screening.completion import queue_completion
from gridservice.screening.outcomes import mw
from gridservice.screening.survival import kaplan_meier
from gridservice.store import db

ALPHA = {"Authorization": "Bearer gds_demo_alpha"}
PATH = "/v1/queue-history/completion"
HAYS = DEMO_POINTS["dual_certified"]


def _completion(client, **params) -> dict:
    response = client.get(PATH, params=params, headers=ALPHA)
    assert response.status_code == 200, response.text
    return response.json()["data"]


@pytest.fixture(scope="module")
def busiest_county(demo_with_db) -> str:
    """The county the demo queues the most projects in."""
    _, conn = demo_with_db
    return conn.execute(
        "SELECT county_fips FROM queue_history WHERE status = 'active' AND county_fips IS NOT "
        "NULL GROUP BY county_fips ORDER BY count(DISTINCT project_id) DESC LIMIT 1"
    ).fetchone()[0]


def _counts(group: dict) -> dict[str, int]:
    return {k: v["count"] for k, v in group.items() if isinstance(v, dict) and v["count"]}


def test_a_county_counts_each_project_once_by_its_final_word(demo_with_db, busiest_county):
    client, conn = demo_with_db
    data = _completion(client, county=busiest_county)
    words = project_words(conn, {busiest_county})
    assert _counts(data["all"]) == dict(outcome_counts(words))
    assert data["all"]["projects"] == len(words)
    listed = {p for v in data["all"].values() if isinstance(v, dict) for p in v["projectIds"]}
    assert {p.upper() for p in listed} == set(words)


def test_each_cohort_counts_the_projects_that_entered_that_year(demo_with_db, busiest_county):
    client, conn = demo_with_db
    data = _completion(client, county=busiest_county)
    words = project_words(conn, {busiest_county})
    first = data["window"]["firstMonth"]
    by_year: dict[str, list[str]] = {}
    for key, project in words.items():
        cohort = project["first"][:4] if project["first"] > first else f"by {first}"
        by_year.setdefault(cohort, []).append(key)
    assert [c["cohort"] for c in data["byCohort"]] == sorted(by_year)
    for group in data["byCohort"]:
        assert _counts(group) == dict(outcome_counts(words, by_year[group["cohort"]]))


@pytest.mark.slow  # importing lifelines (pandas, scipy) takes seconds
def test_a_radius_median_from_entry_matches_lifelines(demo_with_db):
    client, conn = demo_with_db
    data = _completion(client, latitude=HAYS[0], longitude=HAYS[1], radius_km=150)
    words = project_words(conn, set(data["place"]["countyFips"]))
    window = data["window"]
    durations = entry_durations(words, window["firstMonth"], window["lastMonth"])
    curve = data["timeToOperation"]["entry"]
    assert (curve["projects"], curve["reachedOperation"]) == (
        len(durations),
        sum(e for _, e in durations),
    )
    assert curve["medianMonths"] == lifelines_median(durations)


@pytest.mark.slow  # importing lifelines (pandas, scipy) takes seconds
def test_the_product_limit_estimate_matches_lifelines():
    from lifelines import KaplanMeierFitter  # deferred: pandas and scipy take seconds

    durations = [(m % 37, m % 3 == 0) for m in range(0, 400, 7)]
    steps = kaplan_meier(durations)
    fitted = KaplanMeierFitter().fit([d for d, _ in durations], [e for _, e in durations])
    expected = fitted.survival_function_["KM_estimate"]
    for step in steps:
        assert step["notYetOperating"] == pytest.approx(expected.loc[step["months"]], abs=1e-6)


def test_batteries_are_one_fuel_whatever_code_the_report_used(demo_with_db, busiest_county):
    client, conn = demo_with_db
    data = _completion(client, latitude=HAYS[0], longitude=HAYS[1], radius_km=150)
    batteries = {p["projectId"] for p in data["projects"] if p["fuel"] == "BAT"}
    stored = {
        key
        for (key,) in conn.execute(
            "SELECT DISTINCT project_id FROM queue_history WHERE status = 'active' "
            "AND technology = 'BA'"
        )
    }
    assert batteries and batteries <= stored
    assert "OTH" not in {p["fuel"] for p in data["projects"] if p["projectId"] in stored}
    assert "BAT" in {g["fuel"] for g in data["byFuel"]}


def test_neither_a_county_nor_a_point_is_a_problem(demo_with_db):
    client, _ = demo_with_db
    response = client.get(PATH, params={}, headers=ALPHA)
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "invalid_parameter"


def test_postgresql_answers_as_sqlite_does(
    demo_with_db, busiest_county, postgres_cluster, postgres_demo_template
):
    conn = db.connect(postgres_cluster.new_database(template=postgres_demo_template))
    try:
        on_postgres = queue_completion(conn, county=busiest_county)
    finally:
        conn.close()
    on_sqlite = _completion(demo_with_db[0], county=busiest_county)
    assert on_postgres == on_sqlite


def test_queued_mw_is_weighted_by_completion_of_the_same_fuel_and_phase(demo_with_db):
    client, _ = demo_with_db
    data = _completion(client, latitude=HAYS[0], longitude=HAYS[1], radius_km=150)
    likely = data["likelyToBuild"]
    assert likely["label"] == "heuristic" and "not a forecast" in likely["basis"]
    projects = {p["projectId"]: p for p in data["projects"]}
    weighted = 0.0
    for group in likely["byGroup"]:
        alike = [
            p
            for p in data["projects"]
            if p["fuel"] == group["fuel"]
            and p["outcome"] not in ("stillQueued",)
            and (group["shareBasis"] == "fuel" or p["phaseReached"] == group["phase"])
        ]
        if group["shareBasis"] != "too_few_ended":
            built = sum(1 for p in alike if p["outcome"] == "reachedOperation")
            assert group["completionShare"] == pytest.approx(built / len(alike), abs=1e-4)
            queued = sum(projects[i]["capacityMw"] or 0 for i in group["projectIds"])
            weighted += queued * built / len(alike)
        assert all(projects[i]["outcome"] == "stillQueued" for i in group["projectIds"])
    assert likely["weightedMw"] == pytest.approx(weighted, abs=0.1 * len(likely["byGroup"]))
    assert 0 < likely["weightedMw"] < likely["queuedMw"]


def test_synchronised_and_past_cod_projects_still_queued_are_flagged(demo_with_db, busiest_county):
    client, conn = demo_with_db
    newest = conn.execute(
        "SELECT max(report_month), max(report_date) FROM queue_reports"
    ).fetchone()
    queued = conn.execute(
        "SELECT h.project_id, h.projected_cod, h.report_id, h.file_name FROM queue_history h "
        "JOIN queue_reports r ON r.report_id = h.report_id WHERE r.report_month = ? AND "
        "h.status = 'active' AND h.county_fips = ? ORDER BY h.project_id",
        (newest[0], busiest_county),
    ).fetchall()
    # The demo approves none for synchronisation: one queued project gets that approval.
    project_id, _, report_id, file_name = queued[0]
    conn.execute(
        "INSERT INTO queue_history (report_id, project_id, sheet, status, file_name, worksheet, "
        "row, milestone) VALUES (?, ?, 'commissioning', 'commissioned', ?, "
        "'Commissioning Update', 99, 'synchronization')",
        (report_id, project_id, file_name),
    )
    conn.commit()
    likely = _completion(client, county=busiest_county)["likelyToBuild"]
    assert likely["synchronisedStillQueued"]["projectIds"] == [project_id]
    past = [p for p, cod, *_ in queued if cod and cod < likely["asOf"]]
    assert likely["projectedCodPast"]["projectIds"] == past


def test_the_assessment_times_the_queue_by_the_county_history(demo_with_db, tmp_path):
    client, _ = demo_with_db
    conn = db.connect(demo_store_copy(tmp_path / "demo.db"))
    try:
        site = {
            "id": "site_completion",
            "requestedPeakLoadMw": 300.0,
            "targetInServiceDate": "2028-01-01",
            "location": {"latitude": HAYS[0], "longitude": HAYS[1]},
        }
        assessment = screen_site(
            conn, site, assessment_id="asm_completion", tenant_id="demo-alpha",
            created_at="2025-11-01T00:00:00Z",
        )  # fmt: skip
    finally:
        conn.close()
    history = assessment["queueHistory"]
    whole = _completion(client, county=history["countyFips"])
    completion = history["completion"]
    assert completion["stillQueued"] == whole["all"]["stillQueued"]["count"]
    entry = whole["timeToOperation"]["entry"]
    assert completion["timeToOperation"]["entry"]["medianMonths"] == entry["medianMonths"]
    findings = {f["factor"]: f["finding"] for f in assessment["readiness"]["findings"]}
    if entry["medianMonths"] is None:
        assert f"{entry['projects']} projects measured from entry" in findings["timeline"]
    else:
        assert f"median of {entry['medianMonths']} months from entering" in findings["timeline"]
    likely = whole["likelyToBuild"]
    if likely["unweightedMw"] >= likely["queuedMw"]:
        assert "Too few of the county's projects" in findings["queue_congestion"]
    else:
        assert f"would build about {mw(likely['weightedMw'])}" in findings["queue_congestion"]
    if likely["projectedCodPast"]["projects"]:
        past = likely["projectedCodPast"]
        assert f"({mw(past['mw'])}) have a projected COD before" in findings["queue_congestion"]


def test_a_radius_reads_the_kept_paths_and_sees_new_history_at_once(tmp_path):
    """A radius's projects come from paths kept per store edition: 500 more projects in it
    leave the database's work for an answer as it was (it ranked every month of every
    project in the radius), and the very next answer counts them."""
    conn = db.connect(demo_store_copy(tmp_path / "demo.db"))

    def ask() -> dict:
        return queue_completion(conn, latitude=HAYS[0], longitude=HAYS[1], radius_km=150)

    before = ask()
    before_steps = vm_steps(conn, ask)
    newest = conn.execute(
        "SELECT report_id FROM queue_reports WHERE market = ? ORDER BY report_month DESC",
        (before["market"],),
    ).fetchone()[0]
    county = before["place"]["countyFips"][0]
    with conn:
        conn.executemany(
            "INSERT INTO queue_history (report_id, project_id, sheet, status, file_name, "
            "worksheet, row, county_fips, fuel, capacity_mw) VALUES "
            "(?, ?, 'large_gen', 'active', 'edge.xlsx', 'large_gen', ?, ?, 'SOL', 5.0)",
            [(newest, f"EDGE-PATH-{i}", 9200 + i, county) for i in range(500)],
        )
    after = ask()
    after_steps = vm_steps(conn, ask)
    conn.close()
    assert after["all"]["projects"] == before["all"]["projects"] + 500
    assert after["all"]["stillQueued"]["count"] == before["all"]["stillQueued"]["count"] + 500
    assert after_steps <= before_steps + 1, (before_steps, after_steps)
