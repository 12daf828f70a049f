"""A new tab timed with nothing listening: the page notes when its title and its content showed,
by the rule the page benchmark has always used, and the browser leaves nothing behind."""

from __future__ import annotations

from pathlib import Path

import pytest
from served_folder import served

from bench.bench_pages import CHROMIUM, CHROMIUM_ARGS

# a page that draws its title at 0.1 s and says its script has finished at 0.4 s, with a
# spinner until 1.5 s: content shows only once the spinner is gone too
PAGE = """<!doctype html><title>t</title>
<div data-testid="stApp" data-test-script-state="running">
  <div data-testid="stSpinner">Running</div></div>
<script>
const app = document.querySelector('[data-testid="stApp"]');
setTimeout(() => app.insertAdjacentHTML('beforeend', '<h1>Grid <span>page</span></h1>'), 100);
setTimeout(() => app.setAttribute('data-test-script-state', 'notRunning'), 400);
setTimeout(() => document.querySelector('[data-testid="stSpinner"]').remove(), 1500);
</script>"""


@pytest.fixture
def site(tmp_path):
    (tmp_path / "index.html").write_text(PAGE)

    with served(tmp_path) as base:
        yield f"{base}/index.html"


@pytest.fixture
def chromium():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install -y chromium)")
    from bench.bare_tabs import BareChromium

    browser = BareChromium(CHROMIUM, CHROMIUM_ARGS)
    yield browser
    browser.close()


def test_a_tab_is_timed_until_its_title_and_then_its_whole_content_show(site, chromium):
    title, content = chromium.time_tab(site, "Grid page")
    # The title (its text whole, across its markup) is drawn 0.1 s after the page's script
    # starts, the script says it has finished at 0.4 s, the spinner goes at 1.5 s: the content
    # is noted only then. How late a busy machine runs those timers is its own; only what the
    # page's order guarantees is asserted (a bound above failed at 0.49 s on a loaded CI run).
    assert 0.1 <= title < content
    assert content >= 1.5
    # each tab is closed once timed: only the browser's first tab is left
    targets = chromium.send("Target.getTargets")["targetInfos"]
    assert [t["url"] for t in targets if t["type"] == "page"] == ["about:blank"]


def test_a_title_that_never_shows_is_a_timeout_not_a_figure(site, chromium):
    with pytest.raises(TimeoutError, match="Another page"):
        chromium.time_tab(site, "Another page", timeout_s=1.5)


def test_closing_stops_the_browser_and_removes_its_profile(chromium):
    folder = chromium.folder
    assert (folder / "DevToolsActivePort").exists()
    chromium.close()
    assert chromium.process.poll() is not None
    assert not folder.exists()


# a page whose script has finished at 0.2 s while its grid waits in a placeholder until 0.8 s
PLACEHELD = """<!doctype html><title>t</title>
<div data-testid="stApp" data-test-script-state="running"><h1>Grid page</h1>
  <div data-testid="stSkeleton"></div></div>
<script>
const app = document.querySelector('[data-testid="stApp"]');
setTimeout(() => app.setAttribute('data-test-script-state', 'notRunning'), 200);
setTimeout(() => document.querySelector('[data-testid="stSkeleton"]')
  .replaceWith(Object.assign(document.createElement('canvas'), {id: 'grid'})), 800);
</script>"""


def test_a_tab_is_drawn_once_no_element_waits_in_a_placeholder(tmp_path, chromium):
    (tmp_path / "held.html").write_text(PLACEHELD)
    with served(tmp_path) as base:
        title, content, drawn = chromium.time_tab_drawn(f"{base}/held.html", "Grid page")
        # the content is noted when the run has finished, before the grid replaces its
        # placeholder; the page is drawn only then (the timers' order is all that is sure)
        assert title <= content < drawn
        assert drawn >= 0.8
