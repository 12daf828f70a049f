"""The Generation map in a browser: its outlines and plants come from the app at addresses
named by their hash (`components.server.map_rows`), not inside the page's message, and a second tab
takes them from the browser's cache."""

from __future__ import annotations

import re

from e2e_browser import assert_no_exception_box, open_page

from components.server.map_rows import ROUTE

MAP = '[data-testid="stDeckGlJsonChart"]'

# what the page fetched of the map's rows: (address, bytes over the wire, bytes of the rows)
FETCHED = f"""() => performance.getEntriesByType('resource')
  .filter(e => e.name.includes({ROUTE!r}))
  .map(e => [e.name, e.transferSize, e.decodedBodySize])"""


def map_rows_fetched(page) -> dict[str, tuple[int, int]]:
    """Wait until the map has fetched both its layers' rows; return them by address."""
    page.locator(MAP).wait_for(state="visible")
    page.wait_for_function(f"() => ({FETCHED})().length >= 2")
    return {address: (wire, size) for address, wire, size in page.evaluate(FETCHED)}


def test_the_generation_map_fetches_its_rows_and_a_second_tab_keeps_them(page, app_url):
    frames: list[int] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(len(data))))
    open_page(page, app_url, "generation")
    fetched = map_rows_fetched(page)
    assert len(fetched) == 2, fetched  # the county outlines and the plants

    rows = {
        address: page.evaluate(f"fetch({address!r}).then(r => r.json())") for address in fetched
    }
    plants = next(r for r in rows.values() if r and "agencyPlantId" in r[0])
    outlines = next(r for r in rows.values() if r and "from" in r[0])
    shown = page.get_by_text(re.compile(r"[\d,]+ plants$")).first.inner_text()
    # every plant the page counts is drawn (the demo store holds fewer than the map's cap)
    assert len(plants) == int(re.search(r"([\d,]+) plants$", shown).group(1).replace(",", ""))
    assert len(outlines) > 5_000  # the region's county edges
    # and none of it came in the page's own message: the largest frame is far smaller
    assert max(frames) < min(size for _, size in fetched.values())
    assert_no_exception_box(page)

    second = page.context.new_page()
    open_page(second, app_url, "generation")
    again = map_rows_fetched(second)
    assert set(again) == set(fetched)  # the same rows, the same addresses
    for address, (wire, size) in again.items():
        assert size == fetched[address][1]
        assert wire == 0, f"{address} was fetched again ({wire} bytes), not read from the cache"
    second.close()
