"""Sales demo: drop a pin, describe the load, create the site, read the assessment, download both files."""

from __future__ import annotations

import io
import json
import re
import uuid
from pathlib import Path

import openpyxl
from e2e_browser import (
    assert_no_exception_box,
    count_colour,
    drop_pin,
    main_text,
    open_page,
    picker_map,
    screenshot,
    wait_for_run,
)
from playwright.sync_api import expect

from components import glossary
from gridservice.demo import DEMO_POINTS

PIN_RED = (214, 39, 40)


def pin_pixels(page, shot: Path) -> int:
    """Return the pin-red pixels inside the first map on a whole-page screenshot."""
    import io

    from PIL import Image

    box = picker_map(page).first.bounding_box()
    image = Image.open(shot).convert("RGB")
    crop = image.crop((box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"]))
    data = io.BytesIO()
    crop.save(data, format="PNG")
    return count_colour(data.getvalue(), PIN_RED)


def test_sales_demo(page, app_url, alpha_client):
    latitude, longitude = DEMO_POINTS["dual_certified"]
    reference = f"e2e sales demo {uuid.uuid4().hex[:8]}"
    open_page(page, app_url)
    expect(page.get_by_role("heading", name="Screen a site")).to_be_visible()
    screenshot(page, "sales-01-screen-site")

    how = drop_pin(page, latitude, longitude)
    location = page.locator('[data-testid="stForm"]').get_by_text(re.compile(r"^Location: "))
    expect(location).to_have_text(re.compile(r"Location: 29\.8\d+, -97\.9\d+"))
    typed = location.inner_text().removeprefix("Location: ").split(", ")
    pin_latitude, pin_longitude = float(typed[0]), float(typed[1])
    # a map click places the pin on the clicked point, to the pixel
    assert abs(pin_latitude - latitude) < 0.01 and abs(pin_longitude - longitude) < 0.01
    wait_for_run(page, settle_ms=1500)
    # (the whole-page shot redraws the WebGL canvas; an element shot of it can come out blank)
    shot = screenshot(page, f"sales-02-pin-{how}")
    assert pin_pixels(page, shot) > 20, "the pin is not drawn on the map"

    form = page.locator('[data-testid="stForm"]')
    form.get_by_role("spinbutton", name="Requested peak load (MW) *").fill("250")
    form.get_by_role("spinbutton", name="Average load (MW)").fill("180")
    form.get_by_role("spinbutton", name="Service voltage (kV)").fill("138")
    form.get_by_role("textbox", name="Customer reference").fill(reference)
    submit = form.get_by_role("button", name="Create site and screen it")
    # A double click on submit (an impatient user) must not make a second site. Both clicks
    # land on the button at once: two separate clicks raced the page switching to the
    # assessment, which a quick first submission now wins.
    submit.dblclick()
    page.wait_for_url(re.compile(r"/assessment\?assessment="), timeout=60_000)
    wait_for_run(page)
    assert_no_exception_box(page)
    assessment_id = re.search(r"assessment=([^&]+)", page.url).group(1)

    sites = [
        s for s in alpha_client.sites.list() if s.to_wire().get("customerReference") == reference
    ]
    assert len(sites) == 1, f"{len(sites)} sites were created by one submission"
    assessment = alpha_client.assessments.get(assessment_id).to_wire()
    assert assessment["siteId"] == sites[0].id

    # the assessment names its site in its title
    expect(page.get_by_role("heading", name=f"Assessment of {reference}")).to_be_visible()
    expect(page.get_by_text(assessment["disclaimer"])).to_be_visible()
    text = main_text(page)
    readiness = assessment["readiness"]
    assert "Abstentions" in text and "Limitations" in text
    for abstention in readiness["abstentions"]:
        factor = glossary.label("factor", abstention["factor"]).lower()
        assert f"Abstained on {factor}" in text
    if not readiness["abstentions"]:
        assert "The assessment abstained on no factor." in text
    for limitation in readiness["limitations"]:
        expect(page.get_by_text(glossary.plain(limitation), exact=True)).to_be_visible()
    assert "Hays" in text, "the assessment does not name the site's county"
    screenshot(page, "sales-03-assessment")

    # the spreadsheet is built when clicked (deferred), and opens with the site's inputs first
    sheet_button = page.get_by_role("button", name="Spreadsheet (.xlsx)")
    with page.expect_download() as download:
        sheet_button.click()
    assert download.value.suggested_filename == f"assessment-{assessment_id}-tables.xlsx"
    book = openpyxl.load_workbook(io.BytesIO(Path(download.value.path()).read_bytes()))
    assert book.sheetnames[:2] == ["Site inputs", "Summary"]
    cells = [cell for row in book["Site inputs"].iter_rows(values_only=True) for cell in row]
    assert reference in cells
    wait_for_run(page)

    packet_button = page.get_by_role("button", name=re.compile(r"^Expert-review packet"))
    with page.expect_download() as download:
        packet_button.click()
    packet = json.loads(Path(download.value.path()).read_bytes())
    served = json.loads(alpha_client.assessments.expert_review(assessment_id).raw_bytes)
    assert packet == served

    page.get_by_role("button", name="Prepare the CSV export").click()
    wait_for_run(page)
    csv_button = page.get_by_role("button", name=re.compile(r"^CSV export"))
    expect(csv_button).to_be_visible()
    with page.expect_download() as download:
        csv_button.click()
    csv_bytes = Path(download.value.path()).read_bytes()
    export = alpha_client.exports.create(assessment_id, format="csv").to_wire()
    assert csv_bytes == export["content"].encode("utf-8")
    assert csv_bytes.decode("utf-8").splitlines()[0].count(",") >= 1
    screenshot(page, "sales-04-downloads")
    assert_no_exception_box(page)
