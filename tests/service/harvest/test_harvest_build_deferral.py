"""A build holds ERCOT's queue records and statusNow back (`harvest.held`): what it leaves
must be what harvesting the same files one by one leaves.

Three real monthly GIS workbooks and, as the newest, a copy of the last whose County column
was renamed (rejected: the previous month's records must stay) are built into one store
with `build_from_dir` and harvested file by file with `run_harvest` into another, both over
a copy of the run's counties store. Every table is compared by content (rows sorted, no
rowids), and so are the runs and the quality report.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from broken_workbooks import break_county_column
from harvest_support import DATA, counties_store

from gridservice.catalogue.quality import compute_quality
from gridservice.harvest import _base, census, runner
from gridservice.harvest._base import Asset, HarvestError
from gridservice.store import history_store

pytestmark = pytest.mark.slow

ARCHIVE = "ercot_gis_queue_monthly_archive"
MONTHS = ("GIS_Report_January_2019.xlsx", "GIS_Report_February_2019.xlsx")
NEWEST_READ = "GIS_Report_March_2019.xlsx"
BROKEN = "GIS_Report_April_2019_renamed_column.xlsx"
HARVESTED_AT = "2026-01-02T03:04:05Z"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """The three workbooks (symlinked) and the broken copy of the newest as a fourth month."""
    if not all((DATA / ARCHIVE / name).is_file() for name in (*MONTHS, NEWEST_READ)):
        pytest.skip(f"shared data files not present: {ARCHIVE} (looked in {DATA.resolve()})")
    folder = tmp_path_factory.mktemp("months")
    for name in (*MONTHS, NEWEST_READ):
        (folder / name).symlink_to(DATA / ARCHIVE / name)
    break_county_column(DATA / ARCHIVE / NEWEST_READ, folder / BROKEN)
    return folder


@pytest.fixture(scope="module")
def stores(folder, census_counties_store, tmp_path_factory):
    """(built, harvested one by one): the same files, the same clock."""
    patch = pytest.MonkeyPatch()
    patch.setattr(_base, "utc_now", lambda: HARVESTED_AT)
    work = tmp_path_factory.mktemp("stores")
    built = counties_store(census_counties_store, work / "built.db")
    one_by_one = counties_store(census_counties_store, work / "one_by_one.db")
    try:
        runner.build_from_dir(built, folder)
        _harvest_one_by_one(one_by_one, folder)
        yield built, one_by_one
    finally:
        patch.undo()
        built.close()
        one_by_one.close()


def _harvest_one_by_one(
    conn: sqlite3.Connection, folder: Path, names: tuple[str, ...] = (*MONTHS, NEWEST_READ, BROKEN)
) -> None:
    """Harvest the build's files in the build's order, each in its own `run_harvest`; a file
    that cannot be read gets the rejected run the build records for it."""
    runner.run_harvest(conn, "census-counties", census.default_path())
    for name in names:
        try:
            runner.run_harvest(conn, "ercot-gis", folder / name)
        except HarvestError as exc:
            runner._rejected_run(conn, runner.SOURCES["ercot-gis"], folder / name, str(exc))


def _tables(conn: sqlite3.Connection) -> dict[str, list[tuple]]:
    """Return every table's rows, sorted (so rowids and insertion order do not count)."""
    names = [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    return {
        name: sorted((tuple(r) for r in conn.execute(f'SELECT * FROM "{name}"')), key=repr)
        for name in names
    }


def test_a_build_leaves_what_harvesting_one_by_one_leaves(stores):
    built, one_by_one = stores
    expected = _tables(one_by_one)
    found = _tables(built)
    assert found.keys() == expected.keys()
    differing = [name for name in expected if found[name] != expected[name]]
    assert differing == []


def test_the_rejected_newest_keeps_the_previous_months_records(stores):
    built, _ = stores
    files = {
        r[0]
        for r in built.execute(
            "SELECT DISTINCT json_extract(body, '$.sourceLocator') FROM queue_records"
        )
    }
    assert {locator.split("#")[0] for locator in files} == {NEWEST_READ}
    runs = [r["sourceId"] for r in runner.harvest_store.harvest_runs(built)]
    assert runs.count("ercot_gis_report") == 4


def test_the_quality_report_is_the_same(stores):
    built, one_by_one = stores
    assert compute_quality(built, generated_at=HARVESTED_AT) == compute_quality(
        one_by_one, generated_at=HARVESTED_AT
    )


def test_a_workbook_rolled_back_after_its_history_keeps_the_held_records(
    folder, census_counties_store, tmp_path, monkeypatch
):
    """The newest workbook fails after its history month is written (inside its
    transaction): the build must hold the previous month's records, not the failed one's."""
    months = tmp_path / "months"
    months.mkdir()
    for name in MONTHS:
        (months / name).symlink_to(folder / name)
    failing = Asset.from_path(months / MONTHS[-1]).sha256
    link = history_store.link_reports_to_run

    def link_or_fail(conn, sha256, run_id):
        link(conn, sha256, run_id)
        if sha256 == failing:
            raise HarvestError(f"{MONTHS[-1]}: failed after its history was written")

    monkeypatch.setattr(runner.history_store, "link_reports_to_run", link_or_fail)
    monkeypatch.setattr(_base, "utc_now", lambda: HARVESTED_AT)
    built = counties_store(census_counties_store, tmp_path / "built.db")
    one_by_one = counties_store(census_counties_store, tmp_path / "one_by_one.db")
    runner.build_from_dir(built, months)
    _harvest_one_by_one(one_by_one, months, MONTHS)
    locators = {
        r[0].split("#")[0]
        for r in built.execute("SELECT json_extract(body, '$.sourceLocator') FROM queue_records")
    }
    assert locators == {MONTHS[0]}
    assert _tables(built) == _tables(one_by_one)
