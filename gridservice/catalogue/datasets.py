"""Which datasets the store holds, which it lacks, and what the queue history covers.

Two members of the /v1/quality report's `quality` object (an extension): `datasets`, one
entry per dataset the screening can use with its status (`held`, `partial`, `missing`),
row count and a note a page or finding can repeat where the reader looks; and
`queueHistory`, the harvested report months with their file, hash, run and rows per
status, and the interconnection points parsed from the queue's POI texts.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from gridservice.catalogue.dataset_declarations import DATASETS
from gridservice.store import quality_reads

# A current-generator count below this is not a state's full EIA-860 inventory (Texas alone
# has well over a thousand units), so the dataset is called partial.
FULL_INVENTORY_MIN_GENERATORS = 1000
EXTRACT_MISSING = [
    "security_ntp",
    "poi_location",
    "inactive sheet",
    "cancellation sheet",
    "commissioning sheet",
]

SHEET_OF_STATUS = {"inactive": "inactive", "cancelled": "cancellation",
                   "commissioned": "commissioning"}  # fmt: skip
# dataset -> (label, what is lost without it), as each dataset is declared.
CATALOGUE: dict[str, tuple[str, str]] = {
    dataset.name: (dataset.label, dataset.when_missing) for dataset in DATASETS
}


def dataset_coverage(conn: sqlite3.Connection, months: list[dict]) -> list[dict[str, Any]]:
    """Return each dataset's status, row count and note (see the module docstring); `months`:
    the harvested report months (`quality_reads.queue_report_months`)."""
    rows = quality_reads.dataset_rows(conn)
    notes = _notes(conn, months)
    coverage = []
    for name, (label, when_missing) in CATALOGUE.items():
        count = rows[name]
        status = "missing" if count == 0 else "held"
        note = when_missing if count == 0 else notes.get(name)
        if name == "generators" and 0 < count < FULL_INVENTORY_MIN_GENERATORS:
            status = "partial"
            note = (
                f"{count:,} current generators: a sample, not a full EIA-860 inventory; "
                "unit-level figures are incomplete."
            )
        coverage.append(
            {"dataset": name, "label": label, "status": status, "rows": count, "note": note}
        )
    return coverage


def _notes(conn: sqlite3.Connection, months: list[dict]) -> dict[str, str]:
    notes = {}
    if quality_reads.territory_methods(conn) == ["eia861_county_listing"]:
        notes["service_territories"] = (
            "EIA-861 county listings, not service-territory polygons: a point resolves to "
            "every utility listing its county."
        )
    if months:
        partial = [m["reportMonth"] for m in months if _missing(m)]
        notes["queue_history"] = (
            f"{len(months)} report months, {months[0]['reportMonth']} to "
            f"{months[-1]['reportMonth']}"
            + (
                f"; {len(partial)} of them from a key-column extract without financial "
                "security/NTP dates, POI text or the inactive, cancellation and "
                "commissioning sheets."
                if partial
                else "."
            )
        )
    return notes


def _missing(report: dict[str, Any]) -> list[str]:
    sheets = set(report["sheets"].split(",")) if report["sheets"] else set()
    return EXTRACT_MISSING if sheets and "inactive" not in sheets else []


def queue_history(conn: sqlite3.Connection, months: list[dict]) -> dict[str, Any]:
    """Return the harvested report months (`months`, as `quality_reads.queue_report_months`
    reads them) with what each lacks, and the parsed interconnection points."""
    reports = [dict(month) for month in months]
    for report in reports:
        report["missing"] = _missing(report)
        # A count of a sheet the source does not hold is unknown, not zero.
        sheets = set(report["sheets"].split(",")) if report["sheets"] else set()
        for status, sheet in SHEET_OF_STATUS.items():
            if sheets and sheet not in sheets:
                report[status] = None
    return {
        "reports": reports,
        "rowsWithoutCounty": quality_reads.history_rows_without_county(conn),
        "interconnectionPoints": quality_reads.interconnection_point_counts(conn),
    }
