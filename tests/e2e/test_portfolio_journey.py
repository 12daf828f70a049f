"""Portfolio: the tenant's sites in one table, the seeded site marked "changed since assessment"
with what moved near it, and a comparison opened from a shared URL, at 1280 and 1920 wide."""

from __future__ import annotations

import pytest
from e2e_browser import assert_no_exception_box, main_text, open_page, screenshot
from playwright.sync_api import expect

from gridservice.demo.portfolio import SEEDED_SITE, SEEDED_SITE_ID


@pytest.mark.parametrize("width", [1280, 1920])
def test_portfolio_marks_changes_and_compares_from_a_shared_url(
    new_page, app_url, alpha_assessment, alpha_client, width
):
    page = new_page()
    page.set_viewport_size({"width": width, "height": 1000})
    compared = [SEEDED_SITE_ID, alpha_assessment["siteId"]]
    open_page(page, app_url, "portfolio?" + "&".join(f"compare={s}" for s in compared))
    expect(page.get_by_role("heading", name="Portfolio")).to_be_visible()
    text = main_text(page)
    assert "Compare sites side by side" in text
    # The comparison came from the URL: both sites are chips, and the export buttons are drawn.
    chips = page.locator('[data-testid="stMultiSelect"]').filter(has_text="Sites to compare")
    expect(chips).to_contain_text(SEEDED_SITE["customerReference"])
    expect(page.get_by_role("button", name="Download the comparison (CSV)")).to_be_visible()
    expect(page.get_by_role("button", name="Download the comparison (Excel)")).to_be_visible()

    changes = alpha_client.sites.changes(SEEDED_SITE_ID)
    mark = page.get_by_text(f"{SEEDED_SITE['customerReference']}: changed since assessment")
    expect(mark).to_be_visible()
    mark.click()
    expect(page.get_by_text(changes.summary, exact=True)).to_be_visible()
    if changes.queue.left:
        expect(page.get_by_text("Left the queue", exact=False).first).to_be_visible()
    expect(page.get_by_role("button", name="Screen this site again")).to_be_visible()
    screenshot(page, f"portfolio-{width}")
    assert_no_exception_box(page)
