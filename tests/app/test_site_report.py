"""The site report (PDF) of an assessment and its blinded variant, read back as text."""

from __future__ import annotations

import io
import math

import pytest
from conftest import ALPHA_TOKEN
from pypdf import PdfReader

from components import glossary, report, report_map
from components.sources import source_title
from gridclient import GridDataClient
from gridservice.demo import DEMO_POINTS

# Long enough to wrap in the title: the report must carry it whole
REFERENCE = "Zebra Falls campus, north annex of the Blanco river data hall programme, phase two"
OWNER = "acct-5501-bluebird"
# Markup in a name is text: it cannot end the report's style or load anything
MARKUP = '</style><img src="http://127.0.0.1:9/beacon.png">"; }'
# Points in PDF units (1/72 inch) of each paper size
PAPER = {"A4": (595.28, 841.89), "Letter": (612.0, 792.0)}


@pytest.fixture(scope="module")
def screened(demo_service):
    """(site, assessment, packet body) of an alpha site in Hays County whose name and owner
    also appear in its ramp profile, at coordinates with five significant decimals."""
    latitude, longitude = DEMO_POINTS["dual_certified"]
    with GridDataClient(base_url=demo_service, token=ALPHA_TOKEN) as client:
        site = client.sites.create(
            {
                "requestedPeakLoadMw": 300.0,
                "serviceVoltageKv": 138.0,
                "location": {"latitude": latitude + 0.01234, "longitude": longitude + 0.04321},
                "customerReference": REFERENCE,
                "metadata": {"owner": OWNER},
                "rampProfile": [{"step": 1, "mw": 20, "note": f"{REFERENCE} first hall"}],
            },
            idempotency_key="site-report-test-site",
        )
        assessment = client.assessments.create(site.id)
        packet = client.assessments.expert_review(assessment.id).raw_bytes
        return client.sites.get(site.id), assessment, packet


@pytest.fixture(scope="module")
def report_bytes(screened) -> bytes:
    site, assessment, _ = screened
    named = site.model_copy(update={"customer_reference": f"{MARKUP} {REFERENCE}"})
    return report.report_pdf(assessment, named)


@pytest.fixture(scope="module")
def report_pages(report_bytes) -> list[str]:
    return page_texts(report_bytes)


@pytest.fixture(scope="module")
def blinded_pages(screened) -> list[str]:
    return page_texts(report.blinded_report_pdf(screened[2]))


def page_texts(pdf: bytes) -> list[str]:
    assert pdf.startswith(b"%PDF-")
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def squeezed(text: str) -> str:
    """The text without its white space: a line broken anywhere still matches."""
    return "".join(text.split())


def holds(pages: list[str], expected: str) -> bool:
    return squeezed(expected) in squeezed(" ".join(pages))


def test_the_report_names_the_site_and_carries_its_band(screened, report_pages):
    site, assessment, _ = screened
    county = assessment.county
    for expected in (
        f"Site report: {MARKUP} {REFERENCE}",
        f"{site.location.latitude:.5f}, {site.location.longitude:.5f}",
        f"{county['name']}, {county['state']}",
        next(j["name"] for j in assessment.jurisdictions if j["level"] == "iso_rto"),
        f"{site.requested_peak_load_mw:,g} MW",
        f"{site.service_voltage_kv:,g} kV",
        glossary.label("readiness", assessment.readiness["level"]),
        assessment.id,
    ):
        assert holds(report_pages, expected), expected


def test_the_report_carries_findings_abstentions_limitations_and_the_disclaimer(
    screened, report_pages
):
    _, assessment, _ = screened
    readiness = assessment.readiness
    assert readiness["abstentions"] and readiness["limitations"], "the demo site abstains"
    for finding in readiness["findings"]:
        assert holds(report_pages, glossary.plain(finding["finding"])), finding["factor"]
    for abstention in readiness["abstentions"]:
        assert holds(report_pages, glossary.label("factor", abstention["factor"]))
        assert holds(report_pages, abstention["reason"])
    for limitation in readiness["limitations"]:
        assert holds(report_pages, glossary.plain(limitation))
    assert holds(report_pages, assessment.disclaimer)
    assert holds(report_pages, report.HEURISTIC_NOTE)


def test_the_report_names_each_source_with_the_date_of_its_newest_record(screened, report_pages):
    _, assessment, _ = screened
    records = [*assessment.relevant_queue_records, *assessment.relevant_transmission_projects]
    newest: dict[str, str] = {}
    for record in records:
        title = source_title(record.evidence or record, record.source_id)
        day = str(record.observed_at)[:10]
        newest[title] = max(newest.get(title, ""), day)
    assert newest
    for title, day in newest.items():
        assert holds(report_pages, f"{title} {day}"), title


def test_every_page_is_numbered_and_the_paper_is_the_one_asked_for(
    screened, report_bytes, report_pages
):
    pages = len(report_pages)
    for number, text in enumerate(report_pages, start=1):
        assert f"Page {number} of {pages}" in text
        assert "counter(page" not in text, "the report's style is shown as text"
    site, assessment, _ = screened
    letter = PdfReader(io.BytesIO(report.report_pdf(assessment, site, page_size="Letter")))
    box = letter.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx(PAPER["Letter"], abs=0.5)
    a4 = PdfReader(io.BytesIO(report_bytes)).pages[0].mediabox
    assert (float(a4.width), float(a4.height)) == pytest.approx(PAPER["A4"], abs=0.5)


def test_the_map_centres_the_pin_in_the_site_county_with_its_name_and_a_scale(screened):
    site, assessment, _ = screened
    county = assessment.county
    svg = report_map.site_map_svg(
        site.location.latitude, site.location.longitude, county["fips"], county["state"]
    )
    centre = f'cx="{report_map.WIDTH / 2}" cy="{report_map.HEIGHT / 2}"'
    assert centre in svg
    assert f">{county['name']}</text>" in svg
    assert f'fill="{report_map.SITE_FILL}"' in svg
    assert " km</text>" in svg
    frame = report_map.frame_around(site.location.latitude, site.location.longitude)
    # equal kilometres a pixel both ways: the counties keep their shapes
    km_per_pixel_north = (frame.north - frame.south) * report_map.KM_PER_DEGREE
    km_per_pixel_north /= report_map.HEIGHT
    assert 1 / frame.km_to_pixels(1) == pytest.approx(km_per_pixel_north, rel=0.01)
    assert math.isclose(frame.point(site.location.longitude, site.location.latitude)[0], 320)


def test_the_blinded_report_carries_nothing_the_packet_would_not(screened, blinded_pages):
    site, assessment, packet = screened
    text = " ".join(blinded_pages)
    case_id = report.blinded_packet(packet).case_id
    assert case_id and case_id in squeezed(text)
    for secret in (
        REFERENCE,
        "Zebra Falls",
        OWNER,
        assessment.id,
        site.id,
        site.tenant_id,
        f"{site.location.latitude:.3f}",
        f"{site.location.longitude:.3f}",
    ):
        assert squeezed(secret) not in squeezed(text), secret
    # the scrubbed ramp profile is shown as the packet has it, and the distance to the
    # nearest plant (which narrows the rounded point) is not shown at all
    assert "[redacted] first hall" in text
    assert "Nearest power plant" not in text
    rounded = f"{round(site.location.latitude, 1)}, {round(site.location.longitude, 1)}"
    assert rounded in text
    for finding in assessment.readiness["findings"]:
        assert holds(blinded_pages, glossary.label("factor", finding["factor"]))
