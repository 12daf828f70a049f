"""The CSV export: RFC 4180 text a spreadsheet reads as data, never as formulas."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE as workbook_rule
from screening_support import TENANT_ID, build_world, site
from spreadsheet_cells import FORMULA_STARTS, HOSTILE_TEXTS, assert_reads_as_text, held

from gridservice.screening import assessment_csv, export, screen_site

HOSTILE = [
    '=HYPERLINK("http://evil.example","click")',
    "+1+2",
    "-2+3",
    "@SUM(A1:A9)",
    "\tTabbed",
    "\rCarriage",
    'He said "hi", then left',
    "line one\nline two",
    "comma, separated",
    "Ünïcödé — 東京 ✓",
]


def parse(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.fixture(scope="module")
def assessment(tmp_path_factory) -> dict:
    conn = build_world(tmp_path_factory.mktemp("export") / "world.db")
    result = screen_site(
        conn,
        site("dual"),
        assessment_id="asm_csv",
        tenant_id=TENANT_ID,
        created_at="2025-07-02T10:00:00Z",
    )
    conn.close()
    return result


def test_csv_is_crlf_terminated_with_a_header(assessment):
    text = assessment_csv(assessment)
    assert text.startswith("section,item,field,value\r\n")
    assert text.endswith("\r\n")
    # Every line break outside a quoted cell is CRLF.
    assert "\n" not in text.replace("\r\n", "")


def test_csv_round_trips_the_assessment_values(assessment):
    rows = parse(assessment_csv(assessment))
    assert all(len(row) == 4 for row in rows)
    cells = {(r[0], r[1], r[2]): r[3] for r in rows}
    assert cells[("assessment", "", "id")] == "asm_csv"
    assert cells[("readiness", "", "level")] == assessment["readiness"]["level"]
    assert cells[("confidence", "", "isHeuristic")] == "true"
    finding = assessment["readiness"]["findings"][1]
    assert cells[("finding", finding["factor"], "finding")] == finding["finding"]
    assert cells[("finding", finding["factor"], "citations")] == "; ".join(finding["citations"])
    for record in assessment["relevantQueueRecords"]:
        assert cells[("queue_record", record["id"], "projectName")] == record["projectName"]
        assert (
            cells[("queue_record", record["id"], "queueDate")]
            == record["expandedDetails"]["queueDate"]
        )
    for project in assessment["relevantTransmissionProjects"]:
        assert cells[("transmission_project", project["id"], "serviceLevelKv")] == str(
            project["serviceLevelKv"]
        )
    risks = [r[3] for r in rows if r[0] == "risk"]
    assert risks == assessment["risks"]


def test_hostile_strings_are_quoted_and_neutralised(assessment):
    hostile = dict(assessment)
    hostile["risks"] = list(HOSTILE)
    hostile["nextActions"] = ["=1+1"]
    rows = parse(assessment_csv(hostile))
    risks = [r[3] for r in rows if r[0] == "risk"]
    assert len(risks) == len(HOSTILE)
    for original, cell in zip(HOSTILE, risks, strict=True):
        if original[0] in "=+-@\t\r":
            assert cell == "'" + original
        else:
            assert cell == original
    assert [r[3] for r in rows if r[0] == "next_action"] == ["'=1+1"]
    # No cell of the whole export can start a formula.
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))


def test_negative_numbers_are_neutralised_too(assessment):
    hostile = dict(assessment)
    hostile["confidence"] = {**assessment["confidence"], "score": -0.5}
    cells = {(r[0], r[2]): r[3] for r in parse(assessment_csv(hostile))}
    assert cells[("confidence", "score")] == "'-0.5"


def test_full_width_formulas_and_characters_a_workbook_cannot_hold_are_neutralised(assessment):
    texts = HOSTILE_TEXTS
    rows = parse(assessment_csv({**assessment, "risks": texts}))
    risks = [r[3] for r in rows if r[0] == "risk"]
    for original, cell in zip(texts, risks, strict=True):
        assert_reads_as_text(cell, original)


def test_point_outside_every_county_exports(tmp_path):
    conn = build_world(tmp_path / "outside.db")
    outside = screen_site(
        conn,
        site("outside"),
        assessment_id="asm_out",
        tenant_id=TENANT_ID,
        created_at="2025-07-02T10:00:00Z",
    )
    conn.close()
    rows = parse(assessment_csv(outside))
    cells = {(r[0], r[2]): r[3] for r in rows}
    assert cells[("county", "county")].startswith("none")
    assert cells[("readiness", "level")] == "insufficient_data"
    assert {r[1] for r in rows if r[0] == "abstention"} >= {"service_territory", "transmission"}


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(st.text(alphabet=st.characters(exclude_categories=("Cs",))), max_size=6))
def test_any_text_round_trips_neutralised(texts):
    assessment = {
        "risks": texts,
        "readiness": {"findings": [], "abstentions": [], "limitations": []},
    }
    rows = parse(assessment_csv(assessment))
    cells = [row[3] for row in rows if row[0] == "risk"]
    kept = [held(t) for t in texts]
    assert cells == ["'" + t if t.startswith(FORMULA_STARTS) else t for t in kept]


def test_the_characters_dropped_are_those_a_workbook_cannot_hold():
    # The service keeps its own copy of openpyxl's pattern (importing openpyxl cost every
    # start); a cell the service writes must still open in a workbook.
    assert export.ILLEGAL_CHARACTERS_RE.pattern == workbook_rule.pattern
