"""Sales demo and expert review: the site report and its blinded variant, downloaded from the
assessment page as a reader clicks them."""

from __future__ import annotations

import io
from pathlib import Path

from e2e_browser import assert_no_exception_box, open_page, screenshot, wait_for_run
from playwright.sync_api import expect
from pypdf import PdfReader


def downloaded_text(page, button_name: str) -> tuple[str, str]:
    """Click a download button; return (the file's suggested name, its PDF text)."""
    button = page.get_by_role("button", name=button_name)
    expect(button).to_be_visible()
    with page.expect_download() as download:
        button.click()
    data = Path(download.value.path()).read_bytes()
    assert data.startswith(b"%PDF-"), data[:20]
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
    return download.value.suggested_filename, text


def test_the_site_report_downloads_as_a_pdf_naming_the_site(page, app_url, alpha_assessment):
    assessment_id = alpha_assessment["id"]
    open_page(page, app_url, f"assessment?assessment={assessment_id}")
    expect(page.get_by_role("heading", name="Assessment of e2e alpha site")).to_be_visible()
    page.get_by_role("heading", name="Downloads").scroll_into_view_if_needed()
    screenshot(page, "site-report-downloads", whole_page=False)

    name, text = downloaded_text(page, "Site report (PDF)")
    assert name == f"site-report-{assessment_id}.pdf"
    assert "Site report: e2e alpha site" in text
    assert alpha_assessment["disclaimer"].split(".")[0] in " ".join(text.split())
    wait_for_run(page)

    name, blinded = downloaded_text(page, "Blinded report (PDF)")
    assert name.startswith("blinded-site-report-case_")
    assert "e2e alpha site" not in blinded and assessment_id not in blinded
    assert_no_exception_box(page)
