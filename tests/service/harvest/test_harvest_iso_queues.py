"""Harvesting the January 2025 queues of PJM, MISO, SPP, CAISO, NYISO and ISO-NE.

Each expectation is read from the ISO's own file here, with calamine or csv and the
header rows this test knows, independently of the harvester's header finder, county
resolver and field mapping; only the status tables (documented in docs/HARVEST.md) are
shared. The six files are those of the run's national store (`national_build`), built once
for the run; a copy of the SPP workbook whose key column was renamed is built into a copy of
it, and must be refused on its own.
"""

from __future__ import annotations

import csv
import hashlib
import re
import shutil
import sqlite3
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from harvest_support import data_file, rewrite_xlsx
from published_sheets import workbook_sheets
from service_support import ALPHA

from gridservice.app import create_app
from gridservice.catalogue.quality import compute_quality
from gridservice.harvest import (
    build_from_dir,
    caiso_queue,
    isone_queue,
    miso_queue,
    nyiso_queue,
    pjm_queue,
    spp_queue,
)
from gridservice.settings import Settings
from gridservice.store import db, writer

pytestmark = pytest.mark.slow  # the real files, and the national store (about a minute)

FOLDER = "iso_queues_2025_01"
FILES = {
    "PJM": "pjm_serial_service_request_status_2025-01.xlsx",
    "MISO": "miso_gi_interactive_queue_2025-01.csv",
    "SPP": "spp_gi_active_requests_2025-01.xlsx",
    "CAISO": "caiso_queue_report_2025-01-23.xlsx",
    "NYISO": "nyiso_interconnection_queue_2025-01.xlsx",
    "ISO-NE": "isone_queue_report_2025-01-23.xlsx",
}
SPP_KEY = "Generation Interconnection Number"
# (market, state, county as the issue names it)
COUNTIES = [
    ("PJM", "VA", "Loudoun"),
    ("PJM", "OH", "Franklin"),
    ("MISO", "IA", "Polk"),
    ("SPP", "TX", "Potter"),
    ("CAISO", "CA", "Kern"),
    ("NYISO", "NY", "Albany"),
    ("ISO-NE", "MA", "Worcester"),
]


@pytest.fixture(scope="module")
def built(tmp_path_factory, national_build) -> Iterator[tuple[sqlite3.Connection, dict]]:
    """The run's national store (the six files harvested over the Census counties, with
    EIA-861, HIFLD and the plants), then a build of a copy of the SPP workbook whose key
    column was renamed, which must be refused on its own; the runs by file."""
    folder = tmp_path_factory.mktemp("iso")
    rewrite_xlsx(
        data_file(f"{FOLDER}/{FILES['SPP']}"),
        folder / "spp_gi_active_requests_2025-01_renamed.xlsx",
        "xl/sharedStrings.xml",
        lambda xml: xml.replace(f">{SPP_KEY}<", ">GI Number<", 1),
    )
    path = tmp_path_factory.mktemp("db") / "iso.db"
    shutil.copyfile(national_build[0], path)
    conn = db.connect(path)
    runs = dict(national_build[1])
    # built after the real SPP file: its refusal must leave the SPP records in place
    runs.update({result.path.name: result.run for result in build_from_dir(conn, folder)})
    yield conn, runs
    conn.close()


@cache  # each sheet is read once per module, not once per county and status check
def _rows(name: str, sheet: str | None, header_row: int, names_over: int = 1) -> tuple[dict, ...]:
    """The file's data rows as {header: value}; the names end at the given 1-based row and
    run over `names_over` rows, joined with a space ('Queue' over 'Pos.')."""
    path = data_file(f"{FOLDER}/{name}")
    if sheet is None:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            return tuple(csv.DictReader(handle))
    rows = workbook_sheets(path, lambda name: name == sheet)[sheet]
    names = rows[header_row - names_over : header_row]
    header = [
        " ".join(" ".join(str(r[i]).split()) for r in names if r[i] is not None)
        for i in range(len(names[-1]))
    ]
    return tuple(dict(zip(header, row, strict=False)) for row in rows[header_row:])


def _nyiso_in_service() -> list[dict[str, object]]:
    """NYISO's In Service sheet: its names run over rows 1 and 2 ('Queue' over 'Pos.')."""
    rows = _rows(FILES["NYISO"], "In Service", 2, names_over=2)
    return [{**r, "County": r.get("Location County")} for r in rows]


def _file_rows(market: str) -> list[dict[str, object]]:
    """Every row of a market's file that names a request (its key cell is filled)."""
    sheets = {
        "PJM": [(FILES["PJM"], "Data", 1)],
        "MISO": [(FILES["MISO"], None, 1)],
        "SPP": [(FILES["SPP"], "SPP GI_ActiveRequest", 2)],
        "CAISO": [
            (FILES["CAISO"], s, 4)
            for s in (
                "Grid GenerationQueue",
                "Completed Generation Projects",
                "Withdrawn Generation Projects",
            )
        ],
        "NYISO": [
            (FILES["NYISO"], s, 1)
            for s in (
                "Interconnection Queue",
                " Cluster Projects",
                "Withdrawn",
                "Cluster Projects-Withdrawn",
            )
        ],
        "ISO-NE": [(FILES["ISO-NE"], "Queue", 5)],
    }[market]
    rows = [r for name, sheet, header in sheets for r in _rows(name, sheet, header)]
    if market == "NYISO":
        rows += _nyiso_in_service()
    key = {
        "PJM": "Project ID",
        "MISO": "Project #",
        "SPP": SPP_KEY,
        "CAISO": "Queue Position",
        "NYISO": "Queue Pos.",
        "ISO-NE": "Position",
    }[market]
    # A note line ('NOTES:') has a key cell but no state, county, MW or status; a key
    # seen before is a duplicate (NYISO lists 0031 as withdrawn and in service), except
    # in ISO-NE, where a position may take several rows.
    columns = ("State", COUNTY_COLUMN.get(market, "County"), MW_COLUMN[market])
    kept, seen = [], set()
    for r in rows:
        number = str(r.get(key) or "").strip().upper()
        if (
            number
            and (any(str(r.get(c) or "").strip() for c in columns) or _status_text(market, r))
            and str(r.get("State")) != "strawberry watermelon grape"
            and (market == "ISO-NE" or number not in seen)
        ):
            kept.append(r)
            seen.add(number)
    return kept


COUNTY_COLUMN = {"SPP": "Nearest Town or County"}
MW_COLUMN = {
    "PJM": "MW Energy",
    "MISO": "Summer MW",
    "SPP": "Capacity",
    "CAISO": "Net MWs to Grid",
    "NYISO": "SP (MW)",
    "ISO-NE": "Net MW",
}


def _names_county(cell: object, county: str) -> bool:
    """'Loudoun', 'Loudoun County', 'LOUDOUN, VA' name Loudoun; 'KERN/INYO' and
    'Albany-Dutchess' name the first of their counties, as docs/HARVEST.md says."""
    text = re.split(r"[,/-]", str(cell or ""))[0].strip().lower().removesuffix(" county")
    return text == county.lower()


def _mw(cell: object) -> float:
    try:
        return float(str(cell).replace(",", ""))
    except ValueError:
        return 0.0


@pytest.mark.parametrize(("market", "state", "county"), COUNTIES)
def test_county_counts_and_mw_match_the_isos_file(built, market, state, county):
    conn, _ = built
    column = COUNTY_COLUMN.get(market, "County")
    expected = [
        r
        for r in _file_rows(market)
        if str(r.get("State") or "").strip() == state and _names_county(r.get(column), county)
    ]
    fips = conn.execute(
        "SELECT county_fips FROM counties WHERE state = ? AND name = ?", (state, county)
    ).fetchone()[0]
    stored = conn.execute(
        "SELECT count(*), coalesce(sum(json_extract(q.body, '$.requestedCapacityMw')), 0) "
        "FROM queue_records q JOIN queue_record_details d ON d.record_id = q.id "
        "WHERE q.market = ? AND json_extract(d.body, '$.countyFips') = ?",
        (market, fips),
    ).fetchone()
    assert expected, f"the {market} file names no request in {county} County, {state}"
    assert stored[0] == len(expected)
    assert stored[1] == pytest.approx(sum(_mw(r.get(MW_COLUMN[market])) for r in expected))


def _status_text(market: str, row: dict[str, object]) -> str:
    """The ISO's status words as docs/HARVEST.md reads them."""
    if market == "MISO":
        status, post = row["Request Status"], row["Post GIA Status"]
        return f"{status} / {post}" if status == "Done" and post else str(status)
    if market == "CAISO":
        status, suspended = row.get("Application Status"), row.get("Suspension Status")
        return f"{status} / {suspended}" if suspended else str(status or "")
    if market == "NYISO":
        return "" if row.get("S") is None else str(row["S"])
    if market == "ISO-NE":
        if row.get("Project Status") is None and row.get("W/ D Date") is not None:
            return isone_queue.WITHDRAWN_BY_DATE
        return str(row.get("Project Status") or "")
    return str(row.get("Status") or "")


TABLES = {
    "PJM": pjm_queue.STATUSES,
    "MISO": miso_queue.STATUSES,
    "SPP": spp_queue.STATUSES,
    "CAISO": caiso_queue.STATUSES,
    "NYISO": nyiso_queue.STATUSES,
    "ISO-NE": isone_queue.STATUSES,
}


@pytest.mark.parametrize("market", list(FILES))
def test_status_counts_follow_the_documented_table(built, market):
    conn, _ = built
    expected = Counter()
    for row in _file_rows(market):
        text = _status_text(market, row).strip()
        expected[TABLES[market].get(text.lower(), text)] += 1
    by_market = compute_quality(conn)["queueByMarket"][market]
    assert by_market["byStatus"] == dict(expected)
    unknown = sum(n for status, n in expected.items() if status not in TABLES[market].values())
    assert by_market["unknownStatus"] == unknown


def test_misos_test_row_is_rejected_as_not_a_project(built):
    _, runs = built
    run = runs[FILES["MISO"]]
    (row,) = [r for r in run["rejections"] if "fish mango" in " ".join(r["reasons"])]
    assert row["sourceLocator"].endswith("#csv!R2")
    assert row["reasons"][0].startswith("not a project")


def test_a_renamed_key_column_refuses_that_file_and_the_others_still_harvest(built):
    conn, runs = built
    refused = runs["spp_gi_active_requests_2025-01_renamed.xlsx"]
    assert refused["rejectedAsset"] is True
    assert SPP_KEY in refused["rejections"][0]["reasons"][0]
    markets = dict(conn.execute("SELECT market, count(*) FROM queue_records GROUP BY market"))
    assert markets["SPP"] == len(_file_rows("SPP"))
    assert set(FILES) <= set(markets)


def test_the_service_serves_the_records_with_their_row_and_file_hash(built):
    conn, _ = built
    path = Path(conn.execute("PRAGMA database_list").fetchone()[2])
    with conn:
        writer.add_token(conn, "tok_alpha_test", "tenant-alpha", "2025-01-01T00:00:00Z")
    settings = Settings.for_store(path, secret_key=b"k" * 32, rate_limit_burst=100000)
    with TestClient(create_app(settings)) as client:
        page = client.get("/v1/queue-records", params={"limit": 5}, headers=ALPHA)
        assert page.status_code == 200
        evidence = client.get("/v1/queue-records/pjm-A01/evidence", headers=ALPHA).json()["data"]
        quality = client.get("/v1/quality", headers=ALPHA).json()["quality"]
    sha = hashlib.sha256(data_file(f"{FOLDER}/{FILES['PJM']}").read_bytes()).hexdigest()
    assert evidence["assetHash"] == sha
    row_number = evidence["locator"]["row"]
    published = _rows(FILES["PJM"], "Data", 1)[row_number - 2]
    assert published["Project ID"] == "A01"
    assert evidence["locator"]["worksheet"] == "Data"
    assert quality["queueByMarket"]["PJM"]["rows"] == len(_file_rows("PJM"))
