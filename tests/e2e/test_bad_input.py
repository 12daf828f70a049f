"""Bad input on "Screen a site" is said out loud: each field named with its bound."""

from __future__ import annotations

import re

from e2e_browser import assert_no_exception_box, open_page, wait_for_run
from playwright.sync_api import expect


def test_bad_input_names_each_field_and_its_bound(page, app_url):
    open_page(page, app_url)
    for label, value in (("Latitude", "95"), ("Longitude", "-98")):
        field = page.get_by_role("spinbutton", name=label, exact=True)
        field.fill(value)
        field.press("Tab")
        wait_for_run(page)
    peak = page.get_by_role("spinbutton", name=re.compile(r"^Requested peak load"))
    peak.fill("6000")
    peak.press("Tab")
    page.get_by_role("button", name="Create site and screen it").click()
    wait_for_run(page)
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="The site was not sent")
    expect(alert).to_be_visible()
    text = alert.inner_text()
    assert "Latitude" in text and "-90" in text and "90" in text, text
    assert "Requested peak load" in text and "5,000 MW" in text, text
    assert_no_exception_box(page)
