"""The assessment's spreadsheet and wide table, and the portfolio's comparison workbook, as an
analyst opens them: numbers as numbers, dates as dates, words beside codes, the site on
every row."""

from __future__ import annotations

import datetime as dt
import io

import openpyxl
import pandas as pd
import pytest
from conftest import ALPHA_TOKEN

from components import assessment_workbook, glossary
from components import portfolio_view as view
from gridclient import GridDataClient
from gridservice.demo import DEMO_POINTS


@pytest.fixture(scope="module")
def screened(demo_service):
    """(site, assessment) of an alpha site in Hays County at 300 MW and 138 kV."""
    latitude, longitude = DEMO_POINTS["dual_certified"]
    with GridDataClient(base_url=demo_service, token=ALPHA_TOKEN) as client:
        site = client.sites.create(
            {
                "requestedPeakLoadMw": 300.0,
                "serviceVoltageKv": 138.0,
                "location": {"latitude": latitude, "longitude": longitude},
                "customerReference": "Export test campus",
            },
            idempotency_key="assessment-exports-test-site",
        )
        return client.sites.get(site.id), client.assessments.create(site.id)


@pytest.fixture(scope="module")
def book(screened) -> openpyxl.Workbook:
    site, assessment = screened
    return openpyxl.load_workbook(io.BytesIO(assessment_workbook.assessment_xlsx(assessment, site)))


def rows(sheet) -> list[dict]:
    header, *body = sheet.iter_rows(values_only=True)
    return [dict(zip(header, row, strict=True)) for row in body]


def test_the_wide_table_has_a_row_per_finding_and_record_each_with_the_site(screened):
    site, assessment = screened
    table = pd.read_csv(
        io.BytesIO(assessment_workbook.assessment_csv(assessment, site)), encoding="utf-8-sig"
    )
    readiness = assessment.readiness
    expected = {
        "finding": len(readiness["findings"]),
        "abstention": len(readiness["abstentions"]),
        "limitation": len(readiness["limitations"]),
        "queue_record": len(assessment.relevant_queue_records),
        "transmission_project": len(assessment.relevant_transmission_projects),
        "market_signal": len(assessment.market_signals),
    }
    counted = table["Section code"].value_counts()
    assert {code: counted.get(code, 0) for code in expected} == expected
    # the site's inputs on every row, as numbers
    assert (table["Latitude"] == site.location.latitude).all()
    assert (table["Requested peak load (MW)"] == site.requested_peak_load_mw).all()
    assert (table["Site"] == site.customer_reference).all()
    # labels in words, their codes beside them
    findings = table[table["Section code"] == "finding"]
    assert list(findings["Name code"]) == [f["factor"] for f in readiness["findings"]]
    assert list(findings["Name"]) == [
        glossary.label("factor", f["factor"]) for f in readiness["findings"]
    ]
    assert not findings["Name"].str.contains("_").any()
    queue = table[table["Section code"] == "queue_record"].set_index("Record id")
    for record in assessment.relevant_queue_records:
        assert queue.at[record.id, "MW"] == pytest.approx(record.requested_capacity_mw)


def test_the_site_inputs_sheet_holds_numbers_and_the_location_as_two_numbers(screened, book):
    site, _ = screened
    inputs = {row["Input"]: row["Value"] for row in rows(book["Site inputs"])}
    assert inputs["Latitude"] == pytest.approx(site.location.latitude)
    assert inputs["Longitude"] == pytest.approx(site.location.longitude)
    assert inputs["Requested peak load MW"] == site.requested_peak_load_mw
    assert isinstance(inputs["Created at (UTC)"], dt.datetime)
    assert not any(str(value).startswith("{") for value in inputs.values())


def test_record_sheets_hold_dates_as_dates_and_codes_beside_words(screened, book):
    _, assessment = screened
    queue = rows(book["Queue records"])
    by_id = {row["Record"]: row for row in queue}
    for record in assessment.relevant_queue_records:
        row = by_id[record.id]
        assert row["Requested MW"] == pytest.approx(record.requested_capacity_mw)
        if record.proposed_date:
            assert row["Proposed date"].date() == dt.date.fromisoformat(record.proposed_date)
    signals = rows(book["Market signals"])
    assert [row["Predicate code"] for row in signals] == [
        fact.predicate for fact in assessment.market_signals
    ]
    assert all("_" not in row["Predicate"] for row in signals)
    assert all(isinstance(row["Valid from"], dt.datetime) for row in signals)
    assert all(isinstance(row["Value"], int | float) for row in signals)
    summary = {row["Item"]: row["Value"] for row in rows(book["Summary"])}
    assert isinstance(summary["Created (UTC)"], dt.datetime)


def test_the_portfolio_workbook_stores_figures_as_numbers_that_sum(alpha_client):
    sites = [
        s
        for s in alpha_client.sites.list(include_latest_assessment_summary=True)
        if s.latest_assessment_summary
    ][:3]
    assert len(sites) >= 2
    comparison = view.comparison_frame(sites, dict.fromkeys(s.id for s in sites))
    workbook = openpyxl.load_workbook(io.BytesIO(view.comparison_xlsx(comparison, sites)))
    assert workbook.sheetnames == ["Figures", "Comparison"]
    figures = rows(workbook["Figures"])
    peaks = [row["Peak load (MW)"] for row in figures]
    assert sum(peaks) == pytest.approx(sum(s.requested_peak_load_mw for s in sites))
    queued = [row["Queued in the county (MW)"] for row in figures]
    assert all(value is None or isinstance(value, int | float) for value in queued)
    assert all(isinstance(row["Last screened (UTC)"], dt.datetime) for row in figures)


def test_no_cell_of_the_wide_table_starts_a_formula(screened):
    site, assessment = screened
    hostile = '=HYPERLINK("http://127.0.0.1:18799/x","x")'
    named = site.model_copy(update={"customer_reference": hostile})
    table = pd.read_csv(
        io.BytesIO(assessment_workbook.assessment_csv(assessment, named)), encoding="utf-8-sig"
    )
    assert set(table["Site"]) == {"'" + hostile}
    assert set(table["Customer reference"]) == {"'" + hostile}
