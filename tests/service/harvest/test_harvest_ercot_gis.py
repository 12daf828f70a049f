"""Harvesting the ERCOT GIS report workbook: queue records traceable to their row."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest
from harvest_support import (
    data_file,
    fresh_store,
    rewrite_xlsx,
    store_snapshot,
    truncated_copy,
)

from gridservice.harvest import HarvestError, run_harvest
from gridservice.store import db, harvest_store

NOV_2025 = "ercot_gis_queue/GIS_Report_November2025.xlsx"
NOV_2024 = "ercot_gis_queue/GIS_Report_November2024.xlsx"
LARGE = "Project Details - Large Gen"
SMALL = "Project Details - Small Gen"


@pytest.fixture(scope="module")
def harvested(tmp_path_factory):
    """A store holding the November 2025 report, and the run that loaded it."""
    conn = fresh_store(tmp_path_factory.mktemp("gis") / "store.db")
    result = run_harvest(conn, "ercot-gis", data_file(NOV_2025))
    yield conn, result
    conn.close()


def _evidence(conn, record_id):
    import json

    row = conn.execute(
        "SELECT body FROM queue_record_evidence WHERE record_id = ?", (record_id,)
    ).fetchone()
    return json.loads(row[0])


def event_rows(month: str) -> int:
    """Rows of the month's Inactive, Cancellation and Commissioning sheets (their CSVs)."""
    import csv

    total = 0
    for kind in ("inactive", "cancellation", "commissioning"):
        with data_file(f"ercot_gis_queue/ercot_gis_{kind}_{month}.csv").open() as handle:
            total += sum(1 for _ in csv.DictReader(handle))
    return total


def test_counts_match_the_workbook_rows(harvested):
    conn, result = harvested
    run = result.run
    # 1,809 large-generator rows (Excel rows 36-1844) and 57 small-generator rows (18-74),
    # and the rows of the event sheets, which become the month's queue history.
    read = 1866 + event_rows("November2025")
    assert (run["inputRecords"], run["acceptedRecords"], run["rejectedRecords"]) == (read, read, 0)
    assert run["rejections"] == []
    assert run["unchangedAsset"] is False
    by_sheet = dict(
        conn.execute(
            "SELECT json_extract(body, '$.locator.worksheet'), count(*) "
            "FROM queue_record_evidence GROUP BY 1"
        ).fetchall()
    )
    assert by_sheet == {LARGE: 1809, SMALL: 57}
    meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    assert meta["data_kind"] == "harvest"


def test_record_carries_provenance_and_every_field(harvested):
    import hashlib
    import json

    conn, result = harvested
    body = json.loads(
        conn.execute("SELECT body FROM queue_records WHERE id = 'ercot-gis-16INR0049'").fetchone()[
            0
        ]
    )
    expected_hash = hashlib.sha256(data_file(NOV_2025).read_bytes()).hexdigest()
    assert body["assetHash"] == expected_hash == result.run["assetHash"]
    assert body["sourceLocator"] == f"GIS_Report_November2025.xlsx#{LARGE}!R37"
    assert (body["market"], body["state"], body["status"]) == ("ERCOT", "TX", "active")
    assert body["projectName"] == "Nazareth Solar"
    assert body["county"] == "Castro"
    assert body["requestedCapacityMw"] == 203.0
    assert body["proposedDate"] == "2027-08-05"
    # "Time of Report Run: Dec 1, 2025 8:00:40 AM" Central time.
    assert body["observedAt"] == "2025-12-01T14:00:40Z"
    documented = {
        "id", "sourceId", "assetHash", "recordKey", "market", "projectName",
        "pointOfInterconnection", "state", "county", "proposedDate", "observedAt",
        "sourceLocator", "evidenceUrl", "status", "requestedCapacityMw", "qualityFlags",
    }  # fmt: skip
    # statusNow and evidence are this service's extensions (the newest source's word on the
    # project; the source's publisher, file, worksheet, row and edition).
    assert set(body) == documented | {"statusNow", "evidence"}
    assert (body["evidence"]["fileName"], body["evidence"]["row"]) == (
        "GIS_Report_November2025.xlsx",
        37,
    )
    assert body["statusNow"]["countsAsActive"] is True
    assert body["statusNow"]["sourceLocator"] == body["sourceLocator"]
    details = json.loads(
        conn.execute(
            "SELECT body FROM queue_record_details WHERE record_id = 'ercot-gis-16INR0049'"
        ).fetchone()[0]
    )
    assert details["evidence"]["authority"] == "official_operator_dataset"
    assert details["interconnectionAgreementDate"] == "2023-06-07"
    assert details["studyPhaseOriginal"] == "SS Completed, FIS Started, IA"
    assert details["studyPhaseNormalized"] == "interconnection_agreement"


@pytest.mark.parametrize(
    "record_id", ["ercot-gis-15INR0064b", "ercot-gis-32INR0003", "ercot-gis-26INR0699"]
)
def test_locator_points_back_at_the_published_row(harvested, record_id):
    conn, _ = harvested
    evidence = _evidence(conn, record_id)
    locator = evidence["locator"]
    assert locator["type"] == "spreadsheet_row"
    assert locator["fileName"] == "GIS_Report_November2025.xlsx"
    workbook = openpyxl.load_workbook(data_file(NOV_2025), read_only=True)
    row = next(
        workbook[locator["worksheet"]].iter_rows(
            min_row=locator["row"], max_row=locator["row"], values_only=True
        )
    )
    workbook.close()
    assert row[0] == evidence["sourceRow"]["INR"] == record_id.removeprefix("ercot-gis-")
    assert str(row[1]) == evidence["sourceRow"]["Project Name"]
    assert float(row[10]) == float(evidence["sourceRow"]["Capacity (MW)"])


def test_same_bytes_again_change_nothing(harvested):
    conn, first = harvested
    before = store_snapshot(conn)
    again = run_harvest(conn, "ercot-gis", data_file(NOV_2025))
    after = store_snapshot(conn)
    assert again.run["unchangedAsset"] is True
    assert again.run["assetHash"] == first.run["assetHash"]
    assert again.run["runId"] != first.run["runId"]
    assert after["bodies"] == before["bodies"] and after["counts"] == before["counts"]
    assert len(harvest_store.harvest_runs(conn)) == 2


def test_new_report_replaces_the_older_one(loaded_store):
    conn = loaded_store
    assert conn.execute("SELECT count(*) FROM queue_records").fetchone()[0] == 1723
    run_harvest(conn, "ercot-gis", data_file(NOV_2025))
    hashes = {
        r[0] for r in conn.execute("SELECT json_extract(body, '$.assetHash') FROM queue_records")
    }
    assert conn.execute("SELECT count(*) FROM queue_records").fetchone()[0] == 1866
    assert len(hashes) == 1  # nothing of the November 2024 report is left behind
    # The 2024 report still listed projects the 2025 one no longer does.
    assert [r["inputRecords"] for r in harvest_store.harvest_runs(conn)] == [
        1723 + event_rows("November2024"),
        1866 + event_rows("November2025"),
    ]


def test_bad_rows_are_rejected_with_locator_and_reason(tmp_path):
    # 16INR0081 (row 38) relabelled as 16INR0049 (row 37): a duplicate key.
    bad = rewrite_xlsx(
        data_file(NOV_2025),
        tmp_path / "GIS_Report_November2025.xlsx",
        "xl/sharedStrings.xml",
        lambda xml: xml.replace("<t>16INR0081</t>", "<t>16INR0049</t>"),
    )
    conn = fresh_store(tmp_path / "store.db")
    run = run_harvest(conn, "ercot-gis", bad).run
    read = 1866 + event_rows("November2025")
    assert (run["inputRecords"], run["acceptedRecords"], run["rejectedRecords"]) == (
        read,
        read - 1,
        1,
    )
    [rejected] = run["rejections"]
    assert rejected["sourceLocator"] == f"GIS_Report_November2025.xlsx#{LARGE}!R38"
    assert rejected["reasons"] == [
        f"duplicate INR 16INR0049 (first at GIS_Report_November2025.xlsx#{LARGE}!R37)"
    ]


@pytest.fixture(scope="module")
def november_2024_store(tmp_path_factory) -> Path:
    """A store holding the November 2024 report, harvested once per module (copy it)."""
    path = tmp_path_factory.mktemp("gis-2024") / "store.db"
    conn = fresh_store(path)
    run_harvest(conn, "ercot-gis", data_file(NOV_2024))
    conn.close()  # the last connection folds the write-ahead log into the file
    return path


@pytest.fixture()
def loaded_store(november_2024_store, tmp_path):
    """A copy of the November 2024 store, for one test to write to."""
    shutil.copyfile(november_2024_store, tmp_path / "store.db")
    conn = db.connect(tmp_path / "store.db")
    yield conn
    conn.close()


def _bad_files(tmp_path):
    src = data_file(NOV_2025)
    name = "GIS_Report_November2025.xlsx"
    return {
        "truncated": (truncated_copy(src, tmp_path / name), "not a readable .xlsx workbook"),
        "missing sheet": (
            rewrite_xlsx(
                src, tmp_path / f"sheet_{name}", "xl/workbook.xml",
                lambda x: x.replace('name="Project Details - Large Gen"', 'name="Large Gen"'),
            ),
            "no worksheet 'Project Details - Large Gen' or 'Project Details'",
        ),
        "renamed column": (
            rewrite_xlsx(
                src, tmp_path / f"column_{name}", "xl/sharedStrings.xml",
                lambda x: x.replace("Capacity (MW)", "Capacity MW"),
            ),
            "has no column 'Capacity (MW)'",
        ),
        "wrong file": (
            data_file("ercot_cdr/CapacityDemandandReservesReport_May2025.xlsx"),
            "no worksheet 'Project Details - Large Gen' or 'Project Details' (expected an ERCOT GIS",
        ),
    }  # fmt: skip


@pytest.mark.parametrize("case", ["truncated", "missing sheet", "renamed column", "wrong file"])
def test_bad_file_names_the_file_and_leaves_the_store_as_it_was(loaded_store, tmp_path, case):
    path, expected_message = _bad_files(tmp_path)[case]
    before = store_snapshot(loaded_store)
    with pytest.raises(HarvestError) as error:
        run_harvest(loaded_store, "ercot-gis", path)
    assert path.name in str(error.value)
    assert expected_message in str(error.value)
    assert store_snapshot(loaded_store) == before


def test_quality_report_counts_the_harvested_rows(harvested):
    import json

    from gridservice.catalogue.quality import compute_quality

    conn, _ = harvested
    queue = compute_quality(conn)["queue"]
    assert queue["rows"] == 1866
    stored = [
        json.loads(r[0])["qualityFlags"] for r in conn.execute("SELECT body FROM queue_records")
    ]
    for code, count in queue.items():
        if code != "rows":
            assert count == sum(any(f["code"] == code for f in flags) for flags in stored), code
    # Repowering projects are reported as net MW change, so some rows carry zero MW.
    zero_mw = conn.execute(
        "SELECT count(*) FROM queue_records WHERE json_extract(body, '$.requestedCapacityMw') = 0"
    ).fetchone()[0]
    assert queue["zeroRequestedCapacity"] == zero_mw > 0
