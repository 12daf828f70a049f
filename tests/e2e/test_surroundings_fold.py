"""The assessment's maps in a browser: the site's map waits in its fold, and the grid around
the site's map and tables in theirs, under the active queue in the radius; opened, they stay
open when the reader moves the radius, and follow it.

A folded section whose label changed with the radius folded again at each new radius in
Chromium: the expander's identity is its label. AppTest runs the page without a browser's
widget state, so the reader's path is checked here.
"""

from __future__ import annotations

from e2e_browser import assert_no_exception_box, open_page, screenshot, wait_for_run
from playwright.sync_api import expect

from components.assessment_view import SITE_MAP_LABEL
from components.surroundings_view import NEAR_LABEL


def test_the_opened_map_and_tables_follow_the_radius(page, app_url, alpha_client, alpha_assessment):
    site_id = alpha_assessment["siteId"]
    near = alpha_client.sites.surroundings(site_id, radius_km=40)

    open_page(page, app_url, f"assessment?assessment={alpha_assessment['id']}")
    expect(page.get_by_text(f"in the {len(near.counties)} counties within 40 km")).to_be_visible()
    counties_tab = page.get_by_role("tab", name="Counties")
    maps = page.locator('[data-testid="stDeckGlJsonChart"]')
    assert counties_tab.count() == 0, "the tables wait in the fold"
    expect(maps).to_have_count(0)  # the site's map waits in its own fold

    page.get_by_text(SITE_MAP_LABEL).click()
    wait_for_run(page)
    expect(maps).to_have_count(1)
    page.get_by_text(NEAR_LABEL).click()
    wait_for_run(page)
    expect(counties_tab).to_be_visible()
    expect(maps).to_have_count(2)

    slider = page.get_by_role("slider", name="Radius (km)")
    slider.focus()
    for _ in range(20):
        slider.press("ArrowRight")
    wait_for_run(page, settle_ms=1500)
    shown_radius = page.locator('[data-testid="stSlider"]').filter(has_text="Radius (km)")
    radius = int(shown_radius.get_by_test_id("stSliderThumbValue").inner_text())
    assert radius > 40, "the keys moved the radius"
    wider = alpha_client.sites.surroundings(site_id, radius_km=radius)
    shown = f"in the {len(wider.counties)} counties within {radius} km"
    expect(page.get_by_text(shown)).to_be_visible()
    # still open: the map and the tables, drawn for the new radius
    expect(counties_tab).to_be_visible()
    expect(maps).to_have_count(2)
    screenshot(page, "surroundings-02-radius-moved")
    assert_no_exception_box(page)
