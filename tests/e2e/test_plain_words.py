"""The app speaks the analyst's language: no developer names on any page, bad input said out loud."""

from __future__ import annotations

import re

import pytest
from e2e_browser import assert_no_exception_box, open_page

# Every page's text is checked under AppTest (tests/app/test_visible_words.py, each page and
# the assessment); the browser checks what only it draws: the first page with its maps, a
# view opened by its address, the charts' and the assessment's text as laid out.
PAGES = [
    "",
    "queue?queue.view=Charts",  # each page's second view, opened by its address
    "generation?generation.view=Generators",
    "market_facts",
]
# snake_case (queue_congestion) and camelCase (generatorId) words
DEVELOPER_WORD = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z]+(?:[A-Z][a-z0-9]+)+\b")


def developer_words(text: str) -> set[str]:
    """Return the snake_case and camelCase words of a text, record ids and source locators
    (words with a digit, a hyphen, a dot or a bar, such as `asm_01hx`, `census_cb_2016_500k`
    or `ERCOT|summer_peak_demand_forecast|2026`) left out."""
    found = set()
    for word in re.split(r"[\s,;:()\[\]\"'·]+", text):
        if re.search(r"[\d\-./|]", word):
            continue
        found.update(DEVELOPER_WORD.findall(word))
    return found


def test_the_check_itself_tells_names_from_ids():
    assert developer_words("Abstained on queue_congestion; see generatorId") == {
        "queue_congestion",
        "generatorId",
    }
    assert developer_words("Cites demo-tp-ercot-00035, asm_01hx and census_cb_2016_500k") == set()
    assert developer_words("locator ERCOT|summer_peak_d…") == set()


@pytest.mark.parametrize("path", [*PAGES, "assessment"])
def test_no_page_shows_a_developer_name(page, app_url, alpha_assessment, path):
    if path == "assessment":
        path = f"assessment?assessment={alpha_assessment['id']}"
    open_page(page, app_url, path)
    page.wait_for_timeout(1000)  # charts and late text settle
    assert_no_exception_box(page)
    # Material icons are ligatures: their names are text in the page but are drawn as icons
    text = page.evaluate(
        """() => { const app = document.querySelector('[data-testid="stApp"]').cloneNode(true);
        app.querySelectorAll('[data-testid="stIconMaterial"]').forEach(i => i.remove());
        document.body.appendChild(app); const text = app.innerText; app.remove(); return text; }"""
    )
    found = developer_words(text)
    lines = [line for line in text.splitlines() if any(word in line for word in found)]
    assert not found, f"developer names on /{path}: {sorted(found)} in " + " | ".join(lines[:8])
