"""Quality flags of queue records and balancing-authority operations, and the /v1/quality report.

Every loader (the demo builder and the harvesters) calls `queue_quality_flags` and
`ba_operation_quality_flags` on each record it stores, and `compute_quality` recounts
the same rules over the stored rows, so the report is computed by the code that loaded
the data. None of this is field-accuracy validation: a flag says a value looks wrong or
is missing in the source, never that a clean value is right.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime
from typing import Any

from gridservice.catalogue import queue_status
from gridservice.catalogue.datasets import dataset_coverage, queue_history
from gridservice.store import quality_reads

Record = Mapping[str, Any]
Flag = dict[str, str]

POLICY = (
    "gridservice-quality-rules-v1: queue counts are the number of stored queue records "
    "carrying each flag, recomputed over the stored rows by the same rules the loaders "
    "applied (gridservice.catalogue.quality); a record counts once per code. Balancing-authority "
    "forecasts are quarantined (flagged, kept) when demandForecastMw > 3x demandMw or "
    "< 0.2x demandMw. Join coverage values are integer basis points (10000 = every row joins). "
    "sourcesDisagreeOnStatus counts queue records whose own source calls them active (or not) "
    "while a newer source on the same project says otherwise (gridservice.catalogue.queue_status); "
    "queueStatusDisagreements lists each with both locators."
)

# The queue count that is not a flag: records whose sources disagree on whether they are active.
STATUS_DISAGREEMENT_CODE = "sourcesDisagreeOnStatus"

# The status values a queue record may carry; anything else is `unknownStatus`.
KNOWN_QUEUE_STATUSES = frozenset({"active", "withdrawn", "operational", "suspended", "completed"})

_STATE_CODES_TEXT = (
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV "
    "NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR VI GU AS MP"
)
US_STATE_CODES = frozenset(_STATE_CODES_TEXT.split())

# Loaders that must invent a name for a nameless source row use this prefix (and only they).
SYNTHESIZED_NAME_PREFIX = "Unnamed queue request "

_UNRESOLVED_NAMES = frozenset({"tbd", "tba", "n/a", "na", "none", "-", "confidential", "unknown"})
_UNKNOWN_POI = frozenset({"unknown", "not known", "not provided", "not disclosed", "confidential"})
_UNRESOLVED_POI = frozenset(
    {"tbd", "tba", "to be determined", "pending", "various", "multiple", "n/a", "na", "-"}
)
# UTF-8 read as Windows-1252: 'é' -> 'Ã©', 'ñ' -> 'Ã±', '’' -> 'â€™', or a replacement char.
_MOJIBAKE = re.compile(
    "[\u00c3\u00c2][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6"
    "\u02dc\u2013-\u2122]|\u00e2\u20ac|\ufffd"
)

EXTREME_FORECAST_HIGH = 3.0
EXTREME_FORECAST_LOW = 0.2
EXTREME_FORECAST_CODE = "quarantinedExtremeForecast"

QUEUE_COUNT_CODES = (
    "missingCounty",
    "missingProposedDate",
    "synthesizedProjectName",
    "unresolvedProjectName",
    "missingPointOfInterconnection",
    "unresolvedPointOfInterconnection",
    "unknownPointOfInterconnection",
    "missingState",
    "unknownState",
    "unknownStatus",
    "zeroRequestedCapacity",
    "negativeRequestedCapacity",
    "suspectedProjectNameEncodingDamage",
    "suspectedPointOfInterconnectionEncodingDamage",
    "suspectedEncodingDamage",
    "activeWithWithdrawnDate",
    "proposedDateBeforeQueueDate",
    "onlineDateBeforeQueueDate",
    "withdrawnDateBeforeQueueDate",
    "interconnectionAgreementDateBeforeQueueDate",
)


# Flags of what a harvested queue row lacks (counted per market in quality.queueByMarket;
# the `queue` counts above keep the published list).
HARVEST_QUEUE_COUNT_CODES = ("unresolvedCounty", "missingRequestedCapacity")


def flag(code: str, field: str, message: str) -> Flag:
    """Return one quality flag (severity is always `info`)."""
    return {"code": code, "severity": "info", "field": field, "message": message}


def synthesized_project_name(record_key: str) -> str:
    """Return the name a loader gives a queue record whose source row has none."""
    return f"{SYNTHESIZED_NAME_PREFIX}{record_key}"


def is_encoding_damaged(value: object) -> bool:
    """Return True when a text looks like UTF-8 decoded as Windows-1252 (mojibake)."""
    if not isinstance(value, str) or value.isascii():
        return False
    return _MOJIBAKE.search(value) is not None


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _norm(value: object) -> str:
    return value.strip().lower() if isinstance(value, str) else ""


def _date(value: object) -> date | None:
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def _name_flags(record: Record) -> list[Flag]:
    name = record.get("projectName")
    if isinstance(name, str) and name.startswith(SYNTHESIZED_NAME_PREFIX):
        return [
            flag(
                "synthesizedProjectName",
                "projectName",
                "The source row has no project name; the loader synthesized one from the "
                "record key.",
            )
        ]
    if _blank(name) or _norm(name) in _UNRESOLVED_NAMES:
        return [
            flag(
                "unresolvedProjectName",
                "projectName",
                f"The project name {name!r} does not identify a project.",
            )
        ]
    return []


def _poi_flags(record: Record) -> list[Flag]:
    poi = record.get("pointOfInterconnection")
    field = "pointOfInterconnection"
    if _blank(poi):
        return [flag("missingPointOfInterconnection", field, "No point of interconnection.")]
    if _norm(poi) in _UNKNOWN_POI:
        return [
            flag(
                "unknownPointOfInterconnection",
                field,
                f"The source gives the point of interconnection as {poi!r}.",
            )
        ]
    if _norm(poi) in _UNRESOLVED_POI:
        return [
            flag(
                "unresolvedPointOfInterconnection",
                field,
                f"The point of interconnection {poi!r} names no substation or line.",
            )
        ]
    return []


def _location_flags(record: Record) -> list[Flag]:
    flags = []
    if _blank(record.get("county")):
        flags.append(flag("missingCounty", "county", "No county."))
    state = record.get("state")
    if _blank(state):
        flags.append(flag("missingState", "state", "No state."))
    elif state.strip().upper() not in US_STATE_CODES:
        flags.append(
            flag("unknownState", "state", f"{state!r} is not a US state or territory code.")
        )
    return flags


def _status_and_capacity_flags(record: Record, details: Record) -> list[Flag]:
    flags = []
    if _blank(record.get("proposedDate")):
        flags.append(flag("missingProposedDate", "proposedDate", "No proposed date."))
    status = _norm(record.get("status"))
    if status not in KNOWN_QUEUE_STATUSES:
        flags.append(
            flag("unknownStatus", "status", f"Status {record.get('status')!r} is not known.")
        )
    capacity = record.get("requestedCapacityMw")
    if isinstance(capacity, int | float) and capacity == 0:
        flags.append(flag("zeroRequestedCapacity", "requestedCapacityMw", "Requested 0 MW."))
    elif isinstance(capacity, int | float) and capacity < 0:
        flags.append(
            flag(
                "negativeRequestedCapacity",
                "requestedCapacityMw",
                f"Requested capacity is negative ({capacity} MW).",
            )
        )
    if status == "active" and not _blank(details.get("withdrawnDate")):
        flags.append(
            flag(
                "activeWithWithdrawnDate",
                "withdrawnDate",
                "The record is active but carries a withdrawn date.",
            )
        )
    return flags


def _encoding_flags(record: Record, details: Record) -> list[Flag]:
    flags = []
    if is_encoding_damaged(record.get("projectName")):
        flags.append(
            flag(
                "suspectedProjectNameEncodingDamage",
                "projectName",
                "The project name looks like UTF-8 text decoded as Windows-1252.",
            )
        )
    if is_encoding_damaged(record.get("pointOfInterconnection")):
        flags.append(
            flag(
                "suspectedPointOfInterconnectionEncodingDamage",
                "pointOfInterconnection",
                "The point of interconnection looks like UTF-8 text decoded as Windows-1252.",
            )
        )
    damaged = [
        key
        for source in (record, details)
        for key, value in source.items()
        if key not in ("qualityFlags", "evidence") and is_encoding_damaged(value)
    ]
    if damaged:
        flags.append(
            flag(
                "suspectedEncodingDamage",
                damaged[0],
                "Text looks like UTF-8 decoded as Windows-1252 in: " + ", ".join(damaged) + ".",
            )
        )
    return flags


_DATE_CHECKS = (
    ("proposedDateBeforeQueueDate", "proposedDate", "record", "proposed date"),
    ("onlineDateBeforeQueueDate", "onlineDate", "details", "online date"),
    ("withdrawnDateBeforeQueueDate", "withdrawnDate", "details", "withdrawn date"),
    (
        "interconnectionAgreementDateBeforeQueueDate",
        "interconnectionAgreementDate",
        "details",
        "interconnection agreement date",
    ),
)


def _date_flags(record: Record, details: Record) -> list[Flag]:
    queue_date = _date(details.get("queueDate"))
    if queue_date is None:
        return []
    flags = []
    for code, field, where, label in _DATE_CHECKS:
        value = (record if where == "record" else details).get(field)
        when = _date(value)
        if when is not None and when < queue_date:
            flags.append(
                flag(code, field, f"The {label} {value} is before the queue date {queue_date}.")
            )
    return flags


_QUEUE_RULES: tuple[Callable[[Record, Record], list[Flag]], ...] = (
    lambda r, d: _location_flags(r),
    lambda r, d: _name_flags(r),
    lambda r, d: _poi_flags(r),
    _status_and_capacity_flags,
    _encoding_flags,
    _date_flags,
)


def queue_quality_flags(record: Record, details: Record) -> list[Flag]:
    """Return the quality flags of a queue record and its details (empty when clean).

    `record` is the queue record wire body, `details` its details body; `qualityFlags`
    in either is ignored, so the flags can be recomputed from stored rows.
    """
    return [f for rule in _QUEUE_RULES for f in rule(record, details)]


def queue_harvest_flags(record: Record, details: Record) -> list[Flag]:
    """Return the flags of a queue record whose county or MW the harvest could not read."""
    flags = []
    county = record.get("county")
    if not _blank(county) and _blank(details.get("countyFips")):
        flags.append(
            flag(
                "unresolvedCounty",
                "county",
                f"{county!r} names no Census county of {record.get('state') or 'its state'}; "
                "kept as published, without a FIPS code.",
            )
        )
    if not isinstance(record.get("requestedCapacityMw"), int | float):
        flags.append(flag("missingRequestedCapacity", "requestedCapacityMw", "No requested MW."))
    return flags


def is_extreme_forecast(forecast_mw: object, demand_mw: object) -> bool:
    """Return True when a demand forecast is implausibly far from the demand it forecast."""
    if not isinstance(forecast_mw, int | float) or not isinstance(demand_mw, int | float):
        return False
    if demand_mw <= 0:
        return False
    ratio = forecast_mw / demand_mw
    return ratio > EXTREME_FORECAST_HIGH or ratio < EXTREME_FORECAST_LOW


def ba_operation_quality_flags(operation: Record) -> list[Flag]:
    """Return the quality flags of an hourly balancing-authority operation."""
    forecast, demand = operation.get("demandForecastMw"), operation.get("demandMw")
    if is_extreme_forecast(forecast, demand):
        return [
            flag(
                EXTREME_FORECAST_CODE,
                "demandForecastMw",
                f"Forecast {forecast} MW is outside {EXTREME_FORECAST_LOW}x to "
                f"{EXTREME_FORECAST_HIGH}x of demand {demand} MW; quarantined from analysis.",
            )
        ]
    return []


def _coverage_basis_points(total: int, missing: int) -> int:
    if total == 0:
        return 0
    return (total - missing) * 10000 // total


def _queue_counts(conn: sqlite3.Connection) -> tuple[dict[str, int], list[dict[str, Any]]]:
    """Return the queue counts, the records whose sources disagree on their status, and
    the counts per market."""
    counts = dict.fromkeys(("rows", *QUEUE_COUNT_CODES), 0)
    by_market: dict[str, dict[str, Any]] = {}
    disagreements = []
    for record, details in quality_reads.queue_bodies(conn):
        counts["rows"] += 1
        codes = {f["code"] for f in queue_quality_flags(record, details)}
        for code in codes:
            counts[code] += 1
        _count_market(by_market, record, details, codes)
        if queue_status.disagrees(record):
            disagreements.append(_status_disagreement(record))
    counts[STATUS_DISAGREEMENT_CODE] = len(disagreements)
    return counts, disagreements, dict(sorted(by_market.items()))


def _count_market(
    by_market: dict[str, dict[str, Any]], record: Record, details: Record, codes: set[str]
) -> None:
    """Add a record to its market's counts: rows, each flag code, rows per status."""
    market = str(record.get("market") or "unknown")
    counts = by_market.setdefault(
        market,
        {**dict.fromkeys(("rows", *QUEUE_COUNT_CODES, *HARVEST_QUEUE_COUNT_CODES), 0),
         "byStatus": {}},
    )  # fmt: skip
    counts["rows"] += 1
    for code in codes | {f["code"] for f in queue_harvest_flags(record, details)}:
        counts[code] += 1
    status = record.get("status") or ""
    counts["byStatus"][status] = counts["byStatus"].get(status, 0) + 1


def _status_disagreement(record: Record) -> dict[str, Any]:
    """Return one disagreement: the record's own word and the newer one, each with its cell."""
    now = record["statusNow"]
    return {
        "recordId": record.get("id"),
        "market": record.get("market"),
        "recordKey": record.get("recordKey"),
        "projectName": record.get("projectName"),
        "county": record.get("county"),
        "requestedCapacityMw": record.get("requestedCapacityMw"),
        "status": record.get("status"),
        "sourceId": record.get("sourceId"),
        "sourceLocator": record.get("sourceLocator"),
        "statusNow": now.get("status"),
        "statusNowDate": now.get("date"),
        "statusNowSourceId": now.get("sourceId"),
        "statusNowSourceLocator": now.get("sourceLocator"),
    }


def _ba_counts(conn: sqlite3.Connection) -> dict[str, int]:
    rows = quarantined = 0
    for forecast, demand in quality_reads.ba_forecasts(conn):
        rows += 1
        quarantined += is_extreme_forecast(forecast, demand)
    return {"rows": rows, "quarantinedExtremeForecasts": quarantined}


def _join_counts(conn: sqlite3.Connection) -> dict[str, int]:
    raw = quality_reads.join_counts(conn)
    generators, operations = raw["generator_rows"], raw["operation_rows"]
    return {
        "generatorRows": generators,
        "generatorsWithoutPlant": raw["generators_without_plant"],
        "generatorPlantCoverage": _coverage_basis_points(
            generators, raw["generators_without_plant"]
        ),
        "operationRows": operations,
        "operationsWithoutGenerator": raw["operations_without_generator"],
        "operationGeneratorCoverage": _coverage_basis_points(
            operations, raw["operations_without_generator"]
        ),
        "operationsWithoutPlant": raw["operations_without_plant"],
        "operationPlantCoverage": _coverage_basis_points(
            operations, raw["operations_without_plant"]
        ),
    }


def compute_quality(conn: sqlite3.Connection, *, generated_at: str | None = None) -> dict:
    """Return the `quality` object of /v1/quality, recounted from the stored rows.

    `generated_at` defaults to now (UTC); pass a fixed instant for a reproducible report.
    """
    if generated_at is None:
        generated_at = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    queue, disagreements, by_market = _queue_counts(conn)
    months = quality_reads.queue_report_months(conn)  # read once, for both extensions
    return {
        "generatedAt": generated_at,
        "scope": "commercial-core",
        "policy": POLICY,
        "queue": queue,
        "queueStatusDisagreements": disagreements,
        # Extension: the same counts per market, with the harvest's own flags and statuses.
        "queueByMarket": by_market,
        "balancingAuthorityOperations": _ba_counts(conn),
        "joins": _join_counts(conn),
        # Extensions: what the store holds and lacks, and the queue's monthly history.
        "datasets": dataset_coverage(conn, months),
        "queueHistory": queue_history(conn, months),
    }
