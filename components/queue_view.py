"""The interconnection queue: the records as a frame, its filters, its charts' frames, one record.

`GET /v1/queue-records` takes no filters (the interface shows none), so the app traverses
every record once per tenant and filters in memory. Technology and queue date are not in
the list: they live in each record's details, one request per record. The page loads
details only for a filtered set of at most `DETAILS_BUDGET` records, on request, and says so.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from components.tables import flags_text

DETAILS_BUDGET = 300

QUEUE_COLUMNS = [
    "id",
    "projectName",
    "market",
    "state",
    "county",
    "status",
    "requestedCapacityMw",
    "proposedDate",
    "pointOfInterconnection",
    "technology",
    "queueDate",
    "sourceId",
    "sourceLocator",
    "observedAt",
    "evidenceUrl",
    "qualityFlags",
]


@dataclasses.dataclass(frozen=True)
class QueueFilters:
    """What the analyst narrowed the queue to; empty lists and None mean no restriction."""

    states: tuple[str, ...] = ()
    counties: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    markets: tuple[str, ...] = ()
    technologies: tuple[str, ...] = ()
    min_mw: float | None = None
    max_mw: float | None = None
    proposed_from: dt.date | None = None
    proposed_to: dt.date | None = None


def queue_frame(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Return queue records (wire dicts) as a flat frame with provenance and flags as text."""
    rows = []
    for record in records:
        row = {column: record.get(column) for column in QUEUE_COLUMNS}
        row["qualityFlags"] = flags_text(record.get("qualityFlags"))
        rows.append(row)
    frame = pd.DataFrame(rows, columns=QUEUE_COLUMNS)
    frame["requestedCapacityMw"] = pd.to_numeric(frame["requestedCapacityMw"], errors="coerce")
    frame["proposedDate"] = pd.to_datetime(frame["proposedDate"], errors="coerce")
    frame["queueDate"] = pd.to_datetime(frame["queueDate"], errors="coerce")
    return frame


def with_details(frame: pd.DataFrame, details: Mapping[str, Mapping[str, Any]]) -> pd.DataFrame:
    """Return the frame with technology and queue date filled from fetched record details."""
    enriched = frame.copy()
    technology = {rid: d.get("technology") for rid, d in details.items()}
    queue_date = {rid: d.get("queueDate") for rid, d in details.items()}
    enriched["technology"] = enriched["id"].map(technology)
    enriched["queueDate"] = pd.to_datetime(enriched["id"].map(queue_date), errors="coerce")
    return enriched


def options(frame: pd.DataFrame, column: str) -> list[str]:
    """Return the distinct non-empty values of a column, sorted, for a filter's choices."""
    values = frame[column].dropna().astype(str)
    return sorted({value for value in values if value.strip()}, key=str.casefold)


def _in(column: pd.Series, chosen: tuple[str, ...]) -> pd.Series:
    folded = {value.casefold() for value in chosen}
    return column.fillna("").astype(str).str.casefold().isin(folded)


def filter_queue(frame: pd.DataFrame, filters: QueueFilters) -> pd.DataFrame:
    """Return the rows that pass every filter; a row without a value fails a bound on it."""
    keep = pd.Series(True, index=frame.index)
    for column, chosen in (
        ("state", filters.states),
        ("county", filters.counties),
        ("status", filters.statuses),
        ("market", filters.markets),
        ("technology", filters.technologies),
    ):
        if chosen:
            keep &= _in(frame[column], chosen)
    mw = frame["requestedCapacityMw"]
    if filters.min_mw is not None:
        keep &= mw >= filters.min_mw
    if filters.max_mw is not None:
        keep &= mw <= filters.max_mw
    proposed = frame["proposedDate"]
    if filters.proposed_from is not None:
        keep &= proposed >= pd.Timestamp(filters.proposed_from)
    if filters.proposed_to is not None:
        keep &= proposed <= pd.Timestamp(filters.proposed_to)
    return frame[keep]


def mw_by(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """Return requested MW and record counts grouped by a column (missing values as "unknown")."""
    keys = frame[column].fillna("unknown").astype(str).replace("", "unknown")
    grouped = (
        frame.assign(**{column: keys})
        .groupby(column, dropna=False)
        .agg(mw=("requestedCapacityMw", "sum"), records=("id", "count"))
        .reset_index()
        .sort_values(["mw", column], ascending=[False, True])
    )
    return grouped.reset_index(drop=True)


def entries_by_year(frame: pd.DataFrame, date_column: str) -> pd.DataFrame:
    """Return queue entries and their MW per year of `date_column`, rows without a date left out."""
    dated = frame.dropna(subset=[date_column])
    years = dated[date_column].dt.year.astype(int)
    grouped = (
        dated.assign(year=years)
        .groupby("year")
        .agg(records=("id", "count"), mw=("requestedCapacityMw", "sum"))
        .reset_index()
    )
    return grouped


def locator_rows(evidence: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return where the record sits in its source: file, worksheet and row, as labelled pairs."""
    locator = evidence.get("locator") or {}
    pairs = [
        ("Source", evidence.get("sourceName") or evidence.get("sourceId") or ""),
        ("Source id", evidence.get("sourceId") or ""),
        ("File", locator.get("fileName") or ""),
        ("Worksheet", locator.get("worksheet") or ""),
        ("Row", "" if locator.get("row") is None else str(locator.get("row"))),
        ("Locator", evidence.get("sourceLocator") or ""),
        ("Redistribution policy", evidence.get("redistributionPolicy") or ""),
        ("Terms", evidence.get("termsClassification") or ""),
        ("Asset hash", evidence.get("assetHash") or ""),
    ]
    return pairs


def details_rows(details: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return a record's details as labelled pairs, the capacity components joined as MW."""
    labels = {
        "queueDate": "Queue date",
        "onlineDate": "Online date",
        "withdrawnDate": "Withdrawn date",
        "interconnectionAgreementDate": "Interconnection agreement date",
        "studyPhaseOriginal": "Study phase (as published)",
        "studyPhaseNormalized": "Study phase (normalized)",
        "countyFips": "County FIPS",
        "regionOriginal": "Region (as published)",
        "utilityName": "Utility",
        "transmissionEntity": "Transmission entity",
        "developer": "Developer",
        "cluster": "Cluster",
        "serviceType": "Service type",
        "projectType": "Project type",
        "technology": "Technology",
    }
    pairs = [
        (label, "" if details.get(k) is None else str(details[k])) for k, label in labels.items()
    ]
    components = details.get("capacityComponentsMw") or []
    pairs.append(("Capacity components", ", ".join(f"{mw:g} MW" for mw in components)))
    return pairs
