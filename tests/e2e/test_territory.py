"""Territory: overlapping territories show every candidate with the heuristic label; none is said plainly."""

from __future__ import annotations

from e2e_browser import (
    assert_no_exception_box,
    dataframe_rows,
    drop_pin,
    main_text,
    open_page,
    screenshot,
)
from playwright.sync_api import expect

from gridservice.demo import DEMO_POINTS

HEURISTIC = "source-authority heuristic, not accuracy"


def test_overlapping_territories_show_both_candidates(page, app_url, alpha_client):
    latitude, longitude = DEMO_POINTS["dual_certified"]
    served = alpha_client.service_territories.resolve(latitude=latitude, longitude=longitude)
    utilities = sorted(c["utility"] for c in served.to_wire()["candidates"])
    assert len(utilities) == 2  # the demo data's promise; the page is checked against it below

    open_page(page, app_url, "service_territory")
    expect(page.get_by_text("No point yet")).to_be_visible()
    drop_pin(page, latitude, longitude)
    expect(page.get_by_text("2 territories overlap here")).to_be_visible()
    text = main_text(page)
    assert "County: Hays, TX (FIPS 48209)" in text
    assert f"Confidence is a {HEURISTIC}." in text
    rows = dataframe_rows(page, page.locator('[data-testid="stDataFrame"]').first)
    assert sorted(row["Utility"] for row in rows) == utilities
    assert all(row[f"Confidence ({HEURISTIC})"] for row in rows)
    screenshot(page, "territory-01-two-candidates")
    assert_no_exception_box(page)


def test_unserved_point_says_no_territory(page, app_url):
    latitude, longitude = DEMO_POINTS["unserved"]
    open_page(page, app_url, "service_territory")
    drop_pin(page, latitude, longitude)
    expect(page.get_by_text("No service territory found for this point.")).to_be_visible()
    assert "County: Dallas, TX" in main_text(page)
    assert page.locator('[data-testid="stDataFrame"]').count() == 0
    screenshot(page, "territory-02-unserved")
    assert_no_exception_box(page)
