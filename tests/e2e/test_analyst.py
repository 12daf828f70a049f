"""Analyst: filter the queue by a county, select a record, read where it came from; open a project's source."""

from __future__ import annotations

import re

from e2e_browser import (
    assert_no_exception_box,
    dataframe_rows,
    open_page,
    screenshot,
    wait_for_run,
)
from playwright.sync_api import expect

COUNTY = "Hays"


def test_queue_record_evidence(page, app_url, alpha_client):
    in_county = [r.to_wire() for r in alpha_client.queue_records.list(limit=500)]
    in_county = [r for r in in_county if r["county"] == COUNTY]
    assert in_county, "the demo data has queue records in Hays County"

    open_page(page, app_url, "queue")
    county = page.locator('[data-testid="stMultiSelect"]').filter(has_text="County")
    county.locator("input").fill(COUNTY)
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    wait_for_run(page)
    expect(page.get_by_text(re.compile(rf"^{len(in_county)} of [\d,]+ records"))).to_be_visible()
    assert f"county={COUNTY}" in page.url

    table = page.locator('[data-testid="stDataFrame"]').last
    table.scroll_into_view_if_needed()
    box = table.bounding_box()
    page.mouse.click(box["x"] + 16, box["y"] + 35 + 17)  # the first row's selection box
    wait_for_run(page)
    expect(page).to_have_url(re.compile(r"record="))
    record_id = re.search(r"record=([^&]+)", page.url).group(1)
    assert record_id in {r["id"] for r in in_county}
    evidence = alpha_client.queue_records.evidence(record_id).to_wire()
    locator = evidence.get("locator") or {}

    expect(page.get_by_text("The source row as it was published")).to_be_visible()
    frames = page.locator('[data-testid="stDataFrame"]')
    shown = {}
    for index in range(frames.count()):
        rows = dataframe_rows(page, frames.nth(index))
        if rows and set(rows[0]) == {"", "value"} and rows[0][""] == "Source":
            shown = {row[""]: row["value"] for row in rows}
            break
    assert shown.get("File") == (locator.get("fileName") or "")
    assert shown.get("Worksheet") == (locator.get("worksheet") or "")
    assert shown.get("Row") == ("" if locator.get("row") is None else str(locator["row"]))
    screenshot(page, "analyst-01-queue-record-evidence")
    assert_no_exception_box(page)


def test_transmission_project_evidence_link(page, app_url, alpha_client):
    projects = [p.to_wire() for p in alpha_client.transmission_projects.list(limit=500)]
    open_page(page, app_url, "transmission")
    link = page.get_by_role("link", name="Open the source")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href in {(p.get("evidence") or {}).get("sourceUrl") for p in projects}
    requested: list[str] = []
    page.context.on("request", lambda request: requested.append(request.url))
    with page.context.expect_page() as opened:
        link.click()
    opened.value.wait_for_load_state()  # offline, the tab ends on an error page
    assert href in requested, "the evidence link did not open the project's source"
    opened.value.close()
    screenshot(page, "analyst-02-transmission-evidence")
    assert_no_exception_box(page)
