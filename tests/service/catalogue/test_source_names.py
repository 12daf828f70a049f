"""Harvest runs and evidence chunks name their source as its publisher does, beside the id,
so no page is left showing `ercot_gis_report` where "ERCOT GIS report" is meant."""

from __future__ import annotations

import hashlib
import sqlite3

from fastapi.testclient import TestClient

from gridservice.catalogue.source_fields import PUBLISHER_NAMES
from gridservice.store import writer

ALPHA = {"Authorization": "Bearer gds_demo_alpha"}


def named_by_publisher(source_id: str) -> str:
    """The publisher's title of a source id, its longest listed id that it is or starts with
    (a harvested id adds `-<hash>`, a demo id `-<year>-<month>`)."""
    listed = [key for key in PUBLISHER_NAMES if source_id == key or source_id.startswith(key + "-")]
    assert listed, source_id
    return PUBLISHER_NAMES[max(listed, key=len)]


def test_harvest_runs_carry_their_publisher(demo_with_db: tuple[TestClient, sqlite3.Connection]):
    demo, conn = demo_with_db
    asset_hash = hashlib.sha256(b"GIS_Report_November2025.xlsx").hexdigest()
    harvested = f"ercot_gis_report-{asset_hash[:12]}"
    writer.insert_harvest_run(
        conn,
        {
            "runId": "run-named-by-publisher",
            "sourceId": harvested,
            "assetHash": asset_hash,
            "observedAt": "2025-12-01T00:00:00Z",
            "inputRecords": 1,
            "acceptedRecords": 1,
            "rejectedRecords": 0,
            "unchangedAsset": False,
            "rejections": [],
        },
    )
    conn.commit()
    answer = demo.get("/v1/quality", headers=ALPHA)
    assert answer.status_code == 200, answer.text
    runs = answer.json()["data"]
    assert harvested in {run["sourceId"] for run in runs}
    for run in runs:
        assert run["publisher"] == named_by_publisher(run["sourceId"]), run["sourceId"]
    [ours] = [run for run in runs if run["sourceId"] == harvested]
    assert ours["publisher"] == PUBLISHER_NAMES["ercot_gis_report"]


def test_evidence_chunks_carry_their_publisher_and_edition(
    demo_with_db: tuple[TestClient, sqlite3.Connection],
):
    demo = demo_with_db[0]
    answer = demo.get("/v1/evidence-search", params={"q": "transmission"}, headers=ALPHA)
    assert answer.status_code == 200, answer.text
    chunks = answer.json()["data"]
    assert chunks
    for chunk in chunks:
        assert chunk["publisher"] == named_by_publisher(chunk["sourceId"]), chunk["sourceId"]
        # an edition, where one is stated, is one the chunk's file or source id states
        if chunk["edition"]:
            stated = f"{chunk['sourceLocator']} {chunk['sourceId']}"
            assert chunk["edition"].split()[-1] in stated, chunk
