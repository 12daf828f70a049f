"""The surroundings' summary gives the same dropout rates and interconnection points as the
queue history it summarises, and is never read once the history has changed.

The expected figures are computed here from the raw rows of `queue_history` and
`interconnection_point_projects` with plain Python, on the demo store (scale 1) with a few
rows added for the cases the rules turn on, and compared with the surroundings answered
through the summary and through the history (summary forgotten).
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from demo_store import demo_store_copy
from screening_support import grouped_fuel
from sqlite_steps import vm_steps

from gridservice.demo import DEMO_POINTS
from gridservice.screening.surroundings import site_surroundings
from gridservice.screening.surroundings_lists import LIST_LIMIT, bound_surroundings
from gridservice.screening.territory import county_index
from gridservice.store import db, surroundings_summary

POINTS = ("dual_certified", "single_territory", "unserved")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    conn = db.connect(demo_store_copy(tmp_path_factory.mktemp("surroundings-summary") / "demo.db"))
    _add_edge_cases(conn)
    surroundings_summary.refresh(conn)
    yield conn
    conn.close()


# (report index, project, sheet, fuel, county: 0 the site's, 1 the other), each case a few
# rows: status follows the sheet.
EDGE_ROWS = [
    # Inactive before it was first queued: that early listing is not a dropout.
    (0, "EDGE-1", "inactive", "Solar", 0),
    (2, "EDGE-1", "large_gen", "Solar", 0),
    # Queued under one spelling, cancelled under another: one project, dropped out.
    (1, "edge-2", "small_gen", "Wind", 0),
    (3, "EDGE-2", "cancellation", "Wind", 0),
    # On both sheets in its last month: the large-gen row names its fuel.
    (4, "EDGE-3", "small_gen", "Gas", 0),
    (4, "EDGE-3", "large_gen", "Storage", 0),
    (5, "EDGE-3", "inactive", "Solar", 0),
    # Moved county: queued in one, newest queued in the other, inactive in the first.
    (1, "EDGE-4", "large_gen", "Wind", 1),
    (3, "EDGE-4", "large_gen", "Gas", 0),
    (5, "EDGE-4", "inactive", "Solar", 1),
]
STATUS = {"large_gen": "active", "small_gen": "active", "inactive": "inactive",
          "cancellation": "cancelled"}  # fmt: skip
# (report index from the newest, project, row, county): two projects name a point in the
# newest report (the higher row is cited), one names it in the other county.
EDGE_NAMINGS = [(-1, "EDGE-1", 9001, 0), (-1, "EDGE-3", 9002, 0), (-2, "EDGE-4", 9003, 1)]


def _add_edge_cases(conn) -> None:
    reports = [r[0] for r in conn.execute("SELECT report_id FROM queue_reports ORDER BY 1")]
    # Two counties within 40 km of the dual-certified point, the site's own first.
    latitude, longitude = DEMO_POINTS["dual_certified"]
    within = county_index(conn).counties_within(latitude, longitude, 40.0)
    counties = [county["county_fips"] for county, _ in sorted(within, key=lambda c: c[1])][:2]
    point = conn.execute(
        "SELECT min(point_id) FROM interconnection_points WHERE kind != 'unparsed'"
    ).fetchone()[0]
    with conn:
        conn.executemany(
            "INSERT INTO queue_history (report_id, project_id, sheet, status, file_name, "
            "worksheet, row, county_fips, fuel, capacity_mw) "
            "VALUES (?, ?, ?, ?, 'edge.xlsx', ?, 9000, ?, ?, 50.0)",
            [
                (reports[r], project, sheet, STATUS[sheet], sheet, counties[c], fuel)
                for r, project, sheet, fuel, c in EDGE_ROWS
            ],
        )
        conn.executemany(
            "INSERT INTO interconnection_point_projects (point_id, project_id, county_fips, "
            "report_id, file_name, worksheet, row) VALUES (?, ?, ?, ?, 'edge.xlsx', "
            "'large_gen', ?)",
            [(point, project, counties[c], reports[r], row) for r, project, row, c in EDGE_NAMINGS],
        )


def reference_dropout(conn, fips: list[str]) -> dict:
    """Per fuel and per county: projects, inactive, cancelled, dropped out, commissioned."""
    rows = conn.execute(
        "SELECT h.project_id, h.sheet, h.status, h.county_fips, h.fuel, r.report_month, "
        "h.technology FROM queue_history h JOIN queue_reports r ON r.report_id = h.report_id"
    ).fetchall()
    by_project = defaultdict(list)
    for row in rows:
        if row[3] in fips:
            by_project[row[0].upper()].append(row)
    figures: dict[str, dict] = {"byFuel": {}, "byCounty": {}}
    for project_rows in by_project.values():
        queued = [r for r in project_rows if r[2] == "active"]
        if not queued:
            continue
        first = min(r[5] for r in queued)
        newest = max(queued, key=lambda r: (r[5], r[1] == "large_gen"))
        later = {r[2] for r in project_rows if r[5] >= first}
        counts = [
            1,
            "inactive" in later,
            "cancelled" in later,
            bool(later & {"inactive", "cancelled"}),
            "commissioned" in later,
        ]
        fuel = grouped_fuel(newest[4], newest[6]) or "unknown"
        for group, key in (("byFuel", fuel), ("byCounty", newest[3])):
            total = figures[group].setdefault(key, [0, 0, 0, 0, 0])
            figures[group][key] = [a + b for a, b in zip(total, counts, strict=True)]
    return figures


def answered_dropout(answer: dict) -> dict:
    names = ("projects", "wentInactive", "cancelled", "droppedOut", "commissioned")
    return {
        "byFuel": {e["fuel"]: [e[n] for n in names] for e in answer["dropout"]["byFuel"]},
        "byCounty": {e["countyFips"]: [e[n] for n in names] for e in answer["dropout"]["byCounty"]},
    }


def reference_points(conn, fips: list[str]) -> dict:
    """Per county and point: kV, kind, the projects naming it and the newest naming row."""
    points = {
        r[0]: r for r in conn.execute("SELECT point_id, kind, kv FROM interconnection_points")
    }
    namings = defaultdict(list)
    for row in conn.execute(
        "SELECT point_id, county_fips, report_id, file_name, worksheet, row, project_id "
        "FROM interconnection_point_projects"
    ):
        if row[1] in fips and row[0] in points:
            namings[(row[1], row[0])].append(row)
    expected = {}
    for (county, point_id), rows in namings.items():
        newest = max(rows, key=lambda r: (r[2], r[5], r[4]))
        expected[(county, point_id)] = {
            "kind": points[point_id][1],
            "kv": points[point_id][2],
            "projects": sorted({r[6] for r in rows}),
            "cited": (newest[2], newest[3], newest[4], newest[5]),
        }
    return expected


def answered_points(answer: dict) -> dict:
    got = {}
    for county in answer["counties"]:
        found = county["interconnectionPoints"]
        listed = [p for level in found["byKv"] for p in level["points"]] + found["unparsed"]
        for point in listed:
            source = point["source"]
            got[(county["countyFips"], point["pointId"])] = {
                "kind": point["kind"],
                "kv": point["kv"],
                "projects": sorted(point["projectIds"]),
                "cited": (
                    source["reportId"],
                    source["fileName"],
                    source["worksheet"],
                    source["row"],
                ),
            }
    return got


def surroundings_at(conn, point: str, radius: float) -> dict:
    latitude, longitude = DEMO_POINTS[point]
    site = {"id": "site_x", "location": {"latitude": latitude, "longitude": longitude}}
    return site_surroundings(conn, site, radius_km=radius)


@pytest.mark.parametrize("point", POINTS)
@pytest.mark.parametrize("radius", [0.0, 40.0, 150.0])
def test_summary_and_history_give_the_figures_of_the_raw_rows(store, point, radius):
    assert surroundings_summary.is_current(store)
    through_summary = surroundings_at(store, point, radius)
    with store:
        store.execute("DELETE FROM meta WHERE key = ?", (surroundings_summary.SUMMARY_KEY,))
    try:
        through_history = surroundings_at(store, point, radius)
    finally:
        surroundings_summary.refresh(store)
    fips = [c["countyFips"] for c in through_summary["counties"]]
    expected_dropout = reference_dropout(store, fips)
    expected_points = reference_points(store, fips)
    assert expected_dropout["byFuel"] and expected_points  # figures with something in them
    for answer in (through_summary, through_history):
        assert answered_dropout(answer) == expected_dropout
        assert answered_points(answer) == expected_points
    assert through_summary == through_history


def test_the_edge_cases_count_as_the_rules_say(store):
    answer = surroundings_at(store, "dual_certified", 40.0)
    fips = [c["countyFips"] for c in answer["counties"]]
    # EDGE-4, queued in both counties, is counted once, in its newest queued row's county.
    assert answered_dropout(answer) == reference_dropout(store, fips)
    cited = [
        p["source"]["row"]
        for c in answer["counties"]
        for level in c["interconnectionPoints"]["byKv"]
        for p in level["points"]
        if "EDGE-3" in p["projectIds"]
    ]
    assert cited == [9002]  # the higher of the newest report's two naming rows


def test_a_change_to_the_history_is_answered_at_once_and_summarised_on_refresh(store):
    before = surroundings_at(store, "unserved", 40.0)
    fips = before["counties"][0]["countyFips"]
    report = store.execute("SELECT max(report_id) FROM queue_reports").fetchone()[0]
    with store:
        store.execute(
            "INSERT INTO queue_history (report_id, project_id, sheet, status, file_name, "
            "worksheet, row, county_fips, fuel, capacity_mw) "
            "VALUES (?, 'EDGE-NEW', 'large_gen', 'active', 'edge.xlsx', 'large_gen', 9100, ?, "
            "'Hydrogen', 10.0)",
            (report, fips),
        )
    try:
        assert not surroundings_summary.is_current(store)  # the trigger forgot it
        after = surroundings_at(store, "unserved", 40.0)
        fuels = {e["fuel"]: e["projects"] for e in after["dropout"]["byFuel"]}
        assert fuels["Hydrogen"] == 1
        assert after["dropout"]["all"]["projects"] == before["dropout"]["all"]["projects"] + 1
        assert surroundings_summary.refresh(store)
        assert surroundings_at(store, "unserved", 40.0)["dropout"] == after["dropout"]
    finally:
        with store:
            store.execute("DELETE FROM queue_history WHERE project_id = 'EDGE-NEW'")
        surroundings_summary.refresh(store)


@pytest.fixture
def own_store(tmp_path):
    """A store of this test's own: the step counts below must not depend on which of the
    module's tests ran before it in the same process."""
    conn = db.connect(demo_store_copy(tmp_path / "demo.db"))
    _add_edge_cases(conn)
    surroundings_summary.refresh(conn)
    yield conn
    conn.close()


def test_the_dropout_rates_read_counts_per_county_not_a_row_per_project(own_store):
    """A county's projects queued there alone are counted once, when the summary is built:
    500 more of them leave the work of a site's dropout rates as it was (it read a row per
    project, 7,400 at the dual-certified point at demo scale 100), and are counted."""
    answer = surroundings_at(own_store, "dual_certified", 40.0)
    fips = [c["countyFips"] for c in answer["counties"]]
    reports = [r[0] for r in own_store.execute("SELECT report_id FROM queue_reports ORDER BY 1")]

    def counts():
        return surroundings_summary.outcome_counts(own_store, reports, fips)

    before, before_steps = counts(), vm_steps(own_store, counts)
    with own_store:
        own_store.executemany(
            "INSERT INTO queue_history (report_id, project_id, sheet, status, file_name, "
            "worksheet, row, county_fips, fuel, capacity_mw) "
            "VALUES (?, ?, 'large_gen', 'active', 'edge.xlsx', 'large_gen', ?, ?, 'Solar', 5.0)",
            [(reports[-1], f"EDGE-MANY-{i}", 9200 + i, fips[0]) for i in range(500)],
        )
    try:
        assert surroundings_summary.refresh(own_store)
        after, after_steps = counts(), vm_steps(own_store, counts)
        assert sum(after.values()) == sum(before.values()) + 500
        assert after[("Solar", fips[0], False, False, False)] == (
            before[("Solar", fips[0], False, False, False)] + 500
        )
        assert after_steps <= before_steps + 1, (before_steps, after_steps)
    finally:
        with own_store:
            own_store.execute("DELETE FROM queue_history WHERE project_id LIKE 'EDGE-MANY-%'")
        surroundings_summary.refresh(own_store)


def test_a_read_only_store_answers_from_the_history(store, tmp_path):
    path = tmp_path / "stale.db"
    store.execute("VACUUM INTO ?", (str(path),))
    writable = db.connect(path)
    with writable:
        writable.execute("DELETE FROM meta WHERE key = ?", (surroundings_summary.SUMMARY_KEY,))
    writable.close()
    readonly = db.connect(path, readonly=True)
    try:
        assert surroundings_summary.refresh(readonly) is False
        assert not surroundings_summary.is_current(readonly)
        assert surroundings_at(readonly, "dual_certified", 40.0) == surroundings_at(
            store, "dual_certified", 40.0
        )
    finally:
        readonly.close()


def test_the_summary_on_postgresql_gives_the_figures_of_the_raw_rows(
    postgres_cluster, postgres_demo_template
):
    conn = db.connect(postgres_cluster.new_database(template=postgres_demo_template))
    try:
        surroundings_summary.refresh(conn)
        assert surroundings_summary.is_current(conn)
        answer = surroundings_at(conn, "dual_certified", 150.0)
        fips = [c["countyFips"] for c in answer["counties"]]
        assert answered_dropout(answer) == reference_dropout(conn, fips)
        assert answered_points(answer) == reference_points(conn, fips)
        with conn:
            conn.execute(
                "UPDATE queue_history SET fuel = 'Hydrogen' WHERE project_id = "
                "(SELECT min(project_id) FROM queue_history WHERE status = 'active')"
            )
        assert not surroundings_summary.is_current(conn)  # migration 0009's trigger
    finally:
        conn.close()


@pytest.mark.parametrize("point", POINTS)
def test_an_answer_describing_only_its_listed_projects_is_the_bounded_full_one(store, point):
    latitude, longitude = DEMO_POINTS[point]
    site = {"id": "site_x", "location": {"latitude": latitude, "longitude": longitude}}
    query = {"radius_km": 150.0, "from": None, "to": None}

    def sign(name, county, last_key):
        return f"{name}:{county}:{last_key}"

    full = bound_surroundings(site_surroundings(store, site, radius_km=150.0), query, sign)
    described = site_surroundings(store, site, radius_km=150.0, summaries=LIST_LIMIT)
    assert bound_surroundings(described, query, sign) == full
    totals = [c["queue"]["lists"]["projects"]["total"] for c in full["counties"]]
    totals += [full["changes"]["lists"][name]["total"] for name in ("entered", "left", "changed")]
    assert max(totals) > LIST_LIMIT  # some list is cut
