"""LBNL "Queued Up" interconnection queue data (codebook columns): queue records.

Berkeley Lab's synthesis of ISO and utility queues; authority
`officially_sponsored_synthesis`. Details carry the codebook fields (queue, proposed,
online, withdrawn and IA dates, study phase raw and clean, developer, service...).
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from gridservice.catalogue.quality import queue_quality_flags
from gridservice.harvest._base import ASSERTION_OBSERVED, Asset, Harvest, rejection
from gridservice.harvest._csv import csv_rows, number, text_or_none
from gridservice.store import harvest_store, writer

SOURCE_ID = "lbnl_queued_up"
SOURCE_NAME = 'Lawrence Berkeley National Laboratory, "Queued Up" interconnection queue data'
SOURCE_URL = "https://emp.lbl.gov/queues"
AUTHORITY = "officially_sponsored_synthesis"
# "..._thru2024_..." in the file name: the queues' data run through the end of that year.
DATA_THROUGH = re.compile(r"thru(\d{4})", re.IGNORECASE)
EXPECTED = "an LBNL Queued Up extract (codebook columns q_id, q_status, ...)"
COLUMNS = [
    "q_id", "q_status", "q_date", "prop_date", "on_date", "wd_date", "ia_date",
    "IA_status_raw", "IA_status_clean", "county", "state", "fips_codes", "poi_name",
    "region", "project_name", "utility", "entity", "developer", "cluster", "service",
    "project_type", "mw1", "mw2", "mw3", "type_clean",
]  # fmt: skip


def parse(asset: Asset, conn: sqlite3.Connection) -> Harvest:
    rows, rejections, seen, input_records = [], [], set(), 0
    for line, published in csv_rows(asset, COLUMNS, EXPECTED):
        input_records += 1
        locator = f"{asset.file_name}#R{line}"
        key = (published["q_id"] or "").strip()
        region = (published["region"] or "").strip()
        if not key or key in seen or not region:
            reason = (
                "missing q_id"
                if not key
                else "missing region"
                if not region
                else f"duplicate q_id {key}"
            )
            rejections.append(rejection(locator, reason))
            continue
        seen.add(key)
        rows.append(_records(asset, line, published))

    def store(conn: sqlite3.Connection) -> None:
        harvest_store.delete_queue_records(conn, SOURCE_ID)
        for record, details, evidence in rows:
            record["qualityFlags"] = details["qualityFlags"] = queue_quality_flags(record, details)
            writer.insert_queue_record(conn, record, details, evidence)

    return Harvest(SOURCE_ID, input_records, len(rows), rejections, store)


def data_through(file_name: str) -> str | None:
    """Return the last day the extract's data covers, from its file name, or None."""
    match = DATA_THROUGH.search(file_name)
    return f"{match.group(1)}-12-31" if match else None


def _first(text: str | None) -> str | None:
    """The first of a ','/';'-separated list (LBNL joins multi-county projects)."""
    value = text_or_none(text)
    return value.replace(";", ",").split(",")[0].strip() or None if value else None


def _records(asset: Asset, line: int, published: dict[str, str]) -> tuple[dict, dict, dict]:
    key = published["q_id"].strip()
    record_id = f"lbnl-{published['region'].strip().lower()}-{key}"
    locator = f"{asset.file_name}#R{line}"
    source_row = {k: v for k, v in published.items() if k is not None}
    capacities = [v for v in (number(published[c]) for c in ("mw1", "mw2", "mw3")) if v is not None]
    record = {
        "id": record_id,
        "sourceId": SOURCE_ID,
        "assetHash": asset.sha256,
        "recordKey": key,
        "market": published["region"].strip(),
        "projectName": text_or_none(published["project_name"]),
        "pointOfInterconnection": text_or_none(published["poi_name"]),
        "state": text_or_none(published["state"]),
        "county": _first(published["county"]),
        "proposedDate": text_or_none(published["prop_date"]),
        "observedAt": asset.harvested_at,
        "sourceLocator": locator,
        "evidenceUrl": SOURCE_URL,
        "status": text_or_none(published["q_status"]),
        "requestedCapacityMw": number(published["mw1"]),
        "qualityFlags": [],
    }
    details: dict[str, Any] = {
        "recordId": record_id,
        "queueDate": text_or_none(published["q_date"]),
        "onlineDate": text_or_none(published["on_date"]),
        "withdrawnDate": text_or_none(published["wd_date"]),
        "interconnectionAgreementDate": text_or_none(published["ia_date"]),
        "studyPhaseOriginal": text_or_none(published["IA_status_raw"]),
        "studyPhaseNormalized": text_or_none(published["IA_status_clean"]),
        "countyFips": _first(published["fips_codes"]),
        "regionOriginal": text_or_none(published["region"]),
        "utilityName": text_or_none(published["utility"]),
        "transmissionEntity": text_or_none(published["entity"]),
        "developer": text_or_none(published["developer"]),
        "cluster": text_or_none(published["cluster"]),
        "serviceType": text_or_none(published["service"]),
        "projectType": text_or_none(published["project_type"]),
        "technology": text_or_none(published["type_clean"]),
        "capacityComponentsMw": capacities,
        "evidence": {
            "assertionType": ASSERTION_OBSERVED,
            "authority": AUTHORITY,
            "sourceLocator": locator,
            "originalRecord": source_row,
            "dataThrough": data_through(asset.file_name),
        },
        "qualityFlags": [],
    }
    evidence = {
        "recordId": record_id,
        "sourceId": SOURCE_ID,
        "assetHash": asset.sha256,
        "sourceLocator": locator,
        "sourceName": SOURCE_NAME,
        "termsClassification": "public_release_cite_source",
        "sourceUrl": SOURCE_URL,
        "locator": {
            "type": "spreadsheet_row",
            "fileName": asset.file_name,
            "worksheet": "csv",
            "row": line,
        },
        "sourceRow": source_row,
        "redistributionPolicy": "public_redistribution",
    }
    return record, details, evidence
