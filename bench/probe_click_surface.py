"""Time map clicks on a bare picker (the click surface and the pin, nothing else) drawn in
different ways, to find what a click costs the browser under software WebGL.

Usage:
    uv run python bench/probe_click_surface.py                  # every variant
    uv run python bench/probe_click_surface.py columns polygons # the named ones

Each variant runs a one-chart Streamlit app (a fragment, as the picker: a click reruns only
the map) with the surroundings view of the screening page at zoom 9 over Hays County, TX,
clicks 16 points in a new headless Chromium tab (1280 x 800) and prints the click's p50, min
and max (from the click until the new point is shown, the run has finished and the map has
drawn two frames, as `bench_pages.py` times it) and the CPU seconds Chromium's GPU process
(software WebGL) and renderers (JavaScript) spent on a click, p50. Figures and what they
showed: docs/benchmarks/app.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.bench_pages import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    deck_pixel,
    free_port,
    time_click,
    wait_for_port,
)

CENTRE = (29.8833, -97.9414)
# variant -> (H3 resolution, half the box east-west and north-south in km, extra layer props)
VARIANTS = {
    "columns": (7, (90, 50), {}),  # deck.gl's default for resolution 7: instanced columns
    "columns-no-highlight": (7, (90, 50), {"autoHighlight": False}),
    "columns-res6": (6, (90, 50), {}),
    "columns-small-box": (7, (30, 20), {}),
    "polygons": (7, (90, 50), {"highPrecision": True}),  # what the picker draws
    "polygons-no-highlight": (7, (90, 50), {"highPrecision": True, "autoHighlight": False}),
}
OFFSETS = [(0.05, 0.1), (-0.08, 0.06), (0.1, -0.12), (-0.04, -0.09), (0.07, 0.02), (0.02, -0.2)]
OFFSETS += [(-0.1, 0.15), (0.12, 0.18)]

PROBE_APP = """import json, math, os
import h3, pydeck as pdk, streamlit as st

RES, HALF_E, HALF_N = int(os.environ["PROBE_RES"]), float(os.environ["PROBE_E"]), float(
    os.environ["PROBE_N"])
EXTRA = json.loads(os.environ["PROBE_EXTRA"])
CENTRE = (29.8833, -97.9414)


@st.cache_resource
def surface():
    lat, lng = CENTRE
    reach_lat, reach_lng = HALF_N / 111.32, HALF_E / (111.32 * math.cos(math.radians(lat)))
    box = h3.LatLngPoly([(lat - reach_lat, lng - reach_lng), (lat - reach_lat, lng + reach_lng),
                         (lat + reach_lat, lng + reach_lng), (lat + reach_lat, lng - reach_lng)])
    cells = sorted(h3.h3shape_to_cells_experimental(box, RES, contain="overlap"))
    return {"@@type": "H3HexagonLayer", "data": [{"hex": c} for c in cells],
            "getHexagon": "@@=hex", "pickable": True, "filled": True, "stroked": False,
            "extruded": False, "getFillColor": [30, 111, 217, 8], "autoHighlight": True,
            "highlightColor": [214, 39, 40, 140], **EXTRA}


class SpecDeck(pdk.Deck):
    def __init__(self, spec):
        super().__init__(layers=[], tooltip=False)
        self._json = json.dumps(spec, separators=(",", ":"))

    def to_json(self):
        return self._json


@st.fragment
def picker():
    pin = st.session_state.setdefault("pin", list(CENTRE))
    selection = (st.session_state.get("map") or {}).get("selection") or {}
    for objects in (selection.get("objects") or {}).values():
        for obj in objects:
            if obj.get("hex") and obj["hex"] != st.session_state.get("applied"):
                st.session_state["applied"] = obj["hex"]
                pin[:] = list(h3.cell_to_latlng(obj["hex"]))
    pin_layer = {"@@type": "ScatterplotLayer", "id": "pin", "data": [{"p": [pin[1], pin[0]]}],
                 "getPosition": "@@=p", "getRadius": 8, "radiusUnits": "pixels",
                 "getFillColor": [214, 39, 40, 255]}
    spec = {"initialViewState": {"latitude": CENTRE[0], "longitude": CENTRE[1], "zoom": 9.0,
                                 "pitch": 0, "bearing": 0},
            "layers": [surface(), pin_layer], "mapStyle": "__MAP_STYLE__",
            "views": [{"@@type": "MapView", "controller": {"doubleClickZoom": False}}]}
    st.pydeck_chart(SpecDeck(spec), on_select="rerun", selection_mode="single-object",
                    key="map", height=460)
    st.number_input("Latitude", value=round(pin[0], 5), format="%.5f", key=f"lat{pin[0]}")


st.title("Probe")
picker()
"""


def run_variant(name: str, folder: Path) -> str:
    """Serve the probe app drawn as `name`, click it 16 times; return a line of figures."""
    from playwright.sync_api import sync_playwright

    resolution, (half_east, half_north), extra = VARIANTS[name]
    port = free_port()
    env = dict(os.environ, PROBE_RES=str(resolution), PROBE_E=str(half_east))
    env.update(PROBE_N=str(half_north), PROBE_EXTRA=json.dumps(extra))
    command = [sys.executable, "-m", "streamlit", "run", "probe.py", "--server.port", str(port)]
    process = subprocess.Popen(
        command, cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wait_for_port(process, port)
    clicks = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.get_by_role("heading", name="Probe").wait_for()
            canvas = page.locator('[data-testid="stDeckGlJsonChart"] canvas').first
            canvas.wait_for(state="visible")
            page.wait_for_timeout(2500)  # the first frame is drawn before anything is picked
            view = {"latitude": CENTRE[0], "longitude": CENTRE[1], "zoom": 9.0}
            for round_ in range(2):
                for d_lat, d_lng in OFFSETS:
                    point = (CENTRE[0] + d_lat + 0.01 * round_, CENTRE[1] + d_lng)
                    clicks.append(
                        time_click(page, *deck_pixel(view, canvas.bounding_box(), *point))
                    )
                    page.wait_for_timeout(600)
            browser.close()
    finally:
        process.terminate()
        process.wait(timeout=30)
    ms = [seconds * 1000 for seconds, _ in clicks]
    gpu = statistics.median(cpu.get("gpu", 0.0) for _, cpu in clicks)
    renderer = statistics.median(cpu.get("renderer", 0.0) for _, cpu in clicks)
    return (
        f"| {name} | {statistics.median(ms):.0f} | {min(ms):.0f} | {max(ms):.0f} "
        f"| {gpu:.2f} / {renderer:.2f} | {len(ms)} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", help=f"any of {', '.join(VARIANTS)} (default: all)")
    names = parser.parse_args().variants or list(VARIANTS)
    if unknown := [name for name in names if name not in VARIANTS]:
        parser.error(f"unknown variant {unknown[0]!r}: choose from {', '.join(VARIANTS)}")
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing: apt-get install -y chromium")
    folder = Path(tempfile.mkdtemp(prefix="probe-click-"))
    (folder / ".streamlit").mkdir()
    (folder / ".streamlit" / "config.toml").write_text(
        (REPO / ".streamlit" / "config.toml").read_text()
    )
    (folder / "probe.py").write_text(PROBE_APP)
    print(f"load average before: {os.getloadavg()[0]:.1f}\n")
    print(
        "| variant | click p50 (ms) | min | max | Chromium CPU-s a click: GPU / renderer | clicks |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name in names:
        print(run_variant(name, folder), flush=True)
    print(f"\nload average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
