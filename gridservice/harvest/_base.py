"""What every harvester shares: the asset being read, the parsed result, the errors.

A harvester is two steps. `parse(asset)` reads the publisher's file and returns a
`Harvest` (counts, rejections and a `store` function) without touching the database, so a
bad file fails before anything is written. The runner then calls `store(conn)` inside
the run's one transaction.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gridservice.harvest._workbook import UNREADABLE, Workbook, Worksheet

ASSERTION_OBSERVED = "observed"
# The members a queue harvester reads from a row, in the order every queue record and its
# details are written (a record's JSON is stored as built: the order is part of its bytes).
QUEUE_RECORD_FIELDS = (
    "recordKey", "market", "projectName", "pointOfInterconnection", "state", "county",
    "proposedDate", "observedAt",
)  # fmt: skip
QUEUE_DETAIL_FIELDS = (
    "queueDate", "onlineDate", "withdrawnDate", "interconnectionAgreementDate",
    "studyPhaseOriginal", "studyPhaseNormalized", "countyFips", "regionOriginal", "utilityName",
    "transmissionEntity", "developer", "cluster", "serviceType", "projectType", "technology",
    "capacityComponentsMw",
)  # fmt: skip


class HarvestError(Exception):
    """A file that cannot be harvested as the source it was given for; the message names
    the file and what was expected."""


@dataclass(frozen=True)
class Asset:
    """One file of a source: its path, its bytes' SHA-256 and when it was harvested."""

    path: Path
    sha256: str
    harvested_at: str  # ISO date-time, UTC

    @property
    def file_name(self) -> str:
        return self.path.name

    @classmethod
    def from_path(cls, path: str | Path, harvested_at: str | None = None) -> Asset:
        path = Path(path)
        if not path.is_file():
            raise HarvestError(f"{path}: no such file")
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        return cls(path=path, sha256=digest, harvested_at=harvested_at or utc_now())


@dataclass
class Harvest:
    """The parsed content of one asset, ready to be stored."""

    source_id: str
    input_records: int
    accepted_records: int
    rejections: list[dict[str, Any]]
    store: Callable[[sqlite3.Connection], None]
    observed_at: str | None = None
    notes: dict[str, Any] = field(default_factory=dict)
    # Members the run record adds for this source (e.g. the history extract's superseded rows).
    run_fields: dict[str, Any] = field(default_factory=dict)
    # When a source's files replace its queue records wholesale, `store` is these two in
    # turn: a build stores only `store_rest` and holds `store_queue_records` back, because a
    # later file of the same source in the build would replace the records anyway.
    store_queue_records: Callable[[sqlite3.Connection], None] | None = None
    store_rest: Callable[[sqlite3.Connection], None] | None = None

    @property
    def rejected_records(self) -> int:
        return len(self.rejections)


def uncalibrated_parser(confidence: float) -> dict[str, Any]:
    """Fact-evidence members saying a parser's confidence is a heuristic, not calibrated."""
    return {
        "parserConfidence": confidence,
        "parserConfidenceIsCalibrated": False,
        "calibratedErrorProbability": None,
        "calibrationStatus": "unavailable_no_independent_labels",
        "route": "review_required_uncalibrated",
    }


def rejection(source_locator: str, *reasons: str) -> dict[str, Any]:
    return {"sourceLocator": source_locator, "reasons": list(reasons)}


def utc_now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def open_workbook(asset: Asset, expected: str) -> Workbook:
    """Return the workbook read-only with cached values (cells as openpyxl reads them), or
    a HarvestError naming the file."""
    try:
        return Workbook(asset.path)
    except UNREADABLE as exc:
        raise HarvestError(
            f"{asset.file_name}: not a readable .xlsx workbook (expected {expected}): {exc}"
        ) from exc


def worksheet(workbook: Workbook, name: str, asset: Asset, expected: str) -> Worksheet:
    """Return the named worksheet, or a HarvestError listing the sheets that are there."""
    if name not in workbook.sheetnames:
        found = ", ".join(repr(s) for s in workbook.sheetnames)
        raise HarvestError(
            f"{asset.file_name}: no worksheet {name!r} (expected {expected}); "
            f"the workbook has {found}"
        )
    return workbook[name]


def require_columns(
    header: list[str], required: list[str], asset: Asset, where: str
) -> dict[str, int]:
    """Return column name -> index for `required`, or a HarvestError naming the missing."""
    index = {name: i for i, name in enumerate(header) if name}
    missing = [name for name in required if name not in index]
    if missing:
        raise HarvestError(
            f"{asset.file_name}: {where} has no column {', '.join(repr(m) for m in missing)} "
            f"(expected columns: {', '.join(repr(r) for r in required)})"
        )
    return index


def cell_text(value: Any) -> str:
    """Return a cell as the publisher shows it: dates ISO, whole floats without '.0'."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0, 0):
            return value.date().isoformat()
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def column_letter(index: int) -> str:
    """Return the Excel column letter of a 0-based column index."""
    from openpyxl.utils import get_column_letter  # deferred: only spreadsheet harvests need it

    return get_column_letter(index + 1)


@dataclass(frozen=True)
class QueueSource:
    """Who publishes an interconnection queue report, and on what terms: what the evidence
    of each of its records names."""

    source_id: str
    source_name: str
    source_url: str
    authority: str
    terms: str
    redistribution: str


@dataclass(frozen=True)
class SheetRow:
    """One row of a queue report as published: its file, worksheet, row number and cells by
    header."""

    asset: Asset
    worksheet: str
    row: int
    published: Mapping[str, Any]


def queue_record_parts(
    source: QueueSource,
    at: SheetRow,
    record_id: str,
    record: Mapping[str, Any],
    details: Mapping[str, Any],
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Return (record, details, evidence) of one row of a queue report, as every queue
    harvester stores them: `record` gives what the harvester read for QUEUE_RECORD_FIELDS,
    `status` and `requestedCapacityMw`, `details` for QUEUE_DETAIL_FIELDS; the ids, locator,
    the row's cells as text and the evidence are built here (KeyError for a field left out).
    """
    locator = f"{at.asset.file_name}#{at.worksheet}!R{at.row}"
    source_row = {header: cell_text(value) for header, value in at.published.items()}
    queue_record = {
        "id": record_id,
        "sourceId": source.source_id,
        "assetHash": at.asset.sha256,
        **{name: record[name] for name in QUEUE_RECORD_FIELDS},
        "sourceLocator": locator,
        "evidenceUrl": source.source_url,
        "status": record["status"],
        "requestedCapacityMw": record["requestedCapacityMw"],
        "qualityFlags": [],
    }
    queue_details = {
        "recordId": record_id,
        **{name: details[name] for name in QUEUE_DETAIL_FIELDS},
        "evidence": {
            "assertionType": ASSERTION_OBSERVED,
            "authority": source.authority,
            "sourceLocator": locator,
            "originalRecord": source_row,
        },
        "qualityFlags": [],
    }
    evidence = {
        "recordId": record_id,
        "sourceId": source.source_id,
        "assetHash": at.asset.sha256,
        "sourceLocator": locator,
        "sourceName": source.source_name,
        "termsClassification": source.terms,
        "sourceUrl": source.source_url,
        "locator": {"type": "spreadsheet_row", "fileName": at.asset.file_name,
                    "worksheet": at.worksheet, "row": at.row},
        "sourceRow": source_row,
        "redistributionPolicy": source.redistribution,
    }  # fmt: skip
    return queue_record, queue_details, evidence
