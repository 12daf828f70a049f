"""Every evidence the demo service serves names its source in fields that agree with its
locator string: publisher, file, worksheet, row and edition."""

from __future__ import annotations

import re
import sqlite3
import string
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gridservice.demo import DEMO_POINTS

ALPHA = {"Authorization": "Bearer gds_demo_alpha"}
COLLECTIONS = [
    "/v1/generators",
    "/v1/generation-plants",
    "/v1/generator-operations",
    "/v1/balancing-authority-operations",
    "/v1/transmission-projects",
    "/v1/load-forecasts",
    "/v1/resource-adequacy",
]


@pytest.fixture(scope="module")
def demo(demo_with_db: tuple[TestClient, sqlite3.Connection]) -> TestClient:
    return demo_with_db[0]


@pytest.fixture(scope="module")
def demo_db(demo_with_db: tuple[TestClient, sqlite3.Connection]) -> sqlite3.Connection:
    return demo_with_db[1]


def expected_parts(locator: str) -> tuple[str | None, str | None, int | None]:
    """The file, worksheet and row a locator names, read here apart from the service's parser:
    `file#Sheet!R36`, `file#'Sheet'!A2`, `file#R12`, `file#row=12`."""
    file_name, hash_mark, fragment = locator.partition("#")
    if not hash_mark:
        return None, None, None
    sheet, bang, cell = fragment.rpartition("!")
    if bang:
        digits = cell.lstrip(string.ascii_uppercase)
        return file_name, sheet.strip("'"), int(digits) if digits.isdigit() else None
    for prefix in ("R", "row="):
        if fragment.startswith(prefix) and fragment[len(prefix) :].isdigit():
            return file_name, None, int(fragment[len(prefix) :])
    return file_name, None, None


def assert_agrees(evidence: dict[str, Any], locator: str, source_id: str) -> None:
    file_name, worksheet, row = expected_parts(locator)
    assert (evidence["fileName"], evidence["worksheet"], evidence["row"]) == (
        file_name,
        worksheet,
        row,
    ), locator
    assert evidence["publisher"], source_id
    year = re.search(r"(?:19|20)\d{2}", file_name or "")
    if year:
        assert year[0] in (evidence["edition"] or ""), locator
    if evidence["edition"] and file_name:
        assert evidence["edition"].split()[-1] in file_name, locator


def first_page(client: TestClient, path: str, **params: Any) -> list[dict]:
    body = client.get(path, params={"limit": 50, **params}, headers=ALPHA)
    assert body.status_code == 200, body.text
    return body.json()["data"]


@pytest.mark.parametrize("path", COLLECTIONS)
def test_record_evidence_fields_agree_with_locator(demo: TestClient, path: str) -> None:
    records = first_page(demo, path)
    assert records
    for record in records:
        evidence = record["evidence"]
        source_id = evidence.get("sourceId") or record["sourceId"]
        assert_agrees(evidence, evidence["sourceLocator"], source_id)


def test_queue_record_fields_agree_on_list_details_and_evidence(demo: TestClient) -> None:
    records = first_page(demo, "/v1/queue-records")
    assert records
    for record in records:
        locator = record["sourceLocator"]
        assert_agrees(record["evidence"], locator, record["sourceId"])
        details = demo.get(f"/v1/queue-records/{record['id']}/details", headers=ALPHA).json()
        assert_agrees(details["data"]["evidence"], locator, record["sourceId"])
        evidence = demo.get(f"/v1/queue-records/{record['id']}/evidence", headers=ALPHA).json()
        assert_agrees(evidence["data"], locator, record["sourceId"])
        assert record["evidence"]["publisher"] == evidence["data"]["publisher"]


def test_docket_filing_evidence_fields(demo: TestClient, demo_db: sqlite3.Connection) -> None:
    numbers = [
        row[0] for row in demo_db.execute("SELECT DISTINCT control_number FROM docket_filings")
    ]
    assert numbers
    for number in numbers:
        for filing in first_page(demo, f"/v1/dockets/{number}/filings"):
            assert_agrees(filing["evidence"], filing["sourceLocator"], filing["sourceId"])


@pytest.mark.parametrize("point", sorted(DEMO_POINTS))
def test_territory_candidate_evidence_fields(demo: TestClient, point: str) -> None:
    latitude, longitude = DEMO_POINTS[point]
    resolution = demo.post(
        "/v1/service-territory-resolutions",
        json={"location": {"type": "Point", "coordinates": [longitude, latitude]}},
        headers=ALPHA,
    ).json()["data"]
    for candidate in resolution["candidates"]:
        evidence = candidate["evidence"]
        assert_agrees(evidence, evidence["sourceLocator"], evidence["sourceId"])
