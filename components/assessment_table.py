"""The assessment as one wide table: a row per finding, abstention, limitation, candidate,
market signal, queue record and transmission project, each row carrying the site's inputs.

For a reader who filters and pivots in a spreadsheet: labels in words with their codes in
the column beside them, megawatts and other values as numbers (the unit in the header or
the Unit column), dates as ISO days, instants in UTC.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

import pandas as pd

from components import assessment_view as view
from components import glossary
from components.assessment_summary import site_facts
from components.tables import attribute, record_source_title, sent_fields
from gridclient import Assessment, Site
from gridclient.models import GridModel

ROW_COLUMNS = [
    "Section",
    "Section code",
    "Record id",
    "Name",
    "Name code",
    "Severity or status",
    "Severity or status code",
    "Detail",
    "MW",
    "Value",
    "Unit",
    "Date",
    "Record county",
    "Source",
    "Cites",
]


def input_text(value: Any) -> str:
    """Return an input or an opaque object in words: `name value` pairs, lists joined by
    `;`, a number as written, an instant to the minute with its zone."""
    if isinstance(value, GridModel):
        value = {k: v for k, v in sent_fields(value).items() if v is not None}
    if isinstance(value, dict):
        return ", ".join(f"{glossary.words(k).lower()} {input_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "; ".join(input_text(v) for v in value) or "none"
    if isinstance(value, float):
        return f"{value:,.8g}"  # a coordinate to about a metre
    return glossary.when(value) if hasattr(value, "isoformat") else str(value)


def site_columns(assessment: Assessment, site: Site | None) -> dict[str, Any]:
    """Return the site's inputs and the assessment's verdict as the table's first columns."""
    facts = site_facts(assessment, site)
    location = site.location if site is not None else None
    county = assessment.county or {}
    level = (assessment.readiness or {}).get("level")
    created = assessment.created_at
    return {
        "Site": facts["Site"],
        "Customer reference": site.customer_reference if site is not None else None,
        "Latitude": location.latitude if location is not None else None,
        "Longitude": location.longitude if location is not None else None,
        "County": facts["County"],
        "County FIPS": county.get("fips"),
        "Market": facts["Market"],
        "Requested peak load (MW)": site.requested_peak_load_mw if site is not None else None,
        "Service voltage (kV)": site.service_voltage_kv if site is not None else None,
        "Assessment": assessment.id,
        "Screened (UTC)": (
            created.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M") if created is not None else None
        ),
        "Readiness": view.readiness_label(assessment.readiness),
        "Readiness code": level,
    }


def _row(section: str, code: str, **cells: Any) -> dict[str, Any]:
    return {"Section": section, "Section code": code, **cells}


def _readiness_rows(readiness: dict[str, Any]) -> Iterable[dict[str, Any]]:
    for finding in readiness.get("findings") or []:
        severity = finding.get("severity")
        yield _row(
            "Finding", "finding",
            Name=glossary.label("factor", finding.get("factor")), **{"Name code": finding.get("factor")},
            **{"Severity or status": glossary.label("severity", severity),
               "Severity or status code": severity},
            Detail=glossary.plain(finding.get("finding") or ""),
            Cites=", ".join(str(c) for c in finding.get("citations") or []),
        )  # fmt: skip
    for abstention in readiness.get("abstentions") or []:
        yield _row(
            "Abstention", "abstention",
            Name=glossary.label("factor", abstention.get("factor")),
            **{"Name code": abstention.get("factor")},
            Detail=glossary.plain(abstention.get("reason") or ""),
        )  # fmt: skip
    for text in readiness.get("limitations") or []:
        yield _row("Limitation", "limitation", Detail=glossary.plain(text))


def _record_rows(assessment: Assessment) -> Iterable[dict[str, Any]]:
    for candidate in assessment.utility_candidates or []:
        yield _row(
            "Utility candidate", "utility_candidate",
            **{"Record id": candidate.get("utilityId")}, Name=candidate.get("utility"),
            Detail=glossary.words(candidate.get("confidenceBasis") or ""),
            Value=candidate.get("confidence"), Unit="heuristic confidence (0 to 1)",
        )  # fmt: skip
    for tariff in assessment.tariff_candidates or []:
        yield _row(
            "Tariff candidate", "tariff_candidate",
            **{"Record id": tariff.get("tariffId")}, Name=tariff.get("name"),
        )  # fmt: skip
    for fact in assessment.market_signals or []:
        yield _row(
            "Market signal", "market_signal",
            **{"Record id": fact.id, "Name code": fact.predicate},
            Name=glossary.label("predicate", fact.predicate),
            Detail=" ".join(str(p) for p in (fact.market, fact.period, fact.scenario) if p),
            Value=fact.value, Unit=fact.unit, Date=fact.valid_from,
            Source=record_source_title(fact),
        )  # fmt: skip
    for record in assessment.relevant_queue_records or []:
        status = attribute("status_now.status")(record) or record.status
        yield _row(
            "Queue record", "queue_record",
            **{"Record id": record.id, "Severity or status": glossary.label("status", status),
               "Severity or status code": status, "Record county": record.county},
            Name=record.project_name, MW=record.requested_capacity_mw,
            Date=record.proposed_date, Source=record_source_title(record),
        )  # fmt: skip
    for project in assessment.relevant_transmission_projects or []:
        yield _row(
            "Transmission project", "transmission_project",
            **{"Record id": project.id, "Severity or status": glossary.label("status", project.status),
               "Severity or status code": project.status,
               "Record county": ", ".join(project.counties or [])},
            Name=project.title, Value=project.service_level_kv, Unit="kV",
            Date=project.projected_in_service_date, Source=record_source_title(project),
        )  # fmt: skip


def assessment_table(assessment: Assessment, site: Site | None) -> pd.DataFrame:
    """Return the assessment as one wide table: the site's columns, then the row's own."""
    site_cells = site_columns(assessment, site)
    rows = [
        *_readiness_rows(assessment.readiness or {}),
        *_record_rows(assessment),
    ]
    frame = pd.DataFrame(rows, columns=ROW_COLUMNS)
    frame["Date"] = frame["Date"].map(
        lambda day: day.isoformat() if hasattr(day, "isoformat") else day
    )
    for position, (name, value) in enumerate(site_cells.items()):
        frame.insert(position, name, [value] * len(frame))
    return frame
