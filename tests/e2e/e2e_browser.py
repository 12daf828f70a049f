"""What the browser journeys share: the Streamlit process, waiting for a run, console watch, maps.

Kept apart from conftest.py so that journeys and scripts/screenshots.py import the same helpers.
"""

from __future__ import annotations

import math
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

REPO_ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO_ROOT / "artifacts" / "e2e"
CHROMIUM = Path(os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium"))
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
INSTALL_HINT = (
    f"Chromium not found at {CHROMIUM}: the browser journeys need it. Install it with "
    "`apt-get install -y chromium` (Debian/Ubuntu; .ci/run does this), or point "
    "E2E_CHROMIUM at a Chromium binary."
)
VIEWPORT = {"width": 1280, "height": 900}
# Waiting for the app, never a timing assertion: generous, because CI machines are slow.
APP_TIMEOUT_MS = 60_000
# The app's settings that must not leak in from the developer's shell.
APP_ENV_NAMES = ("GRID_API_BASE_URL", "GRID_API_TOKEN", "GRID_APP_BASEMAP_STYLE", "GRIDSERVICE_DB")

# The only browser console errors a journey tolerates: the app runs offline, and the map
# component still asks for its online basemap style. Each entry: (why, host it fetches).
ALLOWED_FAILED_HOSTS = {
    "basemaps.cartocdn.com": "pydeck's default Carto basemap style, unreachable offline",
    "tiles.basemaps.cartocdn.com": "Carto basemap tiles, unreachable offline",
}
# maplibre reports the failed style fetch a second time as a bare "Failed to fetch" error
# from the deck.gl chart bundle; tolerated only when a basemap request really failed.
BASEMAP_FETCH_ERROR = re.compile(r"^Error: Failed to fetch\b.*DeckGlJsonChart", re.S)


def free_port() -> int:
    """Return a loopback TCP port nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class StreamlitApp:
    """A `streamlit run app.py` process on a loopback port."""

    url: str
    process: subprocess.Popen
    log_path: Path

    def log_tail(self, lines: int = 40) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


def start_streamlit(
    env: Mapping[str, str],
    log_path: Path,
    timeout_s: float = 90,
    base_path: str = "",
    options: Sequence[str] = (),
) -> StreamlitApp:
    """Start the app with `env` over a clean copy of the environment; return once it answers.
    With `base_path`, the app is served under that path (`server.baseUrlPath`), as behind a
    proxy that keeps its prefix; the returned URL includes it. `options` are more of
    Streamlit's command-line options (`--secrets.files PATH`)."""
    port = free_port()
    clean = {k: v for k, v in os.environ.items() if k not in APP_ENV_NAMES}
    clean.update(env)
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        "app.py",
        "--server.headless",
        "true",
        "--server.address",
        "127.0.0.1",
        "--server.port",
        str(port),
        "--server.fileWatcherType",
        "none",
        "--browser.gatherUsageStats",
        "false",
        *(["--server.baseUrlPath", base_path] if base_path else []),
        *options,
    ]
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = log_path.open("wb")
    process = subprocess.Popen(
        command, cwd=REPO_ROOT, env=clean, stdout=log, stderr=subprocess.STDOUT
    )
    root = f"http://127.0.0.1:{port}" + (f"/{base_path.strip('/')}" if base_path else "")
    app = StreamlitApp(root, process, log_path)
    deadline = time.monotonic() + timeout_s
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited with {process.returncode}:\n{app.log_tail()}")
        try:
            with urllib.request.urlopen(f"{app.url}/_stcore/health", timeout=2) as answer:
                if answer.status == 200:
                    return app
        except OSError:
            pass
        if time.monotonic() > deadline:
            app.stop()
            raise RuntimeError(f"streamlit did not answer in {timeout_s}s:\n{app.log_tail()}")
        time.sleep(0.25)


# Console -------------------------------------------------------------------------------------


@dataclass
class ConsoleWatch:
    """Collects console errors and page errors; `unexpected()` leaves out the allow-list."""

    errors: list[str] = field(default_factory=list)
    failed_basemap: list[str] = field(default_factory=list)
    # pages a journey passes through that are not the app's (a login provider's form), by
    # host:port: their own console errors are left out
    foreign_hosts: frozenset[str] = frozenset()

    def attach(self, page) -> None:
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        page.on("requestfailed", self._on_request_failed)

    def _on_request_failed(self, request) -> None:
        if urlparse(request.url).hostname in ALLOWED_FAILED_HOSTS:
            self.failed_basemap.append(request.url)

    def _on_console(self, message) -> None:
        if message.type != "error":
            return
        location = (message.location or {}).get("url") or ""
        self.errors.append(f"console: {message.text} @ {location}")

    def unexpected(self) -> list[str]:
        kept = []
        for entry in self.errors:
            text, _, location = entry.removeprefix("console: ").rpartition(" @ ")
            if urlparse(location).hostname in ALLOWED_FAILED_HOSTS:
                continue
            if urlparse(location).netloc in self.foreign_hosts:
                continue
            if self.failed_basemap and BASEMAP_FETCH_ERROR.search(text):
                continue
            kept.append(entry)
        return kept


# Waiting for Streamlit -----------------------------------------------------------------------


def wait_for_run(page, settle_ms: int = 300) -> None:
    """Wait until the app is connected and its script is not running (a rerun has finished)."""
    page.wait_for_timeout(settle_ms)  # let a click's rerun start before looking for its end
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-connection-state="CONNECTED"]',
        state="attached",
        timeout=APP_TIMEOUT_MS,
    )
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-script-state="notRunning"]',
        state="attached",
        timeout=APP_TIMEOUT_MS,
    )
    page.wait_for_selector(
        '[data-testid="stStatusWidget"]', state="detached", timeout=APP_TIMEOUT_MS
    )


def open_page(page, base_url: str, path: str = "") -> None:
    """Open an app URL and wait for its first run to finish."""
    page.goto(f"{base_url}/{path.lstrip('/')}", wait_until="domcontentloaded")
    page.wait_for_selector('[data-testid="stApp"]', timeout=APP_TIMEOUT_MS)
    wait_for_run(page, settle_ms=500)


def main_text(page) -> str:
    """Return the text of the page's main area (the sidebar left out)."""
    return page.locator('[data-testid="stMain"]').inner_text()


def assert_no_exception_box(page) -> None:
    boxes = page.locator('[data-testid="stException"]')
    assert boxes.count() == 0, f"Streamlit exception box shown: {boxes.first.inner_text()}"
    text = page.locator('[data-testid="stApp"]').inner_text()
    assert "Traceback (most recent call last)" not in text, "a traceback reached the page"


MAX_SCREENSHOT_HEIGHT = 8000
# A whole-page shot makes the window as tall as the page and back: the app lays out and
# draws its maps and charts twice (about 1.6 processor-seconds a shot in software WebGL, a
# minute of a full run), so journeys keep to the window unless this is set.
WHOLE_PAGE_SHOTS = os.environ.get("E2E_WHOLE_PAGE_SHOTS") == "1"


def screenshot(
    page, name: str, *, whole_page: bool | None = None, folder: Path = ARTIFACTS
) -> Path:
    """Save a screenshot under `folder` (artifacts/e2e/ by default) and return its path.

    Streamlit scrolls its main area inside the window, so Playwright's `full_page` sees only
    the window: for the whole page the window is made as tall as the main area for the shot.
    `whole_page` left out follows E2E_WHOLE_PAGE_SHOTS=1 (the window alone otherwise).
    """
    if whole_page is None:
        whole_page = WHOLE_PAGE_SHOTS
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    size = page.viewport_size
    if whole_page:
        height = page.evaluate(
            "() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
            " return m ? m.scrollHeight : document.body.scrollHeight; }"
        )
        page.set_viewport_size(
            {
                "width": size["width"],
                "height": min(max(height, size["height"]), MAX_SCREENSHOT_HEIGHT),
            }
        )
        page.wait_for_timeout(800)  # charts and maps redraw at the new size
    try:
        page.screenshot(path=str(path))
    finally:
        if whole_page:
            page.set_viewport_size(size)
    return path


# Maps ----------------------------------------------------------------------------------------

DECK_TILE_SIZE = 512  # deck.gl's web-mercator world is 512 px wide at zoom 0


def mercator_y(latitude: float) -> float:
    return math.log(math.tan(math.pi / 4 + math.radians(latitude) / 2))


def deck_pixel(
    view: Mapping[str, float], width: float, height: float, latitude: float, longitude: float
) -> tuple[float, float]:
    """Return where (latitude, longitude) is drawn on a deck canvas showing `view`."""
    world = DECK_TILE_SIZE * 2 ** view["zoom"]
    x = width / 2 + (longitude - view["longitude"]) / 360 * world
    y = height / 2 + (mercator_y(view["latitude"]) - mercator_y(latitude)) / (2 * math.pi) * world
    return x, y


PICKER_MAP = 'iframe[title="components.click_map.click_map"]'


def picker_map(page):
    """Return the locator of the point picker's map (`components.click_map`, in its frame)."""
    return page.locator(PICKER_MAP)


def click_map(page, view: Mapping[str, float], latitude: float, longitude: float):
    """Click the point (latitude, longitude) on the picker's map, drawn at `view`."""
    frame = picker_map(page).first
    frame.wait_for(state="visible", timeout=APP_TIMEOUT_MS)
    page.frame_locator(PICKER_MAP).first.locator("canvas").first.wait_for(
        state="visible", timeout=APP_TIMEOUT_MS
    )
    page.wait_for_timeout(1000)  # let deck.gl draw its first frame (a click reads its view)
    box = frame.bounding_box()
    x, y = deck_pixel(view, box["width"], box["height"], latitude, longitude)
    assert 0 <= x <= box["width"] and 0 <= y <= box["height"], "the point is off the map"
    page.mouse.move(box["x"] + x, box["y"] + y)
    page.mouse.click(box["x"] + x, box["y"] + y)


def drop_pin(page, latitude: float, longitude: float) -> str:
    """Place the first map's pin at a point the way a user does: one click on the country map
    places the pin near it and brings the view to its surroundings, and a click there puts
    the pin on the point. Returns "map" when the clicks set the point, "typed" when the
    surroundings did not take a click and the journey typed the point (docs/E2E.md says when
    and why). The first click must place a pin.
    """
    latitude_input = page.get_by_role("spinbutton", name="Latitude", exact=True)
    click_until_moved(
        page,
        region_click(latitude, longitude),
        latitude_input,
        "a click on the country map placed no pin",
    )
    wait_for_run(page, settle_ms=1500)
    try:
        near = (surroundings_view(page), (latitude, longitude))
        click_until_moved(page, near, latitude_input, "the surroundings took no click")
        wait_for_run(page)
        return "map"
    except AssertionError:
        pass
    for label, value in (("Latitude", latitude), ("Longitude", longitude)):
        field = page.get_by_role("spinbutton", name=label, exact=True)
        field.fill(f"{value:.5f}")
        field.press("Enter")
        wait_for_run(page)
    return "typed"


def click_until_moved(page, click, latitude_input, message: str, attempts: int = 3) -> None:
    """Click the first map at `click` (view, (latitude, longitude)) until the latitude field
    changes, as a user clicks again when a click shows nothing: under heavy load a click
    made before a freshly drawn map's first frame picks nothing. Fails with `message`."""
    before = latitude_input.input_value()
    for attempt in range(attempts):
        click_map(page, click[0], *click[1])
        try:
            expect_value(latitude_input, message, not_value=before, timeout_ms=15_000)
            return
        except AssertionError:
            if attempt == attempts - 1:
                raise


def choose_option(page, combobox, name: str, attempts: int = 3) -> None:
    """Pick the option `name` of a select box by the keyboard, as a user types into it: the
    name typed leaves that one option in the list, and Enter picks it. Nothing is clicked in
    the list, which a rerun reaching the browser, or the page scrolling to show the option,
    can close under the pointer; if the box does not show the option in the end, it is
    tried again."""
    from playwright.sync_api import expect

    option = page.get_by_role("option", name=name, exact=True)
    for attempt in range(attempts):
        try:
            combobox.scroll_into_view_if_needed()
            combobox.click()
            combobox.fill(name)
            option.wait_for(state="visible", timeout=10_000)
            combobox.press("Enter")
            expect(combobox).to_have_value(name, timeout=10_000)
            return
        except Exception:
            if attempt == attempts - 1:
                raise
            page.keyboard.press("Escape")
            wait_for_run(page)


def expect_value(locator, message: str, *, not_value: str = "", timeout_ms: int = 30_000) -> None:
    """Wait until an input holds a value other than `not_value` (and not empty); fail with
    `message`."""
    from playwright.sync_api import expect

    try:
        expect(locator).not_to_have_value(
            re.compile(rf"^(|{re.escape(not_value)})$"), timeout=timeout_ms
        )
    except AssertionError as error:
        raise AssertionError(message) from error


def expect_visible(locator, message: str) -> None:
    from playwright.sync_api import expect

    try:
        expect(locator).to_be_visible(timeout=10_000)
    except AssertionError as error:
        raise AssertionError(message) from error


def country_view() -> dict[str, float]:
    """Return the view the picker's map opens on (the lower 48), as a dict."""
    from components.picker import country_view

    opened = country_view()
    return {"latitude": opened.latitude, "longitude": opened.longitude, "zoom": opened.zoom}


def region_click(latitude: float, longitude: float):
    """Return the picker's first click towards a point, as (view, (latitude, longitude)): the
    point itself on the country view."""
    return country_view(), (latitude, longitude)


def surroundings_view(page) -> dict[str, float]:
    """Return the view of the pin's surroundings the picker shows: centred on the fine cell
    under the pin the latitude and longitude fields hold (`components.picker`)."""
    import h3

    from components.picker import NEAR_RES, NEAR_ZOOM

    pin = [
        float(page.get_by_role("spinbutton", name=label, exact=True).input_value())
        for label in ("Latitude", "Longitude")
    ]
    centre = h3.cell_to_latlng(h3.latlng_to_cell(*pin, NEAR_RES))
    return {"latitude": centre[0], "longitude": centre[1], "zoom": NEAR_ZOOM}


def pin_centre(page) -> tuple[float, float]:
    """Return where the picker's pin (an element over the map, placed by its page) stands,
    in the map's own pixels."""
    centre = (
        page.frame_locator(PICKER_MAP)
        .first.locator("#pin")
        .evaluate(
            "pin => { if (pin.hidden) return null; const r = pin.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; }"
        )
    )
    assert centre is not None, "the map shows no pin"
    return centre[0], centre[1]


def pin_offset(page, view: Mapping[str, float], latitude: float, longitude: float) -> float:
    """Return how many pixels the picker's pin stands from where (latitude, longitude) is
    drawn on the map showing `view`."""
    box = picker_map(page).first.bounding_box()
    x, y = deck_pixel(view, box["width"], box["height"], latitude, longitude)
    pin_x, pin_y = pin_centre(page)
    return math.hypot(pin_x - x, pin_y - y)


def count_colour(png: bytes, colour: tuple[int, int, int], tolerance: int = 40) -> int:
    """Return how many pixels of a PNG are within `tolerance` of `colour` (per channel)."""
    import io

    import numpy as np
    from PIL import Image

    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
    close = np.abs(pixels - np.array(colour, dtype=np.int16)) <= tolerance
    return int(close.all(axis=-1).sum())


# Dataframes ----------------------------------------------------------------------------------

# Streamlit draws st.dataframe on a canvas; its toolbar's "Download as CSV" gives the cells.
# Chromium would open a save dialog (File System Access API); without it the app downloads.
NO_SAVE_PICKER = "delete window.showSaveFilePicker;"


def dataframe_rows(page, frame) -> list[dict[str, str]]:
    """Return the rows a st.dataframe shows, read through its "Download as CSV" button."""
    import csv
    import io

    frame.scroll_into_view_if_needed()
    frame.hover()
    button = frame.get_by_role("button", name="Download as CSV")
    with page.expect_download() as download:
        # the toolbar shows on hover; once the grid redraws it can sit under the grid's scroller
        button.dispatch_event("click")
    text = Path(download.value.path()).read_text(encoding="utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))
