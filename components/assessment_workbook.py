"""The assessment as a spreadsheet: the site's inputs, then one sheet per section (.xlsx).

Built from the same frames the page shows, headers in the analyst's words, written by the
app's one spreadsheet writer (`components.spreadsheets`: no cell runs as a formula). Cells
keep their types: numbers as numbers, days as dates, instants as date-times in UTC (the
header says so), and each column of codes in words with the codes in the column beside it.
The service's own CSV export stays beside it, unchanged.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pandas as pd

from components import assessment_view as view
from components import glossary, spreadsheets
from components.assessment_summary import site_facts
from components.assessment_table import assessment_table, input_text
from components.tables import sent_fields
from components.territory_view import candidates_frame
from gridclient import Assessment, ServiceTerritoryCandidate, Site

# Site members the summary shows in words (the market), or that are no input of the site.
NOT_INPUTS = {"tenant_id", "market", "latest_assessment", "latest_assessment_summary"}
# Code columns of the assessment's own tables, beside those every table shares
CODE_COLUMNS = {
    **glossary.CODE_COLUMNS,
    "Status now": "status",
    "Status in its source": "status",
    "Study phase": "firmness",
    "Authority": "authority",
}
WORDED_SHEETS = ("Site inputs", "Summary", "Findings")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# an instant as the service sends it (`2025-04-01T00:00:00Z`) or as the tables show it
_INSTANT = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")


def _utc(value: dt.datetime) -> dt.datetime:
    # a workbook holds no time zone: instants are written in UTC, which the header names
    if value.tzinfo is None:
        return value
    return value.astimezone(dt.UTC).replace(tzinfo=None)


def typed_cell(value: Any) -> Any:
    """Return a cell as a workbook should hold it: a number as a number, a day as a date, an
    instant as a date-time in UTC, an object in words; other text as it is."""
    if isinstance(value, dt.datetime):
        return _utc(value)
    if isinstance(value, dt.date | int | float | bool) or value is None:
        return value
    if isinstance(value, str):
        if _DAY.match(value):
            return dt.date.fromisoformat(value)
        if _INSTANT.match(value):
            try:
                return _utc(
                    dt.datetime.fromisoformat(
                        value.replace("Z", "+00:00").replace(" UTC", "+00:00")
                    )
                )
            except ValueError:
                return value
        return value
    return input_text(value)


def typed_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """Return the frame with `typed_cell` cells, each column of codes (`CODE_COLUMNS`)
    in words with a "<column> code" column beside it, and "(UTC)" on the header of a column
    holding instants."""
    typed = frame.astype(object).map(typed_cell)
    columns: dict[str, pd.Series] = {}
    for name in typed.columns:
        cells = typed[name]
        kind = CODE_COLUMNS.get(name)
        if kind is not None:
            columns[name] = cells.map(lambda code, k=kind: glossary.label(k, code) or None)
            columns[f"{name} code"] = cells
            continue
        holds_instants = any(isinstance(cell, dt.datetime) for cell in cells)
        columns[f"{name} (UTC)" if holds_instants else name] = cells
    return pd.DataFrame(columns, index=typed.index)


def site_inputs(site: Site | None) -> pd.DataFrame:
    """Return the site's definition as (input in words, value, field) rows, in the service's
    field order: the location as its latitude and longitude, each a number."""
    rows = []
    for name, value in sent_fields(site).items():
        if value is None or name in NOT_INPUTS:
            continue
        if name == "location":
            rows += [
                {"Input": "Latitude", "Value": value.latitude, "Field": "location.latitude"},
                {"Input": "Longitude", "Value": value.longitude, "Field": "location.longitude"},
            ]
            continue
        shown = value if isinstance(value, int | float | dt.date) else input_text(value)
        words = glossary.words(name) + (" (UTC)" if isinstance(value, dt.datetime) else "")
        rows.append({"Input": words, "Value": shown, "Field": name})
    return pd.DataFrame(rows, columns=["Input", "Value", "Field"])


def _findings(assessment: Assessment) -> pd.DataFrame:
    readiness = assessment.readiness or {}
    rows = [
        {"Factor": line["factor"], "Factor code": finding.get("factor"),
         "Severity": line["severity"], "Severity code": finding.get("severity"),
         "Finding": line["finding"], "Cites": line["cites"]}
        for line, finding in zip(
            view.finding_lines(readiness), readiness.get("findings") or [], strict=True
        )
    ]  # fmt: skip
    rows += [
        {"Factor": glossary.label("factor", a.get("factor")), "Factor code": a.get("factor"),
         "Severity": "Abstained", "Severity code": "abstained",
         "Finding": glossary.plain(a.get("reason") or ""), "Cites": ""}
        for a in readiness.get("abstentions") or []
    ]  # fmt: skip
    rows += [
        {"Factor": "Limitation", "Factor code": "limitation", "Severity": "",
         "Severity code": "", "Finding": glossary.plain(text), "Cites": ""}
        for text in readiness.get("limitations") or []
    ]  # fmt: skip
    columns = ["Factor", "Factor code", "Severity", "Severity code", "Finding", "Cites"]
    return pd.DataFrame(rows, columns=columns)


def _summary(assessment: Assessment, site: Site | None) -> pd.DataFrame:
    # the site first, named as the page's title and band name it: a reader of the sheet
    # alone knows which site it is
    named = [{"Item": item, "Value": value} for item, value in site_facts(assessment, site).items()]
    return pd.DataFrame(
        [
            *named,
            {"Item": "Assessment", "Value": assessment.id},
            {"Item": "Created (UTC)", "Value": assessment.created_at},
            {"Item": "Readiness", "Value": view.readiness_label(assessment.readiness)},
            {
                "Item": "Heuristic confidence (of the evidence, not accuracy)",
                "Value": (assessment.confidence or {}).get("label"),
            },
            {"Item": "Disclaimer", "Value": assessment.disclaimer},
        ]
    )


def assessment_sheets(assessment: Assessment, site: Site | None) -> dict[str, pd.DataFrame]:
    """Return sheet name -> table: the site's inputs first, then each section of the page."""
    territories = [
        ServiceTerritoryCandidate.model_validate(c)
        for c in assessment.service_territory_candidates or []
    ]
    return {
        "Site inputs": site_inputs(site),
        "Summary": _summary(assessment, site),
        "Findings": _findings(assessment),
        "Utility candidates": view.utility_frame(assessment.utility_candidates or []),
        "Territory candidates": candidates_frame(territories),
        "Tariff candidates": view.tariff_frame(assessment.tariff_candidates or []),
        "Market signals": view.market_signals_frame(assessment.market_signals or []),
        "Queue records": view.queue_records_frame(assessment.relevant_queue_records or []),
        "Transmission projects": view.transmission_frame(
            assessment.relevant_transmission_projects or []
        ),
    }


def assessment_xlsx(assessment: Assessment, site: Site | None) -> bytes:
    """Return the assessment's .xlsx: `assessment_sheets`, every cell typed (`typed_frame`)."""
    sheets = assessment_sheets(assessment, site)
    typed = {
        # the first three sheets carry their words and codes already
        name: frame.map(typed_cell) if name in WORDED_SHEETS else typed_frame(frame)
        for name, frame in sheets.items()
    }
    return spreadsheets.workbook_bytes(typed)


def assessment_csv(assessment: Assessment, site: Site | None) -> bytes:
    """Return the assessment as one wide CSV table (`assessment_table`), made safe."""
    return spreadsheets.csv_bytes(assessment_table(assessment, site))
