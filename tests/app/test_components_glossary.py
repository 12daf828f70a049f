"""The glossary: codes and field names in the analyst's words, checked against the sources."""

from __future__ import annotations

import csv
import datetime as dt
import re
from pathlib import Path

import pandas as pd
import pytest

from components import glossary

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
GIS_REPORT = DATA / "ercot_gis_queue" / "GIS_Report_November2025.xlsx"
EIA_CODES = DATA / "eia_codes"


def _acronyms() -> tuple[dict[str, str], dict[str, str]]:
    """Return (fuel, technology) code -> description from the GIS report's "Acronyms" sheet."""
    openpyxl = pytest.importorskip("openpyxl")
    if not GIS_REPORT.exists():
        pytest.skip(f"{GIS_REPORT} is missing: the shared public data is not installed")
    book = openpyxl.load_workbook(GIS_REPORT, read_only=True)
    try:
        rows = list(book["Acronyms"].iter_rows(values_only=True))
    finally:
        book.close()
    start = next(i for i, row in enumerate(rows) if row[0] == "Fuel Types")
    fuels, technologies = {}, {}
    for row in rows[start + 1 :]:
        for cell, found in zip(row[:2], (fuels, technologies), strict=True):
            if cell and " = " in str(cell):
                code, description = str(cell).split(" = ", 1)
                found[code.strip()] = description.strip()
    return fuels, technologies


def _first_word(text: str) -> str:
    return re.split(r"[\s,-]+", text.strip().lower())[0]


def test_every_ercot_fuel_and_technology_code_has_the_reports_meaning():
    fuels, technologies = _acronyms()
    assert fuels and technologies
    for codes, kind in ((fuels, "fuel"), (technologies, "technology")):
        for code, description in codes.items():
            shown = glossary.label(kind, code)
            assert shown != code, f"{kind} {code} has no label"
            assert _first_word(shown) == _first_word(description), (code, shown, description)


def test_eia_codes_in_the_glossary_are_eia_codes():
    if not EIA_CODES.exists():
        pytest.skip(f"{EIA_CODES} is missing: the shared public data is not installed")

    def codes(name: str) -> dict[str, str]:
        with (EIA_CODES / name).open(encoding="utf-8") as handle:
            return {row["code"]: row["description"] for row in csv.DictReader(handle)}

    sources, movers = codes("energy_sources_eia.csv"), codes("prime_movers_eia.csv")
    for code, shown in glossary.ENERGY_SOURCES.items():
        assert code in sources, code
        assert _first_word(shown) in sources[code].lower(), (code, shown, sources[code])
    # every prime mover the EIA lists gets a label (ERCOT's own codes are the same letters)
    assert set(movers) <= set(glossary.TECHNOLOGIES)


def test_codes_and_names_read_as_words():
    assert glossary.label("factor", "queue_congestion") == "Queue congestion"
    assert glossary.label("market", "ERCO") == "ERCOT"
    assert glossary.label_with_code("technology", "PV") == "Photovoltaic solar (PV)"
    # a spelt-out code never shows its underscores, even when unknown to the glossary
    assert glossary.label_with_code("status", "in_service") == "In service"
    assert glossary.label("status", "awaiting_review") == "Awaiting review"
    assert glossary.column_label("balancingAuthorityCode") == "Balancing authority"
    assert glossary.column_label("totalInterchangeMw") == "Total interchange (MW)"
    assert glossary.column_label("someNewFieldMw") == "Some new field (MW)"
    assert glossary.plain("abstained on queue_congestion") == "abstained on queue congestion"
    # wire names quoted in service prose are spelt out; cited record ids are left whole
    assert glossary.plain("acceptedRecords / inputRecords of a run") == (
        "accepted records / input records of a run"
    )
    assert glossary.plain("see queueHistory; cites asm_01hx, census_cb_2016_500k") == (
        "see queue history; cites asm_01hx, census_cb_2016_500k"
    )


def test_instants_to_the_minute_with_their_zone_and_megawatts_with_separators():
    assert glossary.when("2025-11-30T14:05:33.123456Z") == "2025-11-30 14:05 UTC"
    assert glossary.when(dt.datetime(2025, 1, 2, 3, 4, 5, tzinfo=dt.UTC)) == "2025-01-02 03:04 UTC"
    assert glossary.when(dt.date(2026, 6, 1)) == "2026-06-01"
    assert glossary.when(None) == ""
    assert glossary.mw(12345.4) == "12,345 MW"
    assert glossary.mw(None) == ""


def test_a_table_labels_every_header_and_keeps_the_field_name_in_its_tooltip():
    frame = pd.DataFrame(
        {
            "generatorId": ["g1"],
            "primeMoverCode": ["GT"],
            "status": ["under_construction"],
            "observedAt": ["2025-08-01T09:00:00Z"],
        }
    )
    shown = glossary.table(frame, {"generatorId": None})
    data, config = shown["data"], shown["column_config"]
    assert data.loc[0, "primeMoverCode"] == "Combustion (gas) turbine (GT)"
    assert data.loc[0, "status"] == "Under construction"
    assert data.loc[0, "observedAt"] == "2025-08-01 09:00 UTC"
    assert config["generatorId"] is None  # a hidden column stays hidden
    assert config["primeMoverCode"]["label"] == "Prime mover"
    assert "primeMoverCode" in config["primeMoverCode"]["help"]
    assert config["observedAt"]["label"] == "Observed at"


def test_a_long_table_reads_as_each_of_its_rows_alone_would():
    # Text without instants is checked in C and source names are worked out per source (the whole queue at scale 100 took 1.4 to 1.9 s cell by cell): each row must read
    # as it does relabelled alone, missing cells and locators with two `#` included.
    rows = 600
    frame = pd.DataFrame(
        {
            "id": [f"r{n}" for n in range(rows)],
            "sourceId": [("ercot_gis_report", None, "lbnl_queued_up")[n % 3] for n in range(rows)],
            "sourceLocator": [
                (f"GIS_Report_November2025.xlsx#Large Gen!R{n}", None, "queued_up_2025.xlsx#a#b")[
                    n % 3
                ]
                for n in range(rows)
            ],
            "observedAt": [
                ("2025-08-01T09:00:00Z", "not an instant", None, "2026-01-02T03:04:05+00:00")[n % 4]
                for n in range(rows)
            ],
            "projectName": [f"Lark {n} Solar" if n % 5 else None for n in range(rows)],
            "mixed": [n if n % 2 else f"text {n}" for n in range(rows)],
        }
    )
    whole = glossary.table(frame)["data"]
    assert whole["observedAt"].iloc[0] == "2025-08-01 09:00 UTC"
    # a frame without the service's publisher gets no source name made up of its ids: the id
    # stays in its own column, never shown as a source's name
    assert "source" not in whole.columns
    assert whole["sourceId"].equals(frame["sourceId"])
    for n in (0, 1, 2, 3, 5, 7, 10, 599):
        alone = glossary.table(frame.iloc[[n]].reset_index(drop=True))["data"]
        assert whole.iloc[[n]].reset_index(drop=True).astype(object).equals(alone.astype(object))
