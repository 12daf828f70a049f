"""A queue record's status now is the newest source's word (gridservice.catalogue.queue_status).

Small stores written directly: an operator's report (ERCOT GIS shape) and a synthesis
(LBNL shape) speaking of the same projects, with the report's inactive, cancelled and
commissioned rows as status listings.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from gridservice.catalogue import queue_status
from gridservice.catalogue.quality import STATUS_DISAGREEMENT_CODE, compute_quality
from gridservice.store import harvest_store, writer
from gridservice.store.db import connect, init_schema

REPORT_RUN = "2025-12-01T14:00:40Z"
REPORT = "GIS_Report_November2025.xlsx"
SYNTHESIS = "lbnl_queued_up_thru2024.csv"


def _record(record_id, source_id, key, status, *, observed_at, locator, market="ERCOT", mw=100.0):
    return {
        "id": record_id,
        "sourceId": source_id,
        "recordKey": key,
        "market": market,
        "state": "TX",
        "county": "Ector",
        "projectName": f"Project {key}",
        "status": status,
        "requestedCapacityMw": mw,
        "observedAt": observed_at,
        "sourceLocator": locator,
        "qualityFlags": [],
    }


def add_operator(conn, key, *, row, observed_at=REPORT_RUN, market="ERCOT"):
    locator = f"{REPORT}#Project Details - Large Gen!R{row}"
    record = _record(
        f"ercot-gis-{key}", "ercot_gis_report", key, "active",
        observed_at=observed_at, locator=locator, market=market,
    )  # fmt: skip
    details = {"recordId": record["id"], "evidence": {"authority": "official_operator_dataset"}}
    writer.insert_queue_record(conn, record, details, {"recordId": record["id"]})


def add_synthesis(conn, key, status, *, line, data_through="2024-12-31", market="ERCOT"):
    record = _record(
        f"lbnl-{market.lower()}-{key}", "lbnl_queued_up", key, status,
        observed_at="2026-11-23T00:00:00Z", locator=f"{SYNTHESIS}#R{line}", market=market,
    )  # fmt: skip
    evidence = {"authority": "officially_sponsored_synthesis", "dataThrough": data_through}
    details = {"recordId": record["id"], "evidence": evidence}
    writer.insert_queue_record(conn, record, details, {"recordId": record["id"]})


def listing(key, status, status_date, sheet, row):
    return {
        "recordKey": key,
        "market": "ERCOT",
        "status": status,
        "statusDate": status_date,
        "sourceId": "ercot_gis_report",
        "sourceLocator": f"{REPORT}#{sheet}!R{row}",
        "reportedAt": REPORT_RUN,
    }


@pytest.fixture
def conn(tmp_path) -> sqlite3.Connection:
    connection = connect(tmp_path / "queue.db")
    init_schema(connection)
    return connection


def refreshed(conn) -> dict[str, dict]:
    with conn:
        queue_status.refresh_status_now(conn)
    rows = conn.execute("SELECT body FROM queue_records ORDER BY id")
    return {body["id"]: body for body in (json.loads(r[0]) for r in rows)}


def test_a_project_the_newest_report_lists_inactive_no_longer_counts(conn):
    # Firebird Solar: active in LBNL (data through 2024), inactive in ERCOT's Nov 2025 report.
    add_operator(conn, "21INR0265", row=40)
    add_synthesis(conn, "26INR0279", "active", line=268)
    listings = [listing("26INR0279", "inactive", "2025-10-03", "Inactive Projects", 138)]
    harvest_store.replace_queue_status_listings(conn, "ercot_gis_report", listings)
    records = refreshed(conn)
    firebird = records["lbnl-ercot-26INR0279"]
    assert firebird["status"] == "active"  # the synthesis's own word, kept as history
    assert firebird["sourceLocator"] == f"{SYNTHESIS}#R268"
    assert firebird["statusNow"] == {
        "status": "inactive",
        "date": "2025-10-03",
        "reportedAt": REPORT_RUN,
        "sourceId": "ercot_gis_report",
        "sourceLocator": f"{REPORT}#Inactive Projects!R138",
        "recordId": None,
        "basis": "newer_source",
        "countsAsActive": False,
    }
    assert not queue_status.counts_as_active(firebird)
    assert queue_status.counts_as_active(records["ercot-gis-21INR0265"])
    assert "inactive as of 2025-10-03" in queue_status.describe(firebird["statusNow"])


def test_a_project_the_newest_report_no_longer_lists_is_not_listed(conn):
    add_operator(conn, "21INR0265", row=40)
    add_synthesis(conn, "23INR0001", "active", line=5)
    now = refreshed(conn)["lbnl-ercot-23INR0001"]["statusNow"]
    assert (now["status"], now["date"], now["sourceLocator"]) == (
        "not_listed",
        "2025-12-01",
        REPORT,
    )
    assert now["countsAsActive"] is False


@pytest.mark.parametrize(
    ("status", "sheet", "date"),
    [("cancelled", "Cancellation Update", "2025-11-10"), ("commissioned", "Commissioning Update",
     "2025-11-12")],
)  # fmt: skip
def test_cancelled_and_commissioned_projects_no_longer_count(conn, status, sheet, date):
    add_operator(conn, "21INR0265", row=40)
    add_synthesis(conn, "25INR0423", "active", line=9)
    listings = [listing("25INR0423", status, date, sheet, 10)]
    harvest_store.replace_queue_status_listings(conn, "ercot_gis_report", listings)
    now = refreshed(conn)["lbnl-ercot-25INR0423"]["statusNow"]
    assert (now["status"], now["date"], now["countsAsActive"]) == (status, date, False)
    assert now["sourceLocator"] == f"{REPORT}#{sheet}!R10"


def test_a_request_both_list_active_counts_once_through_the_report(conn):
    add_operator(conn, "21INR0268", row=41)
    add_synthesis(conn, "21INR0268", "suspended", line=7)
    records = refreshed(conn)
    synthesis = records["lbnl-ercot-21INR0268"]["statusNow"]
    assert synthesis["status"] == "active"
    assert synthesis["recordId"] == "ercot-gis-21INR0268"
    assert synthesis["countsAsActive"] is False  # the report's record is the one counted
    assert records["ercot-gis-21INR0268"]["statusNow"]["countsAsActive"] is True


def test_the_active_sheets_outrank_the_same_reports_commissioning_sheet(conn):
    # Energization approved this month: listed on Large Gen and on Commissioning Update.
    add_operator(conn, "22INR0549", row=50)
    listings = [listing("22INR0549", "commissioned", "2025-11-12", "Commissioning Update", 10)]
    harvest_store.replace_queue_status_listings(conn, "ercot_gis_report", listings)
    now = refreshed(conn)["ercot-gis-22INR0549"]["statusNow"]
    assert (now["status"], now["basis"], now["countsAsActive"]) == ("active", "own_record", True)


def test_a_synthesis_newer_than_the_report_keeps_its_word(conn):
    add_operator(conn, "21INR0265", row=40, observed_at="2024-12-01T14:00:00Z")
    add_synthesis(conn, "23INR0001", "active", line=5, data_through="2024-12-31")
    add_synthesis(conn, "21INR0265", "withdrawn", line=6, data_through="2024-12-31")
    records = refreshed(conn)
    unlisted = records["lbnl-ercot-23INR0001"]["statusNow"]
    assert (unlisted["basis"], unlisted["countsAsActive"]) == ("own_record", True)
    assert unlisted["date"] == "2024-12-31"
    # The newest word on 21INR0265 is the synthesis's: withdrawn.
    report_record = records["ercot-gis-21INR0265"]["statusNow"]
    assert (report_record["status"], report_record["countsAsActive"]) == ("withdrawn", False)


def test_other_markets_and_keyless_records_keep_their_own_word(conn):
    add_operator(conn, "21INR0265", row=40)
    add_synthesis(conn, "J1234", "active", line=3, market="PJM")
    add_synthesis(conn, "", "active", line=4)
    records = refreshed(conn)
    assert records["lbnl-pjm-J1234"]["statusNow"]["countsAsActive"] is True
    assert records["lbnl-ercot-"]["statusNow"]["basis"] == "own_record"


def test_a_record_stored_before_status_now_counts_by_its_own_status():
    assert queue_status.counts_as_active({"id": "x", "status": "Active"})
    assert not queue_status.counts_as_active({"id": "x", "status": "withdrawn"})


def test_status_now_answers_for_records_handed_in(conn):
    # What another endpoint does with records it read itself.
    add_operator(conn, "21INR0265", row=40)
    listings = [listing("26INR0279", "inactive", "2025-10-03", "Inactive Projects", 138)]
    harvest_store.replace_queue_status_listings(conn, "ercot_gis_report", listings)
    record = {"id": "other-1", "market": "ercot", "recordKey": "26inr0279", "status": "active"}
    assert queue_status.status_now(conn, [record])["other-1"]["status"] == "inactive"


def test_quality_report_counts_and_lists_disagreements_with_both_locators(conn):
    add_operator(conn, "21INR0265", row=40)
    add_synthesis(conn, "21INR0265", "withdrawn", line=6)  # report newer: active
    add_synthesis(conn, "26INR0279", "active", line=268)  # report newer: inactive
    add_synthesis(conn, "23INR0002", "withdrawn", line=8)  # not listed: both say not active
    listings = [listing("26INR0279", "inactive", "2025-10-03", "Inactive Projects", 138)]
    harvest_store.replace_queue_status_listings(conn, "ercot_gis_report", listings)
    refreshed(conn)
    report = compute_quality(conn, generated_at="2026-01-01T00:00:00Z")
    assert report["queue"][STATUS_DISAGREEMENT_CODE] == 2
    pairs = {
        (d["recordId"], d["sourceLocator"], d["statusNow"], d["statusNowSourceLocator"])
        for d in report["queueStatusDisagreements"]
    }
    assert pairs == {
        ("lbnl-ercot-21INR0265", f"{SYNTHESIS}#R6", "active",
         f"{REPORT}#Project Details - Large Gen!R40"),
        ("lbnl-ercot-26INR0279", f"{SYNTHESIS}#R268", "inactive",
         f"{REPORT}#Inactive Projects!R138"),
    }  # fmt: skip
