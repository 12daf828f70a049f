"""Generation and the queue in a browser: each page's two views are tabs, only the open one
is drawn, and the open view is in the address, so a view can be shared.

AppTest runs a page without a browser: it reads a view from the address but does not show
what the browser writes back into it. That is checked here.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from e2e_browser import assert_no_exception_box, open_page, screenshot, wait_for_run
from playwright.sync_api import expect

from components import generation_view, queue_view

MAP = '[data-testid="stDeckGlJsonChart"]'
TABLE = '[data-testid="stDataFrame"]'
CHART = '[data-testid="stVegaLiteChart"]'

# (page, its views' key and labels, what the first view draws, what the second draws
# (a selector and how many))
PAGES = [
    ("generation", generation_view.VIEW_KEY, generation_view.VIEWS, (MAP, 1), (TABLE, 1)),
    ("queue", queue_view.VIEW_KEY, queue_view.VIEWS, (TABLE, 1), (CHART, 3)),
]


@pytest.mark.parametrize(("path", "key", "views", "first", "second"), PAGES, ids=["gen", "queue"])
def test_each_view_draws_only_itself_and_its_address_opens_it(
    page, app_url, path, key, views, first, second
):
    open_page(page, app_url, path)
    expect(page.locator(first[0])).to_have_count(first[1])
    expect(page.locator(second[0])).to_have_count(0)  # waits in its tab, not drawn
    assert not parse_qs(urlparse(page.url).query).get(key), "the first view is the default"

    page.get_by_role("tab", name=views[1]).click()
    wait_for_run(page)
    expect(page.locator(second[0])).to_have_count(second[1])
    expect(page.locator(first[0])).to_have_count(0)
    assert parse_qs(urlparse(page.url).query).get(key) == [views[1]]
    screenshot(page, f"views-{path}-{views[1].lower()}")
    assert_no_exception_box(page)

    # the address opens the same view in a new tab
    shared = page.context.new_page()
    shared.goto(page.url)
    wait_for_run(shared)
    expect(shared.locator(second[0])).to_have_count(second[1])
    expect(shared.locator(first[0])).to_have_count(0)
    shared.close()

    page.get_by_role("tab", name=views[0]).click()
    wait_for_run(page)
    expect(page.locator(first[0])).to_have_count(first[1])
    expect(page.locator(second[0])).to_have_count(0)
