"""The map picker: one click places the pin, and the form beside the map keeps what was typed."""

from __future__ import annotations

import re
import uuid

from e2e_browser import (
    DECK_TILE_SIZE,
    PICKER_MAP,
    assert_no_exception_box,
    click_until_moved,
    open_page,
    picker_map,
    pin_centre,
    pin_offset,
    region_click,
    screenshot,
    surroundings_view,
    wait_for_run,
)
from playwright.sync_api import expect

from components import click_map
from gridservice.demo import DEMO_POINTS


def test_one_click_places_the_pin_and_the_form_keeps_its_values(page, app_url, alpha_client):
    latitude, longitude = DEMO_POINTS["dual_certified"]
    reference = f"e2e picker {uuid.uuid4().hex[:8]}"
    # until deck.gl (4 MB on a first visit) has loaded and drawn, the map's place says so:
    # its script is held here until that is seen
    bundle = f"**/{click_map.BUNDLE_COMPONENT}/{click_map.BUNDLE_FILE}"
    held = []
    page.route(bundle, lambda route: held.append(route))
    open_page(page, app_url)
    frame = page.frame_locator(PICKER_MAP).first
    expect(frame.get_by_role("status")).to_have_text("Loading the map…")
    screenshot(page, "picker-00-map-loading")
    # the map asked for deck.gl as it told Streamlit it was ready, before it was drawn: the
    # held request reached this process before the notice did
    assert held, "the map never asked for deck.gl"
    held[0].continue_()
    page.unroute(bundle)
    expect(frame.locator("canvas").first).to_be_visible()
    expect(frame.get_by_role("status")).to_have_count(0)
    form = page.locator('[data-testid="stForm"]')
    peak = form.get_by_role("spinbutton", name="Requested peak load (MW) *")
    peak.fill("275")
    form.get_by_role("textbox", name="Customer reference").fill(reference)

    region = region_click(latitude, longitude)
    latitude_input = page.get_by_role("spinbutton", name="Latitude", exact=True)
    longitude_input = page.get_by_role("spinbutton", name="Longitude", exact=True)
    click_until_moved(page, region, latitude_input, "a click on the country map placed no pin")
    wait_for_run(page, settle_ms=1000)
    first = latitude_input.input_value()
    # the pin is where the click was, to the pixel (about 0.14 degrees at the country's zoom)
    pixel = 360 / (DECK_TILE_SIZE * 2 ** region[0]["zoom"])
    assert abs(float(first) - latitude) < pixel
    assert abs(float(longitude_input.input_value()) - longitude) < pixel
    location = form.get_by_text(re.compile(r"^Location: "))
    expect(location).to_have_text(re.compile(rf"^Location: {re.escape(first)}, -\d"))
    expect(page.get_by_text(re.compile(r"^Click to move the pin"))).to_be_visible()
    screenshot(page, "picker-01-first-click")

    # two clicks in the surroundings, on the one map that serves every click; neither moves
    # the view, and the second puts the pin on the point, to the pixel (~0.0014 degrees)
    near_view = surroundings_view(page)
    # the view came to the pin's surroundings, and the pin with it, where its point is drawn
    assert pin_offset(page, near_view, float(first), float(longitude_input.input_value())) < 2
    picker_map(page).first.evaluate("frame => { frame.dataset.journey = 'kept'; }")
    aside = (near_view, (latitude - 0.06, longitude + 0.05))
    click_until_moved(page, aside, latitude_input, "a click in the surroundings moved no pin")
    wait_for_run(page, settle_ms=1000)
    assert abs(float(latitude_input.input_value()) - aside[1][0]) < 0.002
    near = (near_view, (latitude, longitude))
    click_until_moved(page, near, latitude_input, "a second click there moved no pin")
    wait_for_run(page, settle_ms=1000)
    pin = (float(latitude_input.input_value()), float(longitude_input.input_value()))
    assert abs(pin[0] - latitude) < 0.002 and abs(pin[1] - longitude) < 0.002
    assert pin_offset(page, near_view, *pin) < 2, "the pin stands where the map was clicked"
    # dragging the map carries the pin along with it, and places no new point
    before = pin_centre(page)
    box = picker_map(page).first.bounding_box()
    page.mouse.move(box["x"] + 60, box["y"] + 60)
    page.mouse.down()
    for step in range(1, 9):
        page.mouse.move(box["x"] + 60 + 5 * step, box["y"] + 60 + 4 * step)
    page.mouse.up()
    page.wait_for_timeout(800)
    moved = (pin_centre(page)[0] - before[0], pin_centre(page)[1] - before[1])
    # (the map starts to pan a few pixels into the drag: the pin moves by a little less)
    assert 25 < moved[0] <= 41 and 18 < moved[1] <= 33, moved
    assert (float(latitude_input.input_value()), float(longitude_input.input_value())) == pin
    # a map that sits still asks the browser for no frames (deck.gl asked for 60 a second,
    # 0.15 to 0.45 of a core in a software-drawing browser); a wheel over it zooms it,
    # drawn again, and then it rests
    inner = picker_map(page).first.element_handle().content_frame()
    expect(frame.locator("#map")).to_have_attribute("data-frames", "held")
    drawn = int(frame.locator("#map").get_attribute("data-drawn"))
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -240)
    inner.wait_for_function(
        "drawn => Number(document.getElementById('map').dataset.drawn) > drawn", arg=drawn
    )
    expect(frame.locator("#map")).to_have_attribute("data-frames", "held")
    assert inner.evaluate("() => deckgl.getViewports()[0].zoom") > near_view["zoom"]
    # (the second click landing on the point shows the first left the view where it was)
    # the map is the same frame all along: a click does not build a new map
    assert picker_map(page).first.get_attribute("data-journey") == "kept"
    # what was typed into the form, never sent, is still there after three map clicks
    expect(peak).to_have_value("275.00")
    expect(form.get_by_role("textbox", name="Customer reference")).to_have_value(reference)
    screenshot(page, "picker-02-second-click")

    form.get_by_role("button", name="Create site and screen it").click()
    page.wait_for_url(re.compile(r"/assessment\?assessment="), timeout=60_000)
    wait_for_run(page)
    assert_no_exception_box(page)
    site = next(
        s for s in alpha_client.sites.list() if s.to_wire().get("customerReference") == reference
    )
    assert site.requested_peak_load_mw == 275.0
    # the site stands at the last clicked point, the one the form showed
    assert (site.location.latitude, site.location.longitude) == pin


# what the map's frame fetched of its scripts: (file, bytes over the wire, bytes of the file)
FETCHED = """() => performance.getEntriesByType('resource')
  .map(e => [e.name.split('/').pop(), e.transferSize, e.decodedBodySize])"""


def test_a_second_tab_keeps_deck_gl_and_asks_only_whether_it_changed(page, app_url):
    # Streamlit sent a component's scripts with no validator: every tab fetched deck.gl's
    # 4.3 MB again (components/server/component_files.py)
    bundle = click_map.DECK_BUNDLE / click_map.BUNDLE_FILE
    open_page(page, app_url)
    picker_map(page).first.wait_for(state="visible")
    second = page.context.new_page()
    open_page(second, app_url)
    frame = picker_map(second).first
    frame.wait_for(state="visible")
    second.wait_for_function(
        "() => [...document.querySelectorAll('iframe')].some(f => f.contentWindow.deck)"
    )
    fetched = {
        name: (wire, size)
        for name, wire, size in frame.element_handle().content_frame().evaluate(FETCHED)
    }
    wire, size = fetched["index.js"]
    assert size == bundle.stat().st_size  # deck.gl, whole, from the browser's cache
    assert wire < 2_000  # a "304 Not Modified": headers, no body
    assert_no_exception_box(second)
