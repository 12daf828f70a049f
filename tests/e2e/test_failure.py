"""Failure: a wrong token, and a stopped service, are said in words with the fix; no traceback."""

from __future__ import annotations

import contextlib

import pytest
from e2e_browser import assert_no_exception_box, open_page, screenshot, start_streamlit
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect


@pytest.fixture(scope="module")
def wrong_token_app(reference_service, tmp_path_factory):
    log = tmp_path_factory.mktemp("e2e-wrong-token") / "streamlit.log"
    env = {"GRID_API_BASE_URL": reference_service.base_url, "GRID_API_TOKEN": "gds_not_a_token"}
    app = start_streamlit(env, log)
    yield app.url
    app.stop()


@pytest.fixture(scope="module")
def stopped_service_app(reference_service, tmp_path_factory):
    from gridservice.runtime.server import start_in_thread
    from gridservice.settings import Settings

    service = start_in_thread(Settings(db_path=reference_service.db_path, demo=True))
    base_url = service.base_url
    service.stop()  # the deployment is configured but no longer answers
    log = tmp_path_factory.mktemp("e2e-stopped") / "streamlit.log"
    app = start_streamlit({"GRID_API_BASE_URL": base_url, "GRID_API_TOKEN": "gds_demo_alpha"}, log)
    yield app.url, base_url
    app.stop()


def test_deep_link_on_a_fresh_server(page, reference_service, tmp_path_factory):
    log = tmp_path_factory.mktemp("e2e-deep-link") / "streamlit.log"
    app = start_streamlit({"GRIDSERVICE_DB": str(reference_service.db_path)}, log)
    try:
        open_page(page, app.url, "evidence_search")
        expect(page.get_by_role("heading", name="Evidence search")).to_be_visible()
        dialog = page.get_by_role("dialog").filter(has_text="Page not found")
        # the dialog comes a moment after the page: wait for it, then judge
        with contextlib.suppress(PlaywrightTimeoutError):
            dialog.wait_for(timeout=5_000)
        screenshot(page, "failure-00-deep-link-fresh-server", whole_page=False)
        assert dialog.count() == 0, "a 'Page not found' dialog covers the page"
        # the page ran inside the app, not alone: its navigation and data-source sidebar show
        sidebar = page.locator('[data-testid="stSidebar"]')
        expect(sidebar.get_by_role("link", name="Screen a site")).to_be_visible()
        expect(sidebar).to_contain_text("Data source")
    finally:
        # leave the app before its server goes, or the page logs its reconnection attempts
        page.goto("about:blank")
        app.stop()


@pytest.mark.parametrize("path", ["", "queue"])
def test_wrong_token_says_what_to_fix(page, wrong_token_app, path):
    open_page(page, wrong_token_app, path)
    alert = page.locator('[data-testid="stMain"] [data-testid="stAlert"]').first
    expect(alert).to_contain_text("The token was refused")
    expect(alert).to_contain_text("GRID_API_TOKEN")
    assert "gds_not_a_token" not in page.locator('[data-testid="stApp"]').inner_text()
    screenshot(page, f"failure-01-wrong-token-{path or 'screen'}")
    assert_no_exception_box(page)


@pytest.mark.parametrize("path", ["", "queue"])
def test_stopped_service_says_what_to_fix(page, stopped_service_app, path):
    app_url, service_url = stopped_service_app
    open_page(page, app_url, path)
    alert = page.locator('[data-testid="stMain"] [data-testid="stAlert"]').first
    expect(alert).to_contain_text("The service is unreachable")
    expect(alert).to_contain_text(service_url)
    expect(alert).to_contain_text("GRID_API_BASE_URL")
    screenshot(page, f"failure-02-service-stopped-{path or 'screen'}")
    assert_no_exception_box(page)
