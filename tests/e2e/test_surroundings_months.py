"""The grid around a site in a browser: the change tables are folded under their counts; the
reader opens them and picks the report months compared, and the whole section follows.

The month pickers live in a fragment (the folded tables' own), so picking a month first reruns
only that fragment, which then reruns the page: AppTest runs whole pages only, so this path is
checked here.
"""

from __future__ import annotations

import re

from e2e_browser import (
    assert_no_exception_box,
    choose_option,
    main_text,
    open_page,
    screenshot,
    wait_for_run,
)
from playwright.sync_api import expect

FOLDED = "Show the projects that entered, left or changed, with their source cells"


def headline(months: tuple[str, str], counts: dict[str, int]) -> str:
    before, after = months
    return (
        f"What changed between the {before} and {after} reports (location basis: county): "
        f"{counts['entered']:,} entered, {counts['left']:,} left, {counts['changed']:,} changed."
    )


def test_picking_a_report_month_in_the_folded_tables_redraws_the_section(
    page, app_url, alpha_client, alpha_assessment
):
    site_id = alpha_assessment["siteId"]
    near = alpha_client.sites.surroundings(site_id, radius_km=40)
    months = sorted({r.report_month for r in near.reports if r.report_month})
    shown = (near.changes.from_report.report_month, near.changes.to.report_month)
    assert len(months) >= 3, "the demo data harvests several queue reports"

    open_page(page, app_url, f"assessment?assessment={alpha_assessment['id']}")
    expect(page.get_by_text(headline(shown, near.changes.counts))).to_be_visible()
    pickers = page.get_by_role("combobox", name="Changes from the report of")
    assert pickers.count() == 0, "the month pickers wait in the folded tables"

    page.get_by_text(FOLDED).click()
    wait_for_run(page)  # opening the tables reruns their fragment: let it finish first
    picker = page.get_by_role("combobox", name="Changes from the report of")
    expect(picker).to_have_value(shown[0])
    expect(page.get_by_role("tab", name="Entered")).to_be_visible()

    chosen = next(m for m in months if m < shown[1] and m != shown[0])
    choose_option(page, picker, chosen)
    wait_for_run(page, settle_ms=1000)
    again = alpha_client.sites.surroundings(site_id, radius_km=40, from_month=chosen)
    expect(page.get_by_text(headline((chosen, shown[1]), again.changes.counts))).to_be_visible()
    # the tables stay open on the months picked
    expect(page.get_by_role("combobox", name="Changes from the report of")).to_have_value(chosen)
    assert re.search(r"Show the dropout rates by fuel and by county", main_text(page))
    screenshot(page, "surroundings-01-months-picked")
    assert_no_exception_box(page)
