"""ERCOT's large-load status deck: searchable chunks with page boxes, headline figures as facts.

Expected values are read here from the PDF's own text (page text, and the text inside each
fact's box), not from the harvester's output.
"""

from __future__ import annotations

import json
import re

import pdfplumber
import pytest
from harvest_support import data_file, fresh_store, truncated_copy

from gridservice.harvest import HarvestError, run_harvest

DECK = "ercot_large_load/ercot_lli_queue_2024-09-06.pdf"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    conn = fresh_store(tmp_path_factory.mktemp("lli") / "store.db")
    run = run_harvest(conn, "ercot-large-load", data_file(DECK)).run
    yield conn, run
    conn.close()


@pytest.fixture(scope="module")
def pdf():
    with pdfplumber.open(data_file(DECK)) as document:
        yield document


def facts(conn) -> dict[tuple[str, str], dict]:
    bodies = [json.loads(r[0]) for r in conn.execute("SELECT body FROM facts")]
    return {(f["predicate"], f["subjectId"]): f for f in bodies}


def flat(text: str) -> str:
    return re.sub(r"-\s+", "-", " ".join(text.split()))


def test_headline_figures_are_the_numbers_the_deck_states(store, pdf):
    conn, run = store
    text = {n: flat(page.extract_text()) for n, page in enumerate(pdf.pages, 1)}

    def stated(page: int, pattern: str) -> float:
        return float(re.search(pattern, text[page]).group(1).replace(",", ""))

    approved = stated(5, r"Of the total ([\d,]+) MW Approved to Energize")
    west = stated(5, r"([\d,]+) MW resides in LZ_WEST")
    other = stated(5, r"and ([\d,]+) MW resides in the other")
    got = facts(conn)
    assert got[("large_load_approved_to_energize_mw", "market:ERCOT")]["value"] == approved
    assert got[("large_load_approved_to_energize_mw", "load_zone:LZ_WEST")]["value"] == west
    zones = "load_zones:LZ_NORTH+LZ_SOUTH+LZ_HOUSTON"
    assert got[("large_load_approved_to_energize_mw", zones)]["value"] == other
    assert west + other == approved  # the deck's own arithmetic holds
    assert got[("large_load_observed_simultaneous_peak_mw", "market:ERCOT")]["value"] == stated(
        7, r"simultaneous peak consumption of ([\d,]+) MW"
    )
    assert got[("large_load_observed_non_simultaneous_peak_mw", "market:ERCOT")]["value"] == (
        stated(6, r"non-simultaneous peak consumption of ([\d,]+) MW")
    )
    assert (run["inputRecords"], run["acceptedRecords"], run["rejectedRecords"]) == (9, 9, 0)


def test_each_fact_points_to_its_page_and_a_box_around_the_figure(store, pdf):
    conn, _ = store
    for fact in facts(conn).values():
        evidence = fact["evidence"]
        page = pdf.pages[evidence["page"] - 1]
        assert (evidence["pageWidth"], evidence["pageHeight"]) == (page.width, page.height)
        inside = page.crop(evidence["boundingBox"]).extract_text()
        assert f"{fact['value']:,.0f}" in inside, fact["id"]
        assert flat(evidence["quote"]) in flat(page.extract_text())
        assert fact["unit"] == "MW" and fact["knownFrom"] == "2024-09-06T00:00:00Z"
        assert (
            evidence["sourceLocator"] == f"ercot_lli_queue_2024-09-06.pdf#page={evidence['page']}"
        )


def test_the_deck_text_is_searchable_with_page_and_box(store, pdf):
    conn, _ = store
    rows = conn.execute(
        "SELECT c.page, c.body FROM evidence_fts f JOIN evidence_chunks c ON c.rowid = f.rowid "
        "WHERE evidence_fts MATCH 'simultaneous peak' ORDER BY c.page"
    ).fetchall()
    assert [r[0] for r in rows] == [6, 7]
    for page_number, body in rows:
        chunk = json.loads(body)
        page = pdf.pages[page_number - 1]
        assert "simultaneous" in page.crop(chunk["boundingBox"]).extract_text()
    pages = {r[0] for r in conn.execute("SELECT DISTINCT page FROM evidence_chunks")}
    assert pages == set(range(1, len(pdf.pages) + 1))


def test_a_file_that_is_not_a_readable_pdf_is_refused(tmp_path):
    conn = fresh_store(tmp_path / "store.db")
    bad = truncated_copy(data_file(DECK), tmp_path / "ercot_lli_queue_2024-09-06.pdf")
    with pytest.raises(HarvestError, match="ercot_lli_queue_2024-09-06.pdf"):
        run_harvest(conn, "ercot-large-load", bad)
    assert conn.execute("SELECT count(*) FROM facts").fetchone()[0] == 0
