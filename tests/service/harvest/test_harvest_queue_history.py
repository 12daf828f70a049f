"""The queue's monthly history harvested from ERCOT GIS workbooks and the history extract.

Every expected figure is computed here from the published files themselves (calamine on
the workbooks: `published_sheets`, the csv module on the extract and the per-sheet CSVs),
never copied from the harvester's output.
"""

from __future__ import annotations

import csv
import hashlib
import re
from collections import Counter, defaultdict

import pytest
from harvest_support import data_file, fresh_store
from published_sheets import workbook_sheets

from gridservice.harvest import run_harvest
from gridservice.store import writer

DEC_2023 = "ercot_gis_queue_monthly_2024/GIS_Report_December_2023.xlsx"
NOV_2024 = "ercot_gis_queue/GIS_Report_November2024.xlsx"
NOV_2025 = "ercot_gis_queue/GIS_Report_November2025.xlsx"
EXTRACT = "ercot_gis_queue/ercot_gis_monthly_history_Dec2024_Nov2025.csv"
INDEX = "ercot_gis_queue/ercot_gis_monthly_reports_index.csv"
CENTROIDS = "us_counties/us_counties_cb2016_fips_centroids.csv"
PROJECT_SHEETS = ("Project Details - Large Gen", "Project Details - Small Gen")
INR = re.compile(r"^\d{2}INR\d{4}")


def texas_counties(conn) -> None:
    """Load the Texas county names and FIPS (a point box each: names are what matter here)."""
    with data_file(CENTROIDS).open(newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["statefp"] == "48"]
    writer.insert_counties(
        conn,
        [
            {
                "county_fips": r["geoid"], "state_fips": "48", "state": "TX", "name": r["name"],
                "min_lon": float(r["centroid_lon"]), "min_lat": float(r["centroid_lat"]),
                "max_lon": float(r["centroid_lon"]), "max_lat": float(r["centroid_lat"]),
                "geojson": '{"type":"Point","coordinates":[0,0]}',
            }
            for r in rows
        ],
    )  # fmt: skip
    conn.commit()


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Three workbooks and the extract, harvested into one store with Texas counties."""
    conn = fresh_store(tmp_path_factory.mktemp("history") / "store.db")
    texas_counties(conn)
    runs = {}
    for relative in (DEC_2023, NOV_2024, NOV_2025):
        runs[relative] = run_harvest(conn, "ercot-gis", data_file(relative)).run
    runs[EXTRACT] = run_harvest(conn, "ercot-gis-history", data_file(EXTRACT)).run
    yield conn, runs
    conn.close()


def workbook_projects(relative: str) -> list[dict]:
    """Every 'Project Details' row with an INR, read straight from the workbook."""
    sheets = workbook_sheets(data_file(relative), lambda name: name in PROJECT_SHEETS)
    rows = []
    for sheet in PROJECT_SHEETS:
        header = None
        for number, row in enumerate(sheets[sheet], 1):
            if header is None and row and row[0] == "INR":
                header = {name: i for i, name in enumerate(row) if isinstance(name, str)}
            elif header and row and isinstance(row[0], str) and INR.match(row[0]):
                rows.append({
                    "inr": row[0].strip(), "sheet": sheet, "row": number,
                    "county": row[header["County"]], "mw": row[header["Capacity (MW)"]],
                })  # fmt: skip
    return rows


def extract_rows(month_report: str) -> list[dict]:
    with data_file(EXTRACT).open(newline="") as handle:
        return [r for r in csv.DictReader(handle) if r["report"] == month_report]


def sheet_csv(kind: str, month: str) -> list[dict]:
    with data_file(f"ercot_gis_queue/ercot_gis_{kind}_{month}.csv").open(newline="") as handle:
        return list(csv.DictReader(handle))


def stored_by_county(conn, report_id: str) -> dict[str, tuple[int, float]]:
    rows = conn.execute(
        "SELECT county, count(*), round(sum(capacity_mw), 2) FROM queue_history "
        "WHERE report_id = ? AND status = 'active' GROUP BY county COLLATE BINARY",
        (report_id,),
    ).fetchall()
    return {r[0]: (r[1], r[2]) for r in rows}


def expected_by_county(rows: list[dict], county: str, mw: str) -> dict[str, tuple[int, float]]:
    counts: Counter = Counter()
    totals: dict[str, float] = defaultdict(float)
    for r in rows:
        counts[r[county]] += 1
        totals[r[county]] += float(r[mw])
    return {c: (counts[c], round(totals[c], 2)) for c in counts}


def test_each_report_month_is_held_once_with_its_file_hash_date_and_run(store):
    conn, runs = store
    reports = {
        r[0]: r[1:]
        for r in conn.execute(
            "SELECT report_month, file_name, sha256, report_date, run_id, sheets FROM queue_reports"
        )
    }
    with data_file(INDEX).open(newline="") as handle:
        extract_months = len(list(csv.DictReader(handle))) - 1  # November 2025 is a workbook
    assert len(reports) == 2 + extract_months + 1
    name, sha, date, run_id, sheets = reports["2025-11"]
    assert name == "GIS_Report_November2025.xlsx"
    assert sha == hashlib.sha256(data_file(NOV_2025).read_bytes()).hexdigest()
    assert date == "2025-12-01"  # "Time of Report Run: Dec 1, 2025 8:00:40 AM"
    assert run_id == runs[NOV_2025]["runId"]
    assert sheets == "large_gen,small_gen,inactive,cancellation,commissioning"
    assert reports["2023-12"][0] == "GIS_Report_December_2023.xlsx"
    name, sha, date, run_id, sheets = reports["2025-06"]
    assert name == "ercot_gis_monthly_history_Dec2024_Nov2025.csv"
    assert sha == hashlib.sha256(data_file(EXTRACT).read_bytes()).hexdigest()
    assert (date, run_id, sheets) == ("2025-07-01", runs[EXTRACT]["runId"], "large_gen,small_gen")


@pytest.mark.parametrize(
    ("report_id", "relative"),
    [("ercot-gis-2023-12", DEC_2023), ("ercot-gis-2025-11", NOV_2025)],
)
def test_active_count_and_mw_per_county_match_the_workbook(store, report_id, relative):
    conn, _ = store
    expected = expected_by_county(workbook_projects(relative), "county", "mw")
    assert stored_by_county(conn, report_id) == expected
    assert sum(n for n, _ in expected.values()) > 1400


def test_active_count_and_mw_per_county_match_the_extract(store):
    conn, _ = store
    rows = extract_rows("GIS_Report_June2025.xlsx")
    expected = expected_by_county(rows, "county", "capacity_mw")
    assert stored_by_county(conn, "ercot-gis-2025-06") == expected
    # The extract keeps no financial-security date and no POI text: NULL, never a guess.
    missing = conn.execute(
        "SELECT count(*), count(security_ntp), count(poi_location) FROM queue_history "
        "WHERE report_id = 'ercot-gis-2025-06'"
    ).fetchone()
    assert tuple(missing) == (len(rows), 0, 0)


def test_entered_and_left_between_november_2024_and_november_2025(store):
    conn, _ = store

    def published(month: str) -> set[str]:
        return {
            r["inr"].strip().lower()
            for kind in ("large_gen", "small_gen")
            for r in sheet_csv(kind, month)
        }

    def stored(report_id: str) -> set[str]:
        return {
            r[0].lower()
            for r in conn.execute(
                "SELECT project_id FROM queue_history WHERE report_id = ? AND status = 'active'",
                (report_id,),
            )
        }

    before, after = published("November2024"), published("November2025")
    entered = stored("ercot-gis-2025-11") - stored("ercot-gis-2024-11")
    left = stored("ercot-gis-2024-11") - stored("ercot-gis-2025-11")
    assert entered == after - before and left == before - after
    assert entered and left


def test_event_sheets_keep_each_row_its_date_mw_and_locator(store):
    conn, _ = store
    for kind, sheet, status, date_column in [
        ("inactive", "Inactive Projects", "inactive", "inactive_date"),
        ("cancellation", "Cancellation Update", "cancelled", "cancel_date"),
    ]:
        expected = {
            (r["inr"], int(r["source_row"]), r[date_column][:10], float(r["mw"]))
            for r in sheet_csv(kind, "November2025")
        }
        stored = set(
            conn.execute(
                "SELECT project_id, row, event_date, capacity_mw FROM queue_history "
                "WHERE report_id = 'ercot-gis-2025-11' AND sheet = ? AND status = ? "
                "AND worksheet = ?",
                (kind, status, sheet),
            ).fetchall()
        )
        assert {tuple(r) for r in stored} == expected, kind


def test_commissioning_keeps_every_milestone_a_project_passed_in_the_month(store):
    conn, _ = store
    published = Counter(
        r["commissioning_category"] for r in sheet_csv("commissioning", "November2025")
    )
    stored = dict(
        conn.execute(
            "SELECT milestone, count(*) FROM queue_history "
            "WHERE report_id = 'ercot-gis-2025-11' AND sheet = 'commissioning' GROUP BY 1"
        ).fetchall()
    )
    by_word = {"Energization": "energization", "Synchronization": "synchronization",
               "Commercial Operation": "commercial_operation"}  # fmt: skip
    assert stored == {
        milestone: sum(n for category, n in published.items() if category.startswith(word))
        for word, milestone in by_word.items()
    }


def test_every_row_locator_points_at_its_source_row(store):
    conn, _ = store
    sample = conn.execute(
        "SELECT worksheet, row, project_id FROM queue_history "
        "WHERE report_id = 'ercot-gis-2025-11' ORDER BY random() LIMIT 40"
    ).fetchall()
    # The sampled sheets are read once (a row read on its own reads the sheet up to it).
    sheets = workbook_sheets(data_file(NOV_2025), lambda name: name in {s for s, _, _ in sample})
    for worksheet, row, project_id in sample:
        cells = sheets[worksheet][row - 1]
        assert project_id in [str(c).strip() for c in cells if c], (worksheet, row)
    with data_file(EXTRACT).open(newline="") as handle:
        lines = {n: r for n, r in enumerate(csv.DictReader(handle), 2)}
    for line, project_id, upstream in conn.execute(
        "SELECT row, project_id, upstream_locator FROM queue_history "
        "WHERE worksheet = 'csv' ORDER BY random() LIMIT 40"
    ):
        published = lines[line]
        assert published["inr"] == project_id
        assert (
            upstream == f"{published['report']}#{published['worksheet']}!R{published['source_row']}"
        )


def test_the_extract_leaves_a_month_held_from_its_workbook_alone(store):
    conn, runs = store
    run = runs[EXTRACT]
    november = extract_rows("GIS_Report_November2025.xlsx")
    assert run["supersededMonths"] == ["2025-11"]
    assert run["supersededRecords"] == len(november)
    with data_file(EXTRACT).open(newline="") as handle:
        assert run["inputRecords"] == sum(1 for _ in csv.DictReader(handle)) - len(november)
    files = {
        r[0] for r in conn.execute(
            "SELECT DISTINCT file_name FROM queue_history WHERE report_id = 'ercot-gis-2025-11'"
        )
    }  # fmt: skip
    assert files == {"GIS_Report_November2025.xlsx"}


def test_a_workbook_harvested_after_the_extract_replaces_its_month(tmp_path):
    conn = fresh_store(tmp_path / "store.db")
    run_harvest(conn, "ercot-gis-history", data_file(EXTRACT))
    extract_count = conn.execute(
        "SELECT count(*) FROM queue_history WHERE report_id = 'ercot-gis-2025-11'"
    ).fetchone()[0]
    assert extract_count == len(extract_rows("GIS_Report_November2025.xlsx"))
    run_harvest(conn, "ercot-gis", data_file(NOV_2025))
    rows = conn.execute(
        "SELECT file_name, count(*) FROM queue_history WHERE report_id = 'ercot-gis-2025-11' "
        "GROUP BY 1"
    ).fetchall()
    assert [r[0] for r in rows] == ["GIS_Report_November2025.xlsx"]


def test_county_names_resolve_to_texas_fips(store):
    conn, _ = store
    unresolved = conn.execute(
        "SELECT DISTINCT county FROM queue_history WHERE county_fips IS NULL"
    ).fetchall()
    assert unresolved == []
    travis = conn.execute(
        "SELECT DISTINCT county_fips FROM queue_history WHERE county = 'Travis'"
    ).fetchall()
    assert [r[0] for r in travis] == ["48453"]


def test_the_data_as_of_date_is_the_newest_report_not_the_build_day(store):
    from gridservice.store.screening_reads import data_as_of

    conn, _ = store
    # "Time of Report Run: Dec 1, 2025" on the November 2025 workbook's Contents sheet.
    assert data_as_of(conn) == "2025-12-01"


def test_quality_report_lists_the_months_and_what_the_extract_lacks(store):
    from gridservice.catalogue.quality import compute_quality

    conn, runs = store
    quality = compute_quality(conn)
    reports = {r["reportMonth"]: r for r in quality["queueHistory"]["reports"]}
    november = reports["2025-11"]
    assert (november["inactive"], november["cancelled"]) == (
        len(sheet_csv("inactive", "November2025")),
        len(sheet_csv("cancellation", "November2025")),
    )
    assert november["missing"] == [] and november["runId"] == runs[NOV_2025]["runId"]
    june = reports["2025-06"]
    assert june["active"] == len(extract_rows("GIS_Report_June2025.xlsx"))
    assert "security_ntp" in june["missing"] and "inactive sheet" in june["missing"]
    # The extract has no event sheets: their counts are unknown, not zero.
    assert (june["inactive"], june["cancelled"], june["commissioned"]) == (None, None, None)
    datasets = {d["dataset"]: d for d in quality["datasets"]}
    assert datasets["queue_history"]["status"] == "held"
    assert "key-column extract" in datasets["queue_history"]["note"]
    for missing in ("transmission_projects", "docket_filings"):
        assert datasets[missing]["status"] == "missing" and datasets[missing]["rows"] == 0
        assert datasets[missing]["note"]


def test_poi_texts_become_points_linked_to_each_active_row(store):
    import json

    from gridservice.catalogue.quality import compute_quality

    conn, _ = store
    published = [
        r["poi_location"]
        for kind in ("large_gen", "small_gen")
        for r in sheet_csv(kind, "November2025")
        if r["poi_location"].strip()
    ]
    links = conn.execute(
        "SELECT count(*) FROM interconnection_point_projects WHERE report_id = 'ercot-gis-2025-11'"
    ).fetchone()[0]
    assert links == len(published)
    points = conn.execute(
        "SELECT kind, bus_number, from_bus_number, to_bus_number, raw, quality_flags "
        "FROM interconnection_points"
    ).fetchall()
    for kind, bus, from_bus, to_bus, raw, flags in points:
        numbers = {int(n) for n in re.findall(r"\d+", raw)}
        if kind == "bus":
            assert bus in numbers, raw
        elif kind == "tap":
            assert {from_bus, to_bus} <= numbers, raw
        else:
            assert [f["code"] for f in json.loads(flags)] == ["unparsedPointOfInterconnection"]
    counts = compute_quality(conn)["queueHistory"]["interconnectionPoints"]
    assert counts["unparsed"] == sum(1 for p in points if p[0] == "unparsed") > 0
    assert counts["bus"] + counts["tap"] > 8 * counts["unparsed"]


def test_the_release_snapshot_covers_the_queue_history(tmp_path):
    from gridservice.store.meta_reads import data_snapshot_sha256

    conn = fresh_store(tmp_path / "store.db")
    run_harvest(conn, "ercot-gis-history", data_file(EXTRACT))
    before = data_snapshot_sha256(conn)
    conn.execute("UPDATE queue_history SET capacity_mw = capacity_mw + 1 WHERE rowid = 1")
    conn.commit()
    assert data_snapshot_sha256(conn) != before


FIRST_HISTORY_SCHEMA = """
CREATE TABLE queue_reports (report_id TEXT PRIMARY KEY, market TEXT NOT NULL,
    report_month TEXT NOT NULL, report_date TEXT, file_name TEXT NOT NULL,
    sha256 TEXT NOT NULL, run_id TEXT, UNIQUE (market, report_month));
CREATE TABLE queue_history (report_id TEXT NOT NULL, project_id TEXT NOT NULL,
    sheet TEXT NOT NULL, status TEXT NOT NULL, file_name TEXT NOT NULL, worksheet TEXT NOT NULL,
    row INTEGER NOT NULL, project_name TEXT, county TEXT, county_fips TEXT, fuel TEXT,
    technology TEXT, capacity_mw REAL, study_phase TEXT, projected_cod TEXT, ia_signed TEXT,
    security_ntp TEXT, event_date TEXT, poi_location TEXT,
    PRIMARY KEY (report_id, project_id, sheet));
CREATE TABLE interconnection_points (point_id TEXT PRIMARY KEY, kind TEXT NOT NULL, kv REAL,
    bus_number INTEGER, bus_name TEXT, from_bus_number INTEGER, from_bus_name TEXT,
    to_bus_number INTEGER, to_bus_name TEXT, circuit TEXT, raw TEXT NOT NULL);
CREATE TABLE interconnection_point_projects (point_id TEXT NOT NULL, project_id TEXT NOT NULL,
    county_fips TEXT, report_id TEXT NOT NULL, file_name TEXT NOT NULL, worksheet TEXT NOT NULL,
    row INTEGER NOT NULL, PRIMARY KEY (point_id, project_id, report_id));
"""


@pytest.mark.parametrize("filled", [False, True])
def test_a_store_with_the_first_history_tables_is_brought_up_to_date(tmp_path, filled):
    import sqlite3

    from gridservice.store import db

    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.executescript(FIRST_HISTORY_SCHEMA)
    if filled:
        old.execute(
            "INSERT INTO queue_reports VALUES ('demo-2025-01', 'DEMO', '2025-01', NULL, 'f', 's', NULL)"
        )
    old.commit()
    old.close()
    conn = fresh_store(path)  # what every command does when it opens a store
    columns = {r[1] for r in conn.execute("PRAGMA table_info(queue_history)")}
    assert {"milestone", "upstream_locator"} <= columns
    assert db.meta_reads.data_snapshot_sha256(conn)  # reads every history column
    reports = conn.execute("SELECT report_id, sheets FROM queue_reports").fetchall()
    assert [tuple(r) for r in reports] == ([("demo-2025-01", "")] if filled else [])
    conn.close()
