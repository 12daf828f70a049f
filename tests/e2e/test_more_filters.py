"""A page's less used filters in a browser: they wait in a "More filters" popover, drawn only
once it is opened; a value set there filters the page, goes into the URL and is counted on
the popover's label, and the popover stays open for the next one (AppTest has no popover to
open or keep open, so this is checked here)."""

from __future__ import annotations

import re

from e2e_browser import assert_no_exception_box, open_page, wait_for_run
from playwright.sync_api import expect


def shown_records(page) -> int:
    summary = page.get_by_text(re.compile(r"of [\d,]+ records · ")).first.inner_text()
    return int(summary.split(" of ")[0].replace(",", ""))


def test_a_filter_set_in_more_filters_is_counted_and_the_popover_stays_open(
    page, app_url, alpha_client
):
    records = alpha_client.queue_records.list().to_list()
    open_page(page, app_url, "queue")
    assert shown_records(page) == len(records)
    # closed, its inputs are not in the page at all
    assert page.get_by_label("Min MW").count() == 0

    page.get_by_role("button", name="More filters").click()
    minimum = page.get_by_label("Min MW")
    expect(minimum).to_be_visible()
    minimum.fill("100")
    minimum.press("Enter")
    wait_for_run(page, settle_ms=1000)

    bigger = [r for r in records if (r.requested_capacity_mw or 0) >= 100]
    expect(page.get_by_text(f"{len(bigger):,} of {len(records):,} records")).to_be_visible()
    expect(page.get_by_role("button", name="More filters · 1 set")).to_be_visible()
    assert "min_mw=100" in page.url
    # still open once the page has settled, on the value just set: the next filter is set
    # in the same popover without opening it again
    wait_for_run(page)
    assert page.get_by_label("Min MW").is_visible(), "the popover closed after a filter was set"
    expect(page.get_by_label("Min MW")).to_have_value("100.00")
    maximum = page.get_by_label("Max MW")
    maximum.fill("500")
    maximum.press("Enter")
    wait_for_run(page, settle_ms=1000)
    between = [r for r in bigger if (r.requested_capacity_mw or 0) <= 500]
    expect(page.get_by_text(f"{len(between):,} of {len(records):,} records")).to_be_visible()
    expect(page.get_by_role("button", name="More filters · 2 set")).to_be_visible()
    assert_no_exception_box(page)
