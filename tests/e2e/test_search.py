"""Search: ranked results with the term highlighted, and more on request."""

from __future__ import annotations

import re

from e2e_browser import assert_no_exception_box, open_page, screenshot, wait_for_run
from playwright.sync_api import expect

TERM = "transmission"


def result_count(page) -> int:
    return (
        page.locator('[data-testid="stVerticalBlockBorderWrapper"]')
        .filter(has_text=re.compile(r"rank \d"))
        .count()
    )


def test_search_highlights_ranks_and_loads_more(page, app_url, alpha_client):
    first_page = alpha_client.evidence.search(TERM, limit=10).pages()
    served = next(first_page)
    assert served.has_more, "the demo data should have more than ten matches"

    open_page(page, app_url, "evidence_search")
    screenshot(page, "search-00-opened", whole_page=False)
    box = page.get_by_role("textbox", name="Search the source evidence")
    box.fill(TERM)
    box.press("Enter")
    wait_for_run(page)
    expect(page.get_by_text(re.compile(r"^10 results so far, best first$"))).to_be_visible()
    assert f"q={TERM}" in page.url
    shown_ranks = re.findall(
        r"· rank (-?[\d.]+)", page.locator('[data-testid="stMain"]').inner_text()
    )
    served_ranks = [f"{chunk.to_wire()['rank']:.3f}" for chunk in served.data]
    assert shown_ranks == served_ranks, "results are not shown in the service's ranked order"
    highlighted = page.locator('[data-testid="stMain"] strong').filter(
        has_text=re.compile(rf"^{TERM}$", re.I)
    )
    assert highlighted.count() >= 10, "the search term is not highlighted in each result"
    first_section = page.locator('[data-testid="stMain"]').get_by_text(re.compile(r"^1\. "))
    expect(first_section).to_be_visible()
    screenshot(page, "search-01-results")

    page.get_by_role("button", name="More results").click()
    wait_for_run(page)
    expect(page.get_by_text(re.compile(r"^\d+ results( so far)?, best first$"))).to_be_visible()
    shown = int(
        re.search(r"(\d+) results", page.locator('[data-testid="stMain"]').inner_text()).group(1)
    )
    assert shown > 10
    screenshot(page, "search-02-more")
    assert_no_exception_box(page)
