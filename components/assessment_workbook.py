"""The assessment as a spreadsheet: the site's inputs, then one sheet per section (.xlsx).

Built from the same frames the page shows, headers in the analyst's words, written by the
app's one spreadsheet writer (`components.spreadsheets`: no cell runs as a formula); the
service's own CSV export stays beside it, unchanged.
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd

from components import assessment_view as view
from components import glossary, spreadsheets
from components.assessment_summary import site_facts
from components.tables import sent_fields
from components.territory_view import candidates_frame
from gridclient import Assessment, ServiceTerritoryCandidate, Site
from gridclient.models import GridModel


def _text(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, default=str)
    if isinstance(value, GridModel):
        fields = {k: v for k, v in sent_fields(value).items() if v is not None}
        return json.dumps(fields, ensure_ascii=False, default=str)
    return glossary.when(value) if hasattr(value, "isoformat") else value


def site_inputs(site: Site | None) -> pd.DataFrame:
    """Return the site's definition as (input, value) rows, in the service's field order."""
    rows = [
        {"Input": glossary.words(name), "Value": _text(value)}
        for name, value in sent_fields(site).items()
        if value is not None and name not in ("tenant_id",)
    ]
    return pd.DataFrame(rows, columns=["Input", "Value"])


def _findings(assessment: Assessment) -> pd.DataFrame:
    readiness = assessment.readiness or {}
    rows = [
        {"Factor": line["factor"], "Severity": line["severity"], "Finding": line["finding"],
         "Cites": line["cites"]}
        for line in view.finding_lines(readiness)
    ]  # fmt: skip
    rows += [
        {"Factor": glossary.label("factor", a.get("factor")), "Severity": "Abstained",
         "Finding": glossary.plain(a.get("reason") or ""), "Cites": ""}
        for a in readiness.get("abstentions") or []
    ]  # fmt: skip
    rows += [
        {"Factor": "Limitation", "Severity": "", "Finding": glossary.plain(text), "Cites": ""}
        for text in readiness.get("limitations") or []
    ]
    return pd.DataFrame(rows, columns=["Factor", "Severity", "Finding", "Cites"])


def assessment_sheets(assessment: Assessment, site: Site | None) -> dict[str, pd.DataFrame]:
    """Return sheet name -> table: the site's inputs first, then each section of the page."""
    territories = [
        ServiceTerritoryCandidate.model_validate(c)
        for c in assessment.service_territory_candidates or []
    ]
    # the site first, named as the page's title and band name it: a reader of the sheet
    # alone knows which site it is
    named = [{"Item": item, "Value": value} for item, value in site_facts(assessment, site).items()]
    summary = pd.DataFrame(
        [
            *named,
            {"Item": "Assessment", "Value": assessment.id},
            {"Item": "Created", "Value": glossary.when(assessment.created_at)},
            {"Item": "Readiness", "Value": view.readiness_label(assessment.readiness)},
            {
                "Item": "Heuristic confidence (of the evidence, not accuracy)",
                "Value": (assessment.confidence or {}).get("label"),
            },
            {"Item": "Disclaimer", "Value": assessment.disclaimer},
        ]
    )
    return {
        "Site inputs": site_inputs(site),
        "Summary": summary,
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
    """Return the assessment's .xlsx: `assessment_sheets`, every cell as text or a number."""
    sheets = assessment_sheets(assessment, site)
    return spreadsheets.workbook_bytes({name: frame.map(_text) for name, frame in sheets.items()})
