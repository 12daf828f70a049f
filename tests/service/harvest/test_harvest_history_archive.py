"""Seven years of ERCOT GIS reports (Dec 2018 - Nov 2025) built into one store.

Every expected figure is read here from the published files (the index CSV, calamine on
the workbooks: `published_sheets`), never copied from the harvester's output. The build
runs once per module, and each workbook is read once for the expectations.
"""

from __future__ import annotations

import csv
import hashlib
import re
from functools import cache

import pytest
from broken_workbooks import break_county_column
from completion_expected import entry_durations, lifelines_median, outcome_counts, project_words
from harvest_support import DATA, counties_store
from published_sheets import workbook_sheets

from gridservice.harvest import runner
from gridservice.screening import queue_change
from gridservice.screening.completion import queue_completion
from gridservice.store import surroundings_reads

pytestmark = pytest.mark.slow

FOLDERS = ("ercot_gis_queue", "ercot_gis_queue_monthly_2024", "ercot_gis_queue_monthly_archive")
INDEX = "ercot_gis_queue_monthly_archive/ercot_gis_monthly_reports_index_Dec2018_Oct2025.csv"
MONTH = re.compile(r"GIS_Report_([A-Za-z]+)_?(\d{4})")
NAMES = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
]  # fmt: skip
BROKEN = "GIS_Report_renamed_column.xlsx"
INR = re.compile(r"^\d{2}INR\d{4}")
ECTOR = "48135"


def _month(name: str) -> str:
    found = MONTH.match(name)
    return f"{found[2]}-{NAMES.index(found[1].lower()) + 1:02d}"


def _workbooks() -> list:
    if not (DATA / INDEX).is_file():
        pytest.skip(f"shared data file not present: {INDEX} (looked in {DATA.resolve()})")
    return sorted(p for folder in FOLDERS for p in (DATA / folder).glob("GIS_Report_*.xlsx"))


def _standing() -> dict[str, object]:
    """Month -> the workbook that stands for it: the index's last re-issue, else the one."""
    with (DATA / INDEX).open(newline="") as handle:
        reissues = {r["file_name"] for r in csv.DictReader(handle) if r["is_reissue"] == "yes"}
    by_month: dict[str, list] = {}
    for path in _workbooks():
        by_month.setdefault(_month(path.name), []).append(path)
    return {
        month: max((p for p in paths if p.name in reissues), default=paths[0], key=lambda p: p.name)
        for month, paths in by_month.items()
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory, census_counties_store):
    """Every GIS workbook and a broken copy of one, built as `gridservice build` does (over
    a copy of the run's counties store: the build finds its outlines already there)."""
    folder = tmp_path_factory.mktemp("archive")
    for path in _workbooks():
        (folder / path.name).symlink_to(path)
    break_county_column(DATA / FOLDERS[2] / "GIS_Report_December_2018.xlsx", folder / BROKEN)
    conn = counties_store(census_counties_store, folder.parent / "archive.db")
    results = runner.build_from_dir(conn, folder)
    yield conn, {r.path.name: r.run for r in results}
    conn.close()


def test_every_month_is_read_and_reissues_supersede(built):
    conn, runs = built
    standing = _standing()
    held = dict(conn.execute("SELECT report_month, file_name FROM queue_reports").fetchall())
    assert held == {month: path.name for month, path in standing.items()}
    assert len(held) == 84
    superseded = {name: run["supersededBy"] for name, run in runs.items() if "supersededBy" in run}
    expected = {
        p.name: standing[_month(p.name)].name
        for p in _workbooks()
        if p.name != standing[_month(p.name)].name
    }
    assert superseded == expected
    assert len(superseded) == 6


def test_a_broken_workbook_is_rejected_with_its_reason(built):
    _, runs = built
    run = runs[BROKEN]
    assert run["rejectedAsset"]
    assert "'County'" in run["rejections"][0]["reasons"][0]
    assert not any(r.get("rejectedAsset") for name, r in runs.items() if name != BROKEN)


def _sheet_rows(path) -> list[dict]:
    """Every project row of a workbook, read by the header's own names (first header row)."""
    rows = []
    sheets = workbook_sheets(path, lambda name: name.startswith("Project Details"))
    for sheet, cells in sheets.items():
        header = None
        for number, row in enumerate(cells, 1):
            if header is None and row and row[0] == "INR":
                header = {str(v).strip(): i for i, v in enumerate(row) if v is not None}
            elif header and row and isinstance(row[0], str) and INR.match(row[0]):
                phase = header.get("GIM Study Phase", header.get("GINR Study Phase"))
                rows.append({
                    "project_id": row[0].strip(), "worksheet": sheet, "row": number,
                    "project_name": row[header["Project Name"]], "county": row[header["County"]],
                    "capacity_mw": row[header["Capacity (MW)"]], "fuel": row[header["Fuel"]],
                    "technology": row[header["Technology"]],
                    "study_phase": None if phase is None else row[phase], "poi_location": row[header["POI Location"]],
                })  # fmt: skip
    return rows


@pytest.mark.parametrize("month", ["2019-06", "2021-06", "2023-06", "2025-06"])
def test_rows_of_each_era_match_the_workbook_cells(built, month):
    conn, _ = built
    path = _standing()[month]
    published = _sheet_rows(path)
    sample = [published[0], published[len(published) // 2], published[-1]]
    columns = [*sample[0]]
    for expected in sample:
        held = conn.execute(
            f"SELECT {', '.join(columns)} FROM queue_history h JOIN queue_reports r "
            "USING (report_id) WHERE r.report_month = ? AND h.worksheet = ? AND h.row = ?",
            (month, expected["worksheet"], expected["row"]),
        ).fetchone()
        got = dict(zip(columns, held, strict=True))
        for column in ("project_name", "county", "study_phase", "poi_location", "technology"):
            value = expected[column]
            expected[column] = None if value is None else " ".join(str(value).split()) or None
        assert got == expected
    sha = conn.execute(
        "SELECT sha256 FROM queue_reports WHERE report_month = ?", (month,)
    ).fetchone()[0]
    assert sha == hashlib.sha256(path.read_bytes()).hexdigest()


def _event_status(sheet: str) -> str | None:
    """Return the status an event sheet's rows give their projects, None for other sheets."""
    if "Project Details" in sheet:
        return None
    marks = (("Inactive", "inactive"), ("Cancel", "cancelled"), ("Commissioning", "commissioned"))
    return next((status for mark, status in marks if mark in sheet), None)


@cache  # every workbook's event sheets are read once per module
def _newest_words() -> dict[str, tuple[str, str]]:
    """INR -> (month, status) of the newest event sheet row naming it, read from every
    standing workbook (COD approvals only count as commissioned; a tie goes to the later
    step: inactive, cancelled, commissioned)."""
    step = {"inactive": 0, "cancelled": 1, "commissioned": 2}
    words: dict[str, tuple[str, int]] = {}
    for month, path in _standing().items():
        for sheet, cells in workbook_sheets(
            path, lambda name: _event_status(name) is not None
        ).items():
            status = _event_status(sheet)
            for row in cells:
                inr = next((v.strip() for v in row if isinstance(v, str) and INR.match(v)), None)
                if inr is None:
                    continue
                if status == "commissioned" and not str(row[0]).lower().startswith("commercial"):
                    continue
                word = (month, step[status])
                words[inr.upper()] = max(words.get(inr.upper(), word), word)
    names = {v: k for k, v in step.items()}
    return {inr: (month, names[i]) for inr, (month, i) in words.items()}


def test_ector_counts_each_project_once_by_its_final_outcome(built):
    conn, _ = built
    reports = surroundings_reads.queue_reports(conn)
    active = conn.execute(
        "SELECT upper(h.project_id), min(r.report_month), max(r.report_month) FROM queue_history "
        "h JOIN queue_reports r USING (report_id) WHERE h.status = 'active' GROUP BY 1"
    ).fetchall()
    # The rates' cohort: every project a report queues in the county (see dropout_rates).
    queued_here = {
        key
        for (key,) in conn.execute(
            "SELECT DISTINCT upper(project_id) FROM queue_history WHERE status = 'active' "
            "AND county_fips = ?",
            (ECTOR,),
        )
    }
    words = _newest_words()
    expected = {"projects": 0, "wentInactive": 0, "cancelled": 0, "commissioned": 0}
    for key, first, _ in active:
        if key not in queued_here:
            continue
        expected["projects"] += 1
        month, status = words.get(key, (None, None))
        if month is not None and month >= first:
            expected[{"inactive": "wentInactive"}.get(status, status)] += 1
    rates = queue_change.dropout_rates(conn, reports, [ECTOR], {ECTOR: "Ector"})
    (county,) = rates["byCounty"]
    assert {k: county[k] for k in expected} == expected
    assert county["droppedOut"] == county["wentInactive"] + county["cancelled"]


def test_a_project_that_moved_county_did_not_leave_it(built):
    conn, _ = built
    reports = surroundings_reads.queue_reports(conn)
    moved = {"27INR0385", "27INR0386"}
    held = conn.execute(
        "SELECT r.report_month, upper(h.project_id), h.county_fips FROM queue_history h JOIN "
        "queue_reports r USING (report_id) WHERE upper(h.project_id) IN (?, ?) "
        "AND h.status = 'active' ORDER BY 1",
        sorted(moved),
    ).fetchall()
    in_ector = [m for m, _, fips in held if fips == ECTOR]
    assert in_ector, "the reports list these projects in Ector in some month"
    first = next(r for r in reports if r["report_month"] == min(in_ector))
    last = reports[-1]
    changes = queue_change.queue_changes(conn, reports, first, last, [ECTOR])
    assert moved.isdisjoint(p["projectId"].upper() for p in changes["left"])
    assert any(fips != ECTOR for m, _, fips in held if m == last["report_month"])


def test_ector_completion_and_months_to_operation_follow_the_reports(built):
    conn, _ = built
    data = queue_completion(conn, county=ECTOR)
    words = project_words(conn, {ECTOR})
    counts = {k: v["count"] for k, v in data["all"].items() if isinstance(v, dict) and v["count"]}
    assert counts == dict(outcome_counts(words))
    # Every project the service says ended by an event sheet ended so in the workbooks.
    published = _newest_words()
    ended = {"reachedOperation": {"commissioned"}, "droppedOut": {"inactive", "cancelled"}}
    for project in data["projects"]:
        if project["outcome"] in ended:
            assert published[project["projectId"].upper()][1] in ended[project["outcome"]]
    window = data["window"]
    durations = entry_durations(words, window["firstMonth"], window["lastMonth"])
    assert data["timeToOperation"]["entry"]["medianMonths"] == lifelines_median(durations)
    # The largest cohort whose entry year the reports give.
    cohort = max(
        (c for c in data["byCohort"] if c["cohort"].isdigit()), key=lambda c: c["projects"]
    )
    keys = [k for k, p in words.items() if p["first"][:4] == cohort["cohort"]]
    cohort_counts = {k: v["count"] for k, v in cohort.items() if isinstance(v, dict) and v["count"]}
    assert cohort_counts == dict(outcome_counts(words, keys))


@cache  # every workbook's project sheets are read once per module
def _newest_project_rows() -> dict[tuple[str, str], dict]:
    """(INR, county in upper case) -> the project's newest row there on the project sheets of
    the standing workbooks (newest month; in a month, the large-generation sheet first)."""
    newest: dict[tuple[str, str], tuple] = {}
    for month, path in _standing().items():
        for row in _sheet_rows(path):
            key = (row["project_id"].upper(), str(row["county"]).strip().upper())
            rank = (month, "Small Gen" not in row["worksheet"])
            if key not in newest or rank > newest[key][0]:
                newest[key] = (rank, row)
    return {key: row for key, (_, row) in newest.items()}


def _is_battery(row: dict) -> bool:
    """A battery by the workbook's own codes (sheet "Acronyms": BA = Battery Energy Storage):
    fuel OTH with technology BA, or fuel BAT in the months that code it so."""
    fuel, technology = (str(row[k] or "").strip().upper() for k in ("fuel", "technology"))
    return fuel == "BAT" or (fuel == "OTH" and technology == "BA")


# Brazoria and Harris: the most batteries queued; their newest rows name them by both codes.
BATTERY_COUNTIES = {"48039": "BRAZORIA", "48201": "HARRIS"}


def test_batteries_are_one_fuel_in_completion_and_dropout_rates(built):
    conn, _ = built
    reports = surroundings_reads.queue_reports(conn)
    codes = set()
    for fips, name in BATTERY_COUNTIES.items():
        newest = {
            inr: row for (inr, county), row in _newest_project_rows().items() if county == name
        }
        batteries = {inr for inr, row in newest.items() if _is_battery(row)}
        codes |= {str(newest[inr]["fuel"]).strip() for inr in batteries}
        words = project_words(conn, {fips})
        assert set(words) == set(newest)
        expected = outcome_counts(words, batteries)

        data = queue_completion(conn, county=fips)
        (group,) = (g for g in data["byFuel"] if g["fuel"] == "BAT")
        counts = {k: v["count"] for k, v in group.items() if isinstance(v, dict) and v["count"]}
        assert counts == dict(expected)
        assert {p["projectId"].upper() for p in data["projects"] if p["fuel"] == "BAT"} == batteries
        # The dropout rates group the same projects by the same fuel.
        rates = queue_change.dropout_rates(conn, reports, [fips], {fips: name})
        (rate,) = (g for g in rates["byFuel"] if g["fuel"] == "BAT")
        assert rate["projects"] == len(batteries)
    assert codes == {"OTH", "BAT"}
