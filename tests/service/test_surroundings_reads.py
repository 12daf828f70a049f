"""The surroundings' narrow reads answer as the row-by-row path they replaced.

Dropout rates were computed in Python from every row of every harvested report in the
counties; the database now hands back one row per project. The reference below is that
earlier computation, kept here so the figures a user sees are checked to be unchanged on
the demo store, with a few rows added for the cases the rule turns on (a project inactive
before it was ever queued, a project listed in two spellings of its id, a project queued
on both generation sheets).
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from gridservice.demo import DEMO_POINTS, build_demo_database
from gridservice.screening.queue_change import OUTCOME_ORDER, _rate_entry, dropout_rates
from gridservice.screening.surroundings import _market_reports
from gridservice.screening.territory import county_index
from gridservice.store import db, surroundings_reads


@pytest.fixture(scope="module")
def demo_conn(tmp_path_factory):
    conn = db.connect(tmp_path_factory.mktemp("surroundings-reads") / "demo.db")
    db.init_schema(conn)
    build_demo_database(conn)
    _add_edge_cases(conn)
    yield conn
    conn.close()


def _add_edge_cases(conn) -> None:
    reports = [r[0] for r in conn.execute("SELECT report_id FROM queue_reports ORDER BY 1")]
    fips = conn.execute(
        "SELECT county_fips FROM queue_history GROUP BY county_fips ORDER BY count(*) DESC"
    ).fetchone()[0]

    def row(report, project, sheet, status, fuel="Solar"):
        conn.execute(
            "INSERT INTO queue_history (report_id, project_id, sheet, status, file_name, "
            "worksheet, row, county_fips, fuel, capacity_mw) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (report, project, sheet, status, "edge.xlsx", sheet, 9000, fips, fuel, 50.0),
        )

    with conn:
        # Inactive before it was first queued: that early listing is not a dropout.
        row(reports[0], "EDGE-1", "inactive", "inactive")
        row(reports[2], "EDGE-1", "large_gen", "active")
        # Queued under one spelling, cancelled under another: one project, dropped out.
        row(reports[1], "edge-2", "small_gen", "active", fuel="Wind")
        row(reports[3], "EDGE-2", "cancellation", "cancelled", fuel="Wind")
        # On both sheets in its last month: the large-gen row names its fuel.
        row(reports[4], "EDGE-3", "small_gen", "active", fuel="Gas")
        row(reports[4], "EDGE-3", "large_gen", "active", fuel="Storage")
        row(reports[5], "EDGE-3", "inactive", "inactive")


def reference_dropout(conn, reports, fips, names):
    """The earlier computation: every row of every report in the counties, grouped here."""
    months = {r["report_id"]: r["report_month"] for r in reports}
    rows = surroundings_reads.history_rows(conn, list(months), fips)
    by_project = defaultdict(list)
    for row in rows:
        by_project[row["project_id"].upper()].append(row)
    outcomes = []
    for project_rows in by_project.values():
        active = [r for r in project_rows if r["status"] == "active"]
        if not active:
            continue
        first = min(months[r["report_id"]] for r in active)
        last = max(active, key=lambda r: (months[r["report_id"]], r["sheet"] == "large_gen"))
        later = {r["status"] for r in project_rows if months[r["report_id"]] >= first} - {"active"}
        outcomes.append({"row": last, **{s: s in later for s in OUTCOME_ORDER}})
    by_fuel, by_county = defaultdict(list), defaultdict(list)
    for outcome in outcomes:
        by_fuel[outcome["row"]["fuel"] or "unknown"].append(outcome)
        by_county[outcome["row"]["county_fips"]].append(outcome)
    return {
        "all": _rate_entry(outcomes),
        "byFuel": [{"fuel": f, **_rate_entry(g)} for f, g in sorted(by_fuel.items())],
        "byCounty": [
            {"countyFips": f, "county": names.get(f), **_rate_entry(g)}
            for f, g in sorted(by_county.items())
        ],
    }


@pytest.mark.parametrize("point", ["dual_certified", "single_territory", "unserved"])
@pytest.mark.parametrize("radius", [0.0, 40.0, 150.0])
def test_dropout_rates_match_the_row_by_row_computation(demo_conn, point, radius):
    latitude, longitude = DEMO_POINTS[point]
    within = county_index(demo_conn).counties_within(latitude, longitude, radius)
    fips = [c["county_fips"] for c, _ in within]
    names = {c["county_fips"]: c["name"] for c, _ in within}
    reports = _market_reports(demo_conn, surroundings_reads.queue_reports(demo_conn), fips)
    got = dropout_rates(demo_conn, reports, fips, names)
    expected = reference_dropout(demo_conn, reports, fips, names)
    assert {k: got[k] for k in expected} == expected
    assert got["all"]["projects"] > 0


def test_the_edge_cases_count_as_the_rule_says(demo_conn):
    fips = [
        demo_conn.execute(
            "SELECT county_fips FROM queue_history WHERE project_id = 'EDGE-1'"
        ).fetchone()[0]
    ]
    reports = surroundings_reads.queue_reports(demo_conn)
    rows = {
        r["project_key"]: r
        for r in surroundings_reads.project_outcome_rows(
            demo_conn, [r["report_id"] for r in reports], fips
        )
    }
    months = [r["report_month"] for r in sorted(reports, key=lambda r: r["report_id"])]
    assert rows["EDGE-1"]["first_active"] == months[2]
    assert rows["EDGE-1"]["last_inactive"] < rows["EDGE-1"]["first_active"]  # not a dropout
    assert rows["EDGE-2"]["last_cancelled"] == months[3] and rows["EDGE-2"]["fuel"] == "Wind"
    assert rows["EDGE-3"]["fuel"] == "Storage"
    rates = dropout_rates(demo_conn, reports, fips, {})
    assert rates == {**rates, **reference_dropout(demo_conn, reports, fips, {})}


def test_dropout_rates_on_postgresql_match_the_row_by_row_computation(
    postgres_cluster, postgres_demo_template
):
    conn = db.connect(postgres_cluster.new_database(template=postgres_demo_template))
    try:
        latitude, longitude = DEMO_POINTS["dual_certified"]
        within = county_index(conn).counties_within(latitude, longitude, 150.0)
        fips = [c["county_fips"] for c, _ in within]
        reports = surroundings_reads.queue_reports(conn)
        got = dropout_rates(conn, reports, fips, {})
        expected = reference_dropout(conn, reports, fips, {})
        assert expected["all"]["projects"] > 0
        assert {k: got[k] for k in expected} == expected
    finally:
        conn.close()
