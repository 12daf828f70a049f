"""New tabs of a Chromium driven over the DevTools protocol with nothing listening: what a new
tab of the app costs an analyst's browser, without the benchmark's own work in it.

Playwright turns on the DevTools Network domain in every tab it drives, and Chromium then
reports each request and WebSocket frame to it, payload included: the app's 60-odd script
modules and every message of the page (2.4 MB on Generation), copied, base64-encoded and sent
down the pipe to Playwright's driver, on the same two cores as the page. Measured on the same
app in one browser, alternated (`docs/benchmarks/app.md`, 28 Nov 2026), that work added 0.07 s
to a page of text and 0.1 to 0.3 s to the pages that send a data grid or a map.

`BareChromium` starts Chromium on a profile folder on disk (as `bench_pages.DiskProfiles`
does), speaks the protocol itself over a WebSocket (`websockets`), and turns on only what
opening and reading a tab needs (Page, Runtime). The page times itself: a script added to
every document notes `performance.now()` (from the navigation's start) when the page's title
shows and when its content shows, by the same rule as `bench_pages.wait_for_content` (the
title is there, the script has finished, nothing spins), then when every element is drawn (no
element still waits for its code in a placeholder, `PLACEHOLDER`).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

# noted by the page itself: when its title showed, when its content showed (the title there
# and `SCRIPT_IDLE`: the script finished, nothing spinning), and when every element
# was drawn (from then on, no `PLACEHOLDER` left); filled in by `watch_script`
WATCH = """(() => {
  const title = %s;
  window.__bench = {};
  const look = () => {
    // the headings' text is read (which lays the page out) only until the title is found
    if (window.__bench.title === undefined) {
      const shown = [...document.querySelectorAll('h1, h2, h3')]
        .some(h => h.innerText.trim() === title);
      if (!shown) return;
      window.__bench.title = performance.now();
    }
    if (window.__bench.content === undefined) {
      if (!(%s)()) return;
      window.__bench.content = performance.now();
    }
    if (!document.querySelector(%s)) {
      window.__bench.drawn = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(look);
  observer.observe(document, {subtree: true, childList: true, attributes: true,
                              characterData: true});
})();"""


# the app's script (or fragment) has finished and nothing is left spinning
SCRIPT_IDLE = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-testid="stSpinner"]');
}"""


# an element still waiting for its code: Streamlit draws a placeholder where a data grid, a
# chart, a map or a widget goes until the code that draws it has loaded and run. A new tab
# notes its content before that (the run has finished); the page is whole once none is left.
PLACEHOLDER = '[data-testid="stSkeleton"]'


def watch_script(title: str) -> str:
    """Return the script added to each document of a tab opened for `title`."""
    return WATCH % (json.dumps(title), SCRIPT_IDLE, json.dumps(PLACEHOLDER))


class BareChromium:
    """A Chromium on a profile folder on disk, whose tabs are opened and read over the DevTools
    protocol with only the Page and Runtime domains on. `close` stops it and removes the
    folder."""

    def __init__(self, chromium: str, args: list[str], width: int = 1280, height: int = 800):
        self.width, self.height = width, height
        self.folder = Path(tempfile.mkdtemp(prefix="bench-bare-profile-"))
        self.process = subprocess.Popen(
            [
                chromium,
                *args,
                "--remote-debugging-port=0",
                f"--user-data-dir={self.folder}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        port_file = self.folder / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and len(port_file.read_text().split()) == 2):
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.close()
                raise RuntimeError("Chromium did not open its DevTools port")
            time.sleep(0.05)
        port, path = port_file.read_text().split()
        self._connection = contextlib.ExitStack()
        self._socket = self._connection.enter_context(
            connect(f"ws://127.0.0.1:{port}{path}", max_size=None)
        )
        self._ids = itertools.count(1)

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None):
        """Send one command and return its result (events that arrive meanwhile are dropped:
        nothing is turned on that sends any worth reading)."""
        command_id = next(self._ids)
        message: dict[str, Any] = {"id": command_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self._socket.send(json.dumps(message))
        while True:
            answer = json.loads(self._socket.recv(timeout=60))
            if answer.get("id") == command_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def time_tab(self, url: str, title: str, timeout_s: float = 60.0) -> tuple[float, float]:
        """Open the url in a new tab (a new Streamlit session); return the seconds from the
        navigation's start until its title shows and until its content shows."""
        noted = self._timed_tab(url, title, "content", timeout_s)
        return noted["title"] / 1000, noted["content"] / 1000

    def time_tab_drawn(
        self, url: str, title: str, timeout_s: float = 60.0
    ) -> tuple[float, float, float]:
        """As `time_tab`, and the seconds until every element of the page is drawn: none
        waits in a placeholder for its code any more (a data grid, a chart, a map)."""
        noted = self._timed_tab(url, title, "drawn", timeout_s)
        return noted["title"] / 1000, noted["content"] / 1000, noted["drawn"] / 1000

    def _timed_tab(self, url: str, title: str, until: str, timeout_s: float) -> dict[str, float]:
        """Open the url in a new tab and return what its page noted (ms after the
        navigation's start) once it has noted `until`."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        try:
            session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
                "sessionId"
            ]
            self.send("Page.enable", session=session)
            self.send(
                "Emulation.setDeviceMetricsOverride",
                {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False},
                session=session,
            )  # fmt: skip
            self.send(
                "Page.addScriptToEvaluateOnNewDocument",
                {"source": watch_script(title)},
                session=session,
            )
            self.send("Page.navigate", {"url": url}, session=session)
            deadline = time.monotonic() + timeout_s
            while time.monotonic() < deadline:
                time.sleep(0.05)
                noted = self.send(
                    "Runtime.evaluate",
                    {"expression": "window.__bench || null", "returnByValue": True},
                    session=session,
                )["result"].get("value")
                if noted and until in noted:
                    return noted
            shown = "was not all drawn" if until == "drawn" else "did not show"
            raise TimeoutError(f"{url}: the title {title!r} and the page's content {shown}")
        finally:
            self._close_tab(target)

    def _close_tab(self, target: str) -> None:
        """Close the tab and wait until it is gone: the next tab is not timed while this
        one's renderer is still being torn down."""
        self.send("Target.closeTarget", {"targetId": target})
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            targets = self.send("Target.getTargets")["targetInfos"]
            if all(t["targetId"] != target for t in targets):
                return
            time.sleep(0.02)

    def close(self) -> None:
        if getattr(self, "_connection", None) is not None:
            self._connection.close()
            self._connection = None
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)
