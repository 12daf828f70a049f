"""Harvesting the ERCOT CDR workbook: facts that cite their cell, prose evidence, versions."""

from __future__ import annotations

import json

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

CDR = "ercot_cdr/CapacityDemandandReservesReport_May2025.xlsx"
NAME = "CapacityDemandandReservesReport_May2025.xlsx"


@pytest.fixture(scope="module")
def harvested(tmp_path_factory):
    conn = fresh_store(tmp_path_factory.mktemp("cdr") / "store.db")
    result = run_harvest(conn, "ercot-cdr", data_file(CDR))
    yield conn, result
    conn.close()


def _facts(conn, where="1=1", params=()):
    return [json.loads(r[0]) for r in conn.execute(f"SELECT body FROM facts WHERE {where}", params)]


def test_counts_one_fact_per_season_year_and_hour(harvested):
    conn, result = harvested
    # 3 lines x 4 seasons x 5 years x 2 hours (peak load, peak net load).
    assert (
        result.run["inputRecords"],
        result.run["acceptedRecords"],
        result.run["rejectedRecords"],
    ) == (120, 120, 0)
    kinds = dict(conn.execute("SELECT kind, count(*) FROM facts GROUP BY kind").fetchall())
    assert kinds == {"load_forecast": 80, "resource_adequacy": 40}
    assert all(f["unit"] == "MW" and f["market"] == "ERCOT" for f in _facts(conn))


def test_fact_cites_the_cell_it_came_from(harvested):
    conn, result = harvested
    [fact] = _facts(
        conn,
        "json_extract(body, '$.factKey') = ?",
        ("ERCOT|firm_peak_load_mw|2026-summer|peak_load_hour",),
    )
    evidence = fact["evidence"]
    assert evidence["sourceLocator"] == f"{NAME}#Seasonal Summary!D17"
    assert evidence["parserConfidenceIsCalibrated"] is False
    assert evidence["calibrationStatus"] == "unavailable_no_independent_labels"
    assert fact["knownFrom"] == "2025-05-16T19:03:37Z" and fact["knownTo"] is None
    assert (fact["validFrom"], fact["validTo"]) == ("2026-06-01", "2026-09-30")
    workbook = openpyxl.load_workbook(data_file(CDR), read_only=True, data_only=True)
    sheet_name, cell = evidence["sourceLocator"].split("#")[1].split("!")
    assert workbook.sheetnames.index(sheet_name) + 1 == evidence["page"]
    assert workbook[sheet_name][cell].value == fact["value"]
    assert workbook[sheet_name][f"C{cell[1:]}"].value == evidence["sourceText"]
    workbook.close()
    chunk = conn.execute(
        "SELECT content FROM evidence_chunks WHERE chunk_id = ?", (evidence["chunkId"],)
    ).fetchone()[0]
    assert "Firm Peak Load, MW" in chunk and "Summer 2026 peak load hour: 89,666.5" in chunk


def test_winter_spans_the_new_year(harvested):
    conn, _ = harvested
    [fact] = _facts(
        conn,
        "json_extract(body, '$.factKey') = ?",
        ("ERCOT|total_capacity_mw|2027-2028-winter|peak_net_load_hour",),
    )
    assert (fact["validFrom"], fact["validTo"]) == ("2027-12-01", "2028-02-29")


def test_prose_becomes_searchable_evidence(harvested):
    conn, _ = harvested
    hits = conn.execute(
        "SELECT c.body FROM evidence_fts f JOIN evidence_chunks c ON c.rowid = f.rowid "
        "WHERE evidence_fts MATCH ?",
        ('"data center"',),
    ).fetchall()
    bodies = [json.loads(h[0]) for h in hits]
    assert bodies and all(b["sourceId"] == "ercot_cdr" for b in bodies)
    assert any("49.8%" in b["content"] for b in bodies)  # the load-request haircut
    assert bodies[0]["sourceLocator"].startswith(f"{NAME}#Findings & Discussion!")


def test_same_bytes_again_change_nothing(harvested):
    conn, _ = harvested
    before = store_snapshot(conn)
    assert run_harvest(conn, "ercot-cdr", data_file(CDR)).run["unchangedAsset"] is True
    after = store_snapshot(conn)
    assert after["bodies"] == before["bodies"] and after["counts"] == before["counts"]


def test_a_revised_workbook_closes_the_older_facts(tmp_path):
    conn = fresh_store(tmp_path / "store.db")
    run_harvest(conn, "ercot-cdr", data_file(CDR))
    revised = rewrite_xlsx(
        data_file(CDR), tmp_path / NAME, "docProps/core.xml",
        lambda x: x.replace("2025-05-16T19:03:37Z", "2025-06-02T15:00:00Z"),
    )  # fmt: skip
    run_harvest(conn, "ercot-cdr", revised)
    key = ("ERCOT|firm_peak_load_mw|2026-summer|peak_load_hour",)
    versions = sorted(
        _facts(conn, "json_extract(body, '$.factKey') = ?", key), key=lambda f: f["knownFrom"]
    )
    assert [(f["knownFrom"], f["knownTo"]) for f in versions] == [
        ("2025-05-16T19:03:37Z", "2025-06-02T15:00:00Z"),
        ("2025-06-02T15:00:00Z", None),
    ]
    assert conn.execute("SELECT count(*) FROM facts WHERE known_to IS NULL").fetchone()[0] == 120


@pytest.mark.parametrize("case", ["truncated", "missing sheet", "renamed line", "wrong file"])
def test_bad_file_names_the_file_and_leaves_the_store_as_it_was(harvested, tmp_path, case):
    conn, _ = harvested
    src = data_file(CDR)
    make, message = {
        "truncated": (lambda: truncated_copy(src, tmp_path / NAME), "not a readable .xlsx"),
        "missing sheet": (
            lambda: rewrite_xlsx(src, tmp_path / NAME, "xl/workbook.xml",
                                 lambda x: x.replace('name="Seasonal Summary"', 'name="Summary"')),
            "no worksheet 'Seasonal Summary'",
        ),
        "renamed line": (
            lambda: rewrite_xlsx(src, tmp_path / NAME, "xl/sharedStrings.xml",
                                 lambda x: x.replace("Firm Peak Load, MW", "Firm Peak, MW")),
            "has no row 'Firm Peak Load, MW'",
        ),
        "wrong file": (
            lambda: data_file("eia861/Service_Territory_2024.xlsx"),
            "no worksheet 'Seasonal Summary' (expected an ERCOT CDR workbook",
        ),
    }[case]  # fmt: skip
    path = make()
    before = store_snapshot(conn)
    with pytest.raises(HarvestError) as error:
        run_harvest(conn, "ercot-cdr", path)
    assert path.name in str(error.value) and message in str(error.value)
    assert store_snapshot(conn) == before
