"""Open each page of the app in headless Chromium, time it until its content shows, and time
the map picker's clicks.

Usage:
    uv run python bench/bench_pages.py [--rounds 5] [--url http://localhost:8501]
    uv run python bench/bench_pages.py --scales 1 10 100 [--data-dir DIR] [--rounds 5]
    uv run python bench/bench_pages.py --floor [--url ...]   # and a three-page app's new tabs

Without --url or --scales, starts the reference service on a fresh demo database (in a
temporary folder), screens one site there as demo-alpha, and runs `streamlit run app.py`
against it (GRID_API_BASE_URL / GRID_API_TOKEN), so the assessment page is timed with a real
assessment; everything is stopped at the end. With --scales, does the same once per scale
on `<data-dir>/scale<N>.db` (built with `gridservice demo-data --scale N` when missing, kept
for later runs), the service in its own process.
"Content shows" means the page's own title is drawn, no spinner is left and the app says its
script has finished (`data-test-script-state` on the app root; Streamlit's "Running" widget
appears only after 500 ms, so its absence alone would end a timing early); the first, cold
load of the whole app is reported apart. A new tab is also timed until every element is drawn:
the content is noted once the run has finished, while a data grid, a chart, a map or a widget
can still wait in a placeholder for its code to load (`bare_tabs.PLACEHOLDER`; the queue's grid drew
about 0.2 s after its content, 28 Nov 2026). Each browser context is a Chromium of its own on a
profile folder on disk, as an analyst's browser is, so a later tab finds Streamlit's
JavaScript compiled in V8's code cache; `--private` opens private windows instead (the
figures before 27 Nov 2026, evening), where each tab compiles it again. A new tab is opened
and timed in a Chromium driven over the DevTools protocol with nothing listening
(`bench/bare_tabs.py`): Playwright has Chromium report every request and WebSocket frame to it,
payload included, which added 0.07 to 0.3 s to a new tab; `--playwright-tabs` times new tabs
through Playwright as the figures before 28 Nov 2026, afternoon, were. Two ways to reach a
page are timed: a new tab (a new Streamlit session: a shared link, a bookmark) and a click
in the app's sidebar (the session
goes on: how an analyst moves from page to page), each page reached from the one before it
in the sidebar's order; the assessment is also opened by its id from the Assessment page, and
then two parts it draws on demand, each a fragment's run, are timed until their table is drawn
and until the run has finished: its first folded record table opened, and the Nearest plants
tab of the grid around the site chosen.
A map click is timed from the click until the latitude field shows the new point, the picker's run has finished and the
map has drawn two frames: the first click on the region view (which also brings the view to
the pin's surroundings), then clicks in the surroundings view; each click also reports the CPU
time Chromium's GPU process (software WebGL: drawing and picking) and renderers (JavaScript,
layout) spent on it, read from /proc. Prints Markdown tables with
p50 and max, the machine and the load average before and after; targets: page p50 < 1 s,
map click p50 < 400 ms (scale 10, quiet machine).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.bare_tabs import PLACEHOLDER, SCRIPT_IDLE, BareChromium
from bench.cpu_accounting import clock_ticks, read_processes, tree_members, tree_ticks
from bench.peers import servers as peer_servers
from gridclient import GridDataClient
from gridservice.settings import Settings

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# (url path, the title the page draws when its content is there)
PAGES = [
    ("", "Screen a site"),  # the default page lives at the root
    ("service_territory", "Service territory"),
    ("assessment", "Assessment"),
    ("portfolio", "Portfolio"),
    ("queue", "Interconnection queue"),
    ("transmission", "Transmission projects"),
    ("generation", "Generation"),
    ("grid_operations", "Grid operations"),
    ("market_facts", "Market facts"),
    ("evidence_search", "Evidence search"),
    ("dockets", "Dockets"),
    ("data_quality", "Data quality & release"),
]
# the sidebar's links in its order: (the link's label, the title of the page it opens)
SIDEBAR = [
    ("Screen a site", "Screen a site"),
    ("Service territory", "Service territory"),
    ("Assessment", "Assessment"),
    ("Portfolio", "Portfolio"),
    ("Interconnection queue", "Interconnection queue"),
    ("Transmission", "Transmission projects"),
    ("Generation", "Generation"),
    ("Grid operations", "Grid operations"),
    ("Market facts", "Market facts"),
    ("Evidence search", "Evidence search"),
    ("Dockets", "Dockets"),
    ("Data quality & release", "Data quality & release"),
]
OPENED_BY_ID = "Assessment, opened by its id"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_service(db_path: Path):
    """Start the reference service and screen one site; return (server, assessment id)."""
    # Deferred: the service (FastAPI, uvicorn, shapely) loads only when the benchmark serves.
    from gridservice.demo import DEMO_POINTS
    from gridservice.runtime.server import start_in_thread

    server = start_in_thread(Settings(db_path=db_path, demo=True))
    latitude, longitude = DEMO_POINTS["dual_certified"]
    with GridDataClient(base_url=server.base_url, token="gds_demo_alpha") as client:
        site = client.sites.create(
            {
                "requestedPeakLoadMw": 300.0,
                "location": {"latitude": latitude, "longitude": longitude},
            }
        )
        assessment = client.assessments.create(site.id)
    return server, assessment.id


def start_app(port: int, service_url: str, token: str = "gds_demo_alpha") -> subprocess.Popen:
    env = dict(os.environ)
    env.update({"GRID_API_BASE_URL": service_url, "GRID_API_TOKEN": token})
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(REPO / "app.py"),
        "--server.port",
        str(port),
        "--server.headless",
        "true",
    ]
    process = subprocess.Popen(
        command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wait_for_port(process, port)
    return process


def wait_for_port(process: subprocess.Popen, port: int) -> None:
    """Return once the app listens on `port`; stop it and raise after 60 s."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise RuntimeError("streamlit did not start")


FLOOR_APP = """import streamlit as st


def floor():
    st.title("Floor")
    st.write("A page that asks nothing of any service: what a new tab costs the framework.")


def second():
    st.title("Second")
    st.write("The same, reached by its own link, as a bookmark to a page of the app is.")


def widget():
    st.title("Widget")
    st.write("The second page with one input: a widget's code is loaded once a page draws one.")
    st.selectbox("A choice", ["one", "two"])


st.navigation(
    [
        st.Page(floor, default=True),
        st.Page(second, url_path="second"),
        st.Page(widget, url_path="widget"),
    ]
).run()
"""
# the floor's pages: (url path, title). A link to a page other than the first costs a
# Streamlit app more than its root does: its JavaScript first asks for `<page>/_stcore/health`
# (the page's path could be where the app is served), gets a 404 and tries again at the root
# after its retry delay. The third page draws one input, which waits in a placeholder until
# its code is loaded: the floor of a page's every element drawn.
FLOOR_PAGES = [("", "Floor"), ("second", "Second"), ("widget", "Widget")]


def start_floor_app(port: int, folder: Path) -> subprocess.Popen:
    """Start a two-page Streamlit app with this app's config (each page a title and a line):
    the floor a page can reach."""
    (folder / ".streamlit").mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / ".streamlit" / "config.toml", folder / ".streamlit" / "config.toml")
    (folder / "floor.py").write_text(FLOOR_APP)
    command = [sys.executable, "-m", "streamlit", "run", "floor.py", "--server.port", str(port)]
    process = subprocess.Popen(
        command, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wait_for_port(process, port)
    return process


def measure_floor(
    browser, rounds: int, playwright_tabs: bool = False
) -> dict[str, list[tuple[float, float]]]:
    """Time a new tab of each of the floor app's pages `rounds` times (browser cache warm);
    return the seconds until content shows and until every element is drawn, by the page's
    url path."""
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="bench-floor-"))
    process = start_floor_app(port, folder)
    try:
        tabs = new_tabs(browser, playwright_tabs)
        for path, title in FLOOR_PAGES:  # warms the cache
            tabs.time_tab(f"http://127.0.0.1:{port}/{path}", title)
        timings: dict[str, list[tuple[float, float]]] = {f"/{path}": [] for path, _ in FLOOR_PAGES}
        for _ in range(rounds):
            for path, title in FLOOR_PAGES:
                url = f"http://127.0.0.1:{port}/{path}"
                timings[f"/{path}"].append(tabs.time_tab_drawn(url, title)[1:])
        tabs.close()
        return timings
    finally:
        process.terminate()
        process.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)


NOTHING_WAITS = f"() => !document.querySelector({json.dumps(PLACEHOLDER)})"


def wait_for_content(page, title: str, timeout_ms: int = 60_000) -> float:
    """Wait until the page's own title shows and the script has finished running; return
    when (time.perf_counter) the title showed."""
    page.get_by_role("heading", name=title, exact=True).first.wait_for(timeout=timeout_ms)
    title_shown = time.perf_counter()
    page.wait_for_function(SCRIPT_IDLE, timeout=timeout_ms)
    return title_shown


def time_page(context, url: str, title: str, until_drawn: bool = False) -> tuple[float, ...]:
    """Open the url in a new tab (a new Streamlit session); return the seconds until its
    title shows and until its content shows (the run finished), and with `until_drawn` until
    every element is drawn (`NOTHING_WAITS`)."""
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url)
    title_shown = wait_for_content(page, title)
    elapsed = time.perf_counter() - started
    if until_drawn:
        page.wait_for_function(NOTHING_WAITS, timeout=60_000)
        drawn = time.perf_counter() - started
    page.close()
    if until_drawn:
        return title_shown - started, elapsed, drawn
    return title_shown - started, elapsed


class PlaywrightTabs:
    """New tabs of one Playwright context, timed by `time_page` (Playwright has Chromium
    report every request and WebSocket frame to it: `bench/bare_tabs.py`)."""

    def __init__(self, browser) -> None:
        self.context = new_context(browser)

    def time_tab(self, url: str, title: str) -> tuple[float, float]:
        return time_page(self.context, url, title)

    def time_tab_drawn(self, url: str, title: str) -> tuple[float, float, float]:
        return time_page(self.context, url, title, until_drawn=True)

    def close(self) -> None:
        self.context.close()


def bare_tabs(browser, playwright_tabs: bool = False) -> bool:
    """Whether new tabs are driven with nothing listening (`BareChromium`): unless asked for
    through Playwright, or the browser is one of private windows."""
    return not playwright_tabs and isinstance(browser, DiskProfiles)


def new_tabs(browser, playwright_tabs: bool = False):
    """Return what new tabs are opened and timed in (`time_tab(url, title)`, `close()`): a
    Chromium on a profile on disk driven with nothing listening (`BareChromium`), or with
    `playwright_tabs` (or a browser of private windows) a context of `browser`."""
    if not bare_tabs(browser, playwright_tabs):
        return PlaywrightTabs(browser)
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    return BareChromium(CHROMIUM, CHROMIUM_ARGS)


def new_context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(COUNT_WEBGL_FRAMES)
    return context


class DiskProfiles:
    """Stands in for a launched browser: each `new_context` is a Chromium of its own, on a
    new profile folder on disk (`context.profile_folder`), as an analyst's browser is.

    A context of a launched browser (`browser.new_context`) is a private window: its HTTP
    cache lives in memory and Chromium keeps no compiled code for the pages' scripts. A
    profile on disk keeps V8's code cache beside the HTTP cache, so a later tab of the app
    runs Streamlit's JavaScript without compiling it again (0.4 to 0.6 s of every new tab
    here). Closing a context stops its Chromium; `close` removes every profile folder."""

    def __init__(self, playwright) -> None:
        self._playwright = playwright
        self._folders: list[Path] = []

    def new_context(self, **options):
        folder = Path(tempfile.mkdtemp(prefix="bench-profile-"))
        self._folders.append(folder)
        context = self._playwright.chromium.launch_persistent_context(
            folder, executable_path=CHROMIUM, args=CHROMIUM_ARGS, **options
        )
        context.profile_folder = folder
        return context

    def close(self) -> None:
        """Remove the profile folders (their Chromiums stop as their contexts close)."""
        for folder in self._folders:
            shutil.rmtree(folder, ignore_errors=True)
        self._folders.clear()


def open_browser(playwright, private: bool = False):
    """Return what the benchmarks open tabs in: Chromiums on profile folders on disk
    (`DiskProfiles`), or with `private` one launched Chromium whose contexts are private
    windows. Either has `new_context` and `close`."""
    if private:
        return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    return DiskProfiles(playwright)


# a second after the last page showed, and the browser's main thread idle: an analyst reads a
# page before leaving it, and the page drawn last (a map's shaders, a chart) is not billed to
# the click that leaves it
SETTLED = "() => new Promise(r => requestIdleCallback(() => r(), {timeout: 10000}))"


def settle(page) -> None:
    """Wait a second, then until the browser's main thread is idle (see SETTLED)."""
    page.wait_for_timeout(1000)
    page.evaluate(SETTLED)


# counts the frames WebGL contexts begin (deck.gl clears its canvas at each): added to every
# page of a benchmark's browser context, it tells when a page's map has drawn
COUNT_WEBGL_FRAMES = """(() => {
  window.__webglFrames = 0;
  const clear = WebGL2RenderingContext.prototype.clear;
  WebGL2RenderingContext.prototype.clear = function (...args) {
    window.__webglFrames += 1;
    return clear.apply(this, args);
  };
})();"""
# the point picker's map (components/click_map.py) draws in its own frame
PICKER_FRAME = 'iframe[title="components.click_map.click_map"]'
# the frames drawn so far; the picker maps on the page now are marked as seen
WEBGL_FRAMES = """() => {
  document.querySelectorAll('@PICKER@').forEach(f => { f.dataset.benchSeen = '1'; });
  return window.__webglFrames || 0;
}""".replace("@PICKER@", PICKER_FRAME)
# a page's charts have drawn a frame since, and so has each picker map not seen before
MAP_DRAWN = """(before) => {
  if (document.querySelector('[data-testid="stDeckGlJsonChart"]')
      && (window.__webglFrames || 0) <= before) return false;
  for (const f of document.querySelectorAll('@PICKER@')) {
    if (f.dataset.benchSeen) continue;
    if (!(f.contentWindow && f.contentWindow.__webglFrames > 0)) return false;
  }
  return true;
}""".replace("@PICKER@", PICKER_FRAME)


def time_sidebar_click(page, label: str, title: str) -> tuple[float, float, float]:
    """Click a page's link in the sidebar once the page shown has settled; return the
    seconds until the new page's title shows, until its content shows, and until its map (if
    it has one) has drawn a frame and that frame is on the screen."""
    link = page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=label, exact=True)
    settle(page)
    link.wait_for()
    frames = page.evaluate(WEBGL_FRAMES)
    started = time.perf_counter()
    link.click()
    title_shown = wait_for_content(page, title)
    content_shown = time.perf_counter()
    page.wait_for_function(MAP_DRAWN, arg=frames, timeout=60_000)
    page.evaluate(TWO_FRAMES)
    map_drawn = time.perf_counter()
    return title_shown - started, content_shown - started, map_drawn - started


def time_open_by_id(page, assessment_id: str) -> tuple[float, float, float]:
    """On the Assessment page, type an id and press Open; return the seconds until the
    assessment's heading shows, until its content shows, and until its map has drawn."""
    page.get_by_label("Assessment id").fill(assessment_id)
    settle(page)
    frames = page.evaluate(WEBGL_FRAMES)
    started = time.perf_counter()
    page.get_by_role("button", name="Open", exact=True).click()
    page.get_by_text(f"Assessment {assessment_id} of site").wait_for(timeout=60_000)
    title_shown = time.perf_counter()
    page.wait_for_function(SCRIPT_IDLE, timeout=60_000)
    content_shown = time.perf_counter()
    page.wait_for_function(MAP_DRAWN, arg=frames, timeout=60_000)
    page.evaluate(TWO_FRAMES)
    return title_shown - started, content_shown - started, time.perf_counter() - started


# parts of the assessment that draw on demand, each a fragment's run: (what, how it is asked
# for, the element that shows it drawn)
OPEN_FOLDED = "Assessment: a folded record table opened"
NEAREST_PLANTS_TAB = "Assessment: the Nearest plants tab chosen"


def time_fragment(page, control, drawn) -> tuple[float, float]:
    """Click a control that reruns only a fragment; return the seconds until what it asks
    for is drawn and until the run has finished (the app's script state).

    The control is scrolled into view and the page left to settle first, as an analyst sees
    a control before clicking it: otherwise the click's own scroll brings the page's maps
    into view, and their first frames in software WebGL (0.5 to 2 s) hold the click back."""
    control.scroll_into_view_if_needed()
    settle(page)
    started = time.perf_counter()
    control.click()
    drawn.wait_for(timeout=60_000)
    shown = time.perf_counter()
    page.wait_for_function(SCRIPT_IDLE, timeout=60_000)
    return shown - started, time.perf_counter() - started


def time_assessment_fragments(page) -> dict[str, tuple[float, float]]:
    """On an opened assessment, open the first folded record table and choose the Nearest
    plants tab of the grid around the site; return each one's timings (`time_fragment`)."""
    timings = {}
    folded = page.locator('[data-testid="stExpander"]').filter(has_text="Show the").first
    if folded.count():
        summary = folded.locator("summary").first
        timings[OPEN_FOLDED] = time_fragment(
            page, summary, folded.locator('[data-testid="stDataFrame"]').first
        )
        summary.click()  # folded again: the next round opens it anew
        page.wait_for_function(SCRIPT_IDLE, timeout=60_000)
    tab = page.get_by_role("tab", name="Nearest plants", exact=True)
    if tab.count():
        panel = page.get_by_role("tabpanel", name="Nearest plants")
        timings[NEAREST_PLANTS_TAB] = time_fragment(
            page, tab, panel.locator('[data-testid="stDataFrame"]').first
        )
        # the first tab again (the session keeps the chosen one): the next round chooses anew
        first = page.get_by_role("tab", name="Counties", exact=True)
        first.click()
        page.get_by_role("tabpanel", name="Counties").locator(
            '[data-testid="stDataFrame"]'
        ).first.wait_for()
        page.wait_for_function(SCRIPT_IDLE, timeout=60_000)
    return timings


def time_navigation(context, base_url: str, assessment_id: str | None, rounds: int) -> dict:
    """Go round the sidebar `rounds` times in one tab (one Streamlit session), each page
    reached from the one before it; return (seconds until the title shows, until the
    content shows) of each click by the link's label (and of opening the assessment by its
    id, after the Assessment page's own click)."""
    timings: dict[str, list[tuple[float, float]]] = {label: [] for label, _ in SIDEBAR}
    if assessment_id:
        timings[OPENED_BY_ID] = []
    page = context.new_page()
    page.goto(f"{base_url}/")
    wait_for_content(page, "Screen a site")
    for _ in range(rounds):
        for label, title in [*SIDEBAR[1:], SIDEBAR[0]]:  # round to the first page again
            timings[label].append(time_sidebar_click(page, label, title))
            if label == "Assessment" and assessment_id:
                timings[OPENED_BY_ID].append(time_open_by_id(page, assessment_id))
                for what, timing in time_assessment_fragments(page).items():
                    timings.setdefault(what, []).append(timing)
    page.close()
    return timings


# Map clicks -----------------------------------------------------------------------------------

CLICK_POINT = (29.8833, -97.9414)  # Hays County, TX: inside the demo data
# offsets (degrees) of the clicks made in the surroundings view, each a different cell
NEAR_OFFSETS = [(0.05, 0.1), (-0.08, 0.06), (0.1, -0.12), (-0.04, -0.09), (0.07, 0.02)]


def deck_pixel(view: dict, box: dict, latitude: float, longitude: float) -> tuple[float, float]:
    """Return the page pixel where (latitude, longitude) is drawn on a deck showing `view`,
    its canvas at `box` (the browser journeys' projection, `e2e_browser.deck_pixel`)."""
    if str(REPO / "tests" / "e2e") not in sys.path:
        sys.path.insert(0, str(REPO / "tests" / "e2e"))
    # Here, not at the top: the browser journeys' helpers are importable once on the path.
    from e2e_browser import deck_pixel as canvas_pixel

    x, y = canvas_pixel(view, box["width"], box["height"], latitude, longitude)
    return box["x"] + x, box["y"] + y


LATITUDE_SHOWN = """(before) => {
  const field = document.querySelector('input[aria-label="Latitude"]');
  const app = document.querySelector('[data-testid="stApp"]');
  return field && field.value !== '' && field.value !== before
    && app && app.getAttribute('data-test-script-state') === 'notRunning'
    && document.querySelector('@PICKER@');
}""".replace("@PICKER@", PICKER_FRAME)
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def chromium_kind(argv: list[str]) -> str | None:
    """Return which of Chromium's processes a command line is ("gpu", "renderer", "browser"
    or "utility"), or None for another program. Chromium's children rewrite their command
    line into one string, so it is split on spaces first."""
    words = " ".join(argv).split()
    if not words or "chrom" not in Path(words[0]).name:
        return None
    if Path(words[0]).name not in ("chromium", "chrome"):
        return "utility"  # the crash handler
    kinds = {"gpu-process": "gpu", "renderer": "renderer"}
    for word in words[1:]:
        if word.startswith("--type="):
            return kinds.get(word.removeprefix("--type="), "utility")
    return "browser"


def chromium_cpu_seconds(proc: Path = Path("/proc"), root: int | None = None) -> dict[str, float]:
    """Return the CPU seconds (user + system) that the Chromium processes under `root` (this
    process by default: the browser the benchmark launched, not another one on the machine)
    have used, by kind."""
    processes = read_processes(proc)
    ticks: dict[str, int] = {}
    for pid in tree_members(processes, os.getpid() if root is None else root):
        try:
            kind = chromium_kind((proc / str(pid) / "cmdline").read_bytes().decode().split("\0"))
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue  # a process that ended meanwhile
        if kind is not None:
            ticks[kind] = ticks.get(kind, 0) + processes[pid].own_ticks
    return {kind: value / clock_ticks() for kind, value in ticks.items()}


def cpu_spent(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """Return the CPU seconds each kind spent between two readings (a new process counts
    from zero; one that ended is left out)."""
    return {kind: round(after[kind] - before.get(kind, 0.0), 3) for kind in after}


# where the picker's pin element stands ("latitude,longitude"), placed by the map's page
PIN_AT = """() => {
  const frame = document.querySelector('@PICKER@');
  const pin = frame && frame.contentDocument && frame.contentDocument.getElementById('pin');
  return (pin && !pin.hidden && pin.dataset.at) || '';
}""".replace("@PICKER@", PICKER_FRAME)
PIN_MOVED = f"(before) => ({PIN_AT})() !== before"


def servers_cpu_seconds(servers: tuple[int, ...]) -> float:
    """Return the CPU seconds the server processes `servers` (the app's, the service's) and
    their descendants have used."""
    processes = read_processes()
    return sum(tree_ticks(processes, pid) for pid in servers) / clock_ticks()


def time_click(
    page, x: float, y: float, servers: tuple[int, ...] = ()
) -> tuple[float, dict[str, float], float, float]:
    """Click the map at (x, y); return the seconds until the new point is shown (and the map
    drawn), the CPU seconds Chromium's processes spent meanwhile, by kind, the seconds
    until the pin stood at the click (its element moved, seen at an animation frame), and
    the CPU seconds the server processes `servers` spent meanwhile."""
    field = page.locator('input[aria-label="Latitude"]')
    before = field.input_value()
    page.mouse.move(x, y)  # rest on the spot first, as a user does
    page.wait_for_timeout(300)
    cpu_before, servers_before = chromium_cpu_seconds(), servers_cpu_seconds(servers)
    pin_before = page.evaluate(PIN_AT)
    started = time.perf_counter()
    page.mouse.click(x, y)
    page.wait_for_function(PIN_MOVED, arg=pin_before, timeout=60_000)
    pin_drawn = time.perf_counter() - started
    page.wait_for_function(LATITUDE_SHOWN, arg=before, timeout=60_000)
    page.evaluate(TWO_FRAMES)
    elapsed = time.perf_counter() - started
    served = servers_cpu_seconds(servers) - servers_before
    return elapsed, cpu_spent(cpu_before, chromium_cpu_seconds()), pin_drawn, served


def time_map_clicks(
    context,
    base_url: str,
    point: tuple[float, float] = CLICK_POINT,
    servers: tuple[int, ...] = (),
) -> tuple[tuple, list[tuple]]:
    """Open the screening page, click the region map at `point`, then click around the pin;
    return the first click's timings (`time_click`) and each later click's."""
    import h3  # deferred, as the picker below: only the click timings need it

    # Deferred: the app's picker (Streamlit, pydeck) loads only for the click timings.
    from components.picker import NEAR_RES, NEAR_ZOOM, country_view

    page = context.new_page()
    page.goto(f"{base_url}/")
    wait_for_content(page, "Screen a site")
    canvas = page.locator(PICKER_FRAME).first  # the map fills its frame
    page.frame_locator(PICKER_FRAME).first.locator("canvas").wait_for(state="visible")
    page.wait_for_timeout(1500)  # the first frame is drawn before anything is picked
    opened = country_view()
    opened_view = {"latitude": opened.latitude, "longitude": opened.longitude, "zoom": opened.zoom}
    first = time_click(page, *deck_pixel(opened_view, canvas.bounding_box(), *point), servers)
    pin = (
        float(page.locator('input[aria-label="Latitude"]').input_value()),
        float(page.locator('input[aria-label="Longitude"]').input_value()),
    )
    centre = h3.cell_to_latlng(h3.latlng_to_cell(*pin, NEAR_RES))
    near_view = {"latitude": centre[0], "longitude": centre[1], "zoom": NEAR_ZOOM}
    later = []
    for d_lat, d_lng in NEAR_OFFSETS:
        page.wait_for_timeout(800)
        box = canvas.bounding_box()
        spot = deck_pixel(near_view, box, pin[0] + d_lat, pin[1] + d_lng)
        later.append(time_click(page, *spot, servers))
    page.close()
    return first, later


# Runs -----------------------------------------------------------------------------------------


def measure_app(browser, base_url: str, assessment_id: str | None, args) -> dict:
    """Time every page in a new tab (rounds), the sidebar's clicks (rounds), then the map
    clicks (click rounds), against a running app."""
    query = {"assessment": f"?assessment={assessment_id}"} if assessment_id else {}
    tabs = new_tabs(browser, args.playwright_tabs)
    cold = tabs.time_tab(f"{base_url}/", "Screen a site")[1]
    pages = [(p, t) for p, t in PAGES if not args.only or p in args.only]
    timings: dict[str, list[tuple[float, float]]] = {path: [] for path, _ in pages}
    for _ in range(args.rounds):
        for path, title in pages:
            url = f"{base_url}/{path}{query.get(path, '')}"
            # a new browser on a new profile has an empty HTTP cache: a first-time visitor
            fresh = new_tabs(browser, args.playwright_tabs) if args.empty_cache else tabs
            timings[path].append(fresh.time_tab_drawn(url, title))
            if args.empty_cache:
                fresh.close()
    tabs.close()
    # the sidebar's clicks and the map's, through Playwright, in a context whose cache and
    # code cache have seen every page once, as the new tabs' browser has
    warm_context = new_context(browser)
    for path, title in [("", "Screen a site"), *pages]:
        time_page(warm_context, f"{base_url}/{path}{query.get(path, '')}", title)
    navigation = time_navigation(warm_context, base_url, assessment_id, args.rounds)
    first_clicks, near_clicks = [], []
    for _ in range(args.click_rounds):
        first, later = time_map_clicks(warm_context, base_url)
        first_clicks.append(first)
        near_clicks.extend(later)
    warm_context.close()
    clicks = {"region view (places the pin)": first_clicks, "surroundings": near_clicks}
    return {
        "cold_s": cold,
        "pages": timings,
        "navigation": navigation,
        "clicks": {name: [done[0] for done in all_done] for name, all_done in clicks.items()},
        "click_cpu": {name: [done[1] for done in all_done] for name, all_done in clicks.items()},
        "pin_drawn": {name: [done[2] for done in all_done] for name, all_done in clicks.items()},
    }


def print_visits(
    what: str,
    visits: dict[str, list[tuple[float, ...]]],
    moments: tuple[str, ...] = ("title shown", "content shown", "map drawn"),
) -> None:
    """Print a table of visits: p50 until the title shows, p50 and max until content shows,
    and (for visits timed that far) p50 until the last of `moments`: in a new tab every
    element drawn, by a click in the sidebar the map drawn."""
    drawn = any(len(v) > 2 for values in visits.values() for v in values)
    first, then = moments[:2]
    last = f" {moments[2]}, p50 (s) |" if drawn else ""
    print(f"| {what} | {first}, p50 (s) | {then}, p50 (s) | max (s) | visits |{last}")
    print("|---|---:|---:|---:|---:|" + ("---:|" if drawn else ""))
    for name, values in visits.items():
        if values:
            title = statistics.median(v[0] for v in values)
            done = [v[1] for v in values]
            row = (
                f"| {name} | {title:.2f} | {statistics.median(done):.2f} | {max(done):.2f} "
                f"| {len(done)} |"
            )
            if drawn:
                row += f" {statistics.median(v[-1] for v in values):.2f} |"
            print(row)


def print_results(result: dict, empty_cache: bool) -> None:
    print(
        f"cold first load (service start, demo build if needed, caches): {result['cold_s']:.2f} s\n"
    )
    cache = "empty browser cache" if empty_cache else "browser cache warm"
    print(f"each visit: a new tab and a new Streamlit session, {cache}\n")
    print_visits(
        "page",
        {f"/{path}": v for path, v in result["pages"].items()},
        ("title shown", "content shown", "every element drawn"),
    )
    if result.get("navigation"):
        fragments = (OPEN_FOLDED, NEAREST_PLANTS_TAB)
        pages = {k: v for k, v in result["navigation"].items() if k not in fragments}
        print("\neach visit: a click in the sidebar, the same tab and Streamlit session\n")
        print_visits("page reached", pages)
        parts = {k: v for k, v in result["navigation"].items() if k in fragments}
        if parts:
            print(
                "\neach a click that reruns only a fragment, on the assessment opened by its id\n"
            )
            print_visits("part drawn on demand", parts, ("table drawn", "run finished"))
    print(
        "\n| map click | pin drawn, p50 (ms) | point shown, p50 (ms) | max (ms) | clicks "
        "| Chromium CPU-s a click, p50: GPU process / renderer |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name, values in result["clicks"].items():
        if values:
            p50, top = statistics.median(values) * 1000, max(values) * 1000
            pins = result.get("pin_drawn", {}).get(name)
            pin = f"{statistics.median(pins) * 1000:.0f}" if pins else "-"
            cpu = result.get("click_cpu", {}).get(name) or [{}]
            gpu = statistics.median(c.get("gpu", 0.0) for c in cpu)
            renderer = statistics.median(c.get("renderer", 0.0) for c in cpu)
            print(
                f"| {name} | {pin} | {p50:.0f} | {top:.0f} | {len(values)} "
                f"| {gpu:.2f} / {renderer:.2f} |"
            )


def machine() -> str:
    memory_gb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (
        f"{os.cpu_count()} cores, {memory_gb:.0f} GB, Python {platform.python_version()}, "
        f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )


def scale_database(data_dir: Path, scale: int) -> Path:
    """Return the scale's demo database, built with `gridservice demo-data` when missing."""
    path = data_dir / f"scale{scale}.db"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        print(f"building {path} (scale {scale})…", flush=True)
        subprocess.run(
            [sys.executable, "-m", "gridservice", "demo-data", "--db", str(path),
             "--scale", str(scale)],
            check=True, cwd=REPO,
        )  # fmt: skip
    return path


def run_scale(browser, scale: int, args) -> dict:
    """Serve the scale's database in its own process, screen one site, start the app, time it."""
    # Deferred: the service's store (openpyxl, shapely) loads only when a scale is served.
    from bench.peers.app_pages import _screen_one_site

    db = scale_database(args.data_dir, scale)
    service = peer_servers.start_service(db)
    try:
        return measure_with_app(browser, service.base_url, _screen_one_site(service.base_url), args)
    finally:
        service.stop()


def measure_with_app(browser, service_url: str, assessment_id: str, args) -> dict:
    """Start `streamlit run app.py` against the service, time it, stop it."""
    port = free_port()
    app = start_app(port, service_url)
    try:
        return measure_app(browser, f"http://127.0.0.1:{port}", assessment_id, args)
    finally:
        app.terminate()
        app.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--click-rounds", type=int, default=3, help="map-click runs (6 clicks each)"
    )
    parser.add_argument("--url", help="an app already running (default: start one)")
    parser.add_argument("--only", nargs="*", help="url paths to time (default: every page)")
    parser.add_argument("--assessment", help="with --url: an assessment id to open")
    parser.add_argument("--scales", type=int, nargs="*", help="demo scales to run, e.g. 1 10 100")
    parser.add_argument(
        "--data-dir", type=Path, default=Path(tempfile.gettempdir()) / "gds-app-bench",
        help="where the scales' databases are kept (with --scales)",
    )  # fmt: skip
    parser.add_argument("--json", type=Path, help="also write the timings to this JSON file")
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also time a two-page Streamlit app (a title and a line each) the same way: the "
        "framework's floor, at its root, at its second page's link and at a third page "
        "with one input",
    )
    parser.add_argument(
        "--private",
        action="store_true",
        help="open tabs in private windows (no code cache kept for the app's JavaScript), as "
        "the figures before 27 Nov 2026, evening, were taken; by default each context is a Chromium "
        "profile on disk, as an analyst's browser is",
    )
    parser.add_argument(
        "--playwright-tabs",
        action="store_true",
        help="time new tabs through Playwright, as the figures before 28 Nov 2026, afternoon, "
        "were (it has Chromium report every request and WebSocket frame to it); by default a "
        "new tab is opened in a Chromium driven with nothing listening (bench/bare_tabs.py)",
    )
    parser.add_argument(
        "--empty-cache",
        action="store_true",
        help="open every page in a new browser context (no cached JS), as a first visit",
    )
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright  # deferred: only a browser run needs it

    results: dict[str, dict] = {}
    print(f"machine: {machine()} (before)\n", flush=True)
    with sync_playwright() as playwright:
        browser = open_browser(playwright, args.private)
        print(f"browser: {'private windows' if args.private else 'a profile on disk'}")
        bare = bare_tabs(browser, args.playwright_tabs)
        print(f"new tabs: {'driven with nothing listening' if bare else 'through Playwright'}\n")
        try:
            if args.floor:
                floor = measure_floor(browser, max(args.rounds, 5), args.playwright_tabs)
                results["floor"] = {"pages": floor}
                for path, timings in floor.items():
                    content = [shown for shown, _ in timings]
                    drawn = statistics.median(whole for _, whole in timings)
                    print(
                        f"floor (a Streamlit app of three short pages, {path} in a new tab): "
                        f"p50 {statistics.median(content):.2f} s, max {max(content):.2f} s; "
                        f"every element drawn p50 {drawn:.2f} s",
                        flush=True,
                    )
                print()
            if args.scales:
                for scale in args.scales:
                    results[f"scale {scale}"] = run_scale(browser, scale, args)
                    print(f"## scale {scale}\n", flush=True)
                    print_results(results[f"scale {scale}"], args.empty_cache)
                    print(f"\nmachine: {machine()}\n", flush=True)
            elif args.url:
                results["app"] = measure_app(browser, args.url, args.assessment, args)
                print_results(results["app"], args.empty_cache)
            else:
                results["scale 1 (fresh)"] = run_fresh(browser, args)
                print_results(results["scale 1 (fresh)"], args.empty_cache)
        finally:
            browser.close()
    print(f"\nmachine: {machine()} (after)")
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "results": results}, indent=1))


def run_fresh(browser, args) -> dict:
    """Start the service on a fresh demo database in a temporary folder, and the app; time it."""
    workdir = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    server = None
    try:
        server, assessment_id = start_service(workdir / "demo.db")
        return measure_with_app(browser, server.base_url, assessment_id, args)
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
