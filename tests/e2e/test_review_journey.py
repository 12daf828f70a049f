"""An expert reviewer's journey: the app opened with a demo reviewer's token shows only the
Expert reviews page, the reviewer fills the blinded packet's form factor by factor, attests
and submits, and the service holds exactly what was typed (one review, revision 1)."""

from __future__ import annotations

import pytest
from conftest import warm_up
from e2e_browser import (
    assert_no_exception_box,
    main_text,
    open_page,
    screenshot,
    start_streamlit,
    wait_for_run,
)
from playwright.sync_api import expect

from components.review_form import packet_factors
from gridclient import GridDataClient

REVIEWER_TOKEN = "gds_demo_reviewer_blake"
COMMENT = "<img src=x onerror=alert(1)> **not bold** =1+1"


@pytest.fixture(scope="module")
def reviewer_app_url(reference_service, browser, tmp_path_factory):
    """The app on the embedded demo over the session's database, opened as a reviewer."""
    log_path = tmp_path_factory.mktemp("e2e-logs") / "streamlit-reviewer.log"
    env = {"GRIDSERVICE_DB": str(reference_service.db_path), "GRID_API_TOKEN": REVIEWER_TOKEN}
    app = start_streamlit(env, log_path)
    warm_up(browser, app.url)
    yield app.url
    app.stop()


@pytest.fixture(scope="module")
def reviewer_client(reference_service):
    with GridDataClient(base_url=reference_service.base_url, token=REVIEWER_TOKEN) as client:
        yield client


def test_a_reviewer_fills_and_submits_a_review(new_page, reviewer_app_url, reviewer_client):
    waiting = [c for c in reviewer_client.reviews.cases() if not c.reviews]
    assert waiting, "the demo ships a case waiting for this reviewer"
    case_id = waiting[0].id
    factors = packet_factors(reviewer_client.reviews.packet(case_id))
    page = new_page()
    # a reviewer's only page is the app's first
    open_page(page, reviewer_app_url)
    expect(page.get_by_role("heading", name="Your review queue")).to_be_visible()
    assert "Screen a site" not in page.locator('[data-testid="stSidebar"]').inner_text()

    form = page.locator('[data-testid="stForm"]')
    for question, answer in (
        ("Your severity", "Medium"),
        ("Does the evidence support the finding?", "Yes"),
        ("Your confidence", "High"),
    ):
        groups = form.get_by_role("radiogroup", name=question)
        # the browser mounts the form's radios a few at a time after the run has ended:
        # counted before all are in, the journey would answer only the first to show
        expect(groups).to_have_count(len(factors))
        for index in range(len(factors)):
            groups.nth(index).get_by_text(answer, exact=True).click()
            expect(groups.nth(index).get_by_role("radio", name=answer)).to_be_checked()
    form.get_by_label("Comment (optional)").first.fill(COMMENT)
    form.get_by_text("I have no conflict of interest in this site.").click()
    form.get_by_text("I checked the evidence cited for each finding.").click()
    form.get_by_role("button", name="Submit my review").click()
    wait_for_run(page)

    expect(page.get_by_text(f"Your review of case {case_id} is in (revision 1).")).to_be_visible()
    (review,) = reviewer_client.reviews.get(case_id).reviews
    assert review.revision == 1 and review.source == "form"
    assert {a.severity for a in review.factors} == {"medium"}
    assert {a.confidence for a in review.factors} == {"high"}
    assert review.factors[0].comment == COMMENT
    assert "Reviews so far" in main_text(page)
    screenshot(page, "review-journey")
    assert_no_exception_box(page)
