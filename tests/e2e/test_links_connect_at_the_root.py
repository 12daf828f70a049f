"""A link to one of the app's pages connects at the app's root at once, instead of first
asking the page's own path for the server and waiting out a retry (`components.server.page_links`).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from e2e_browser import assert_no_exception_box, open_page, start_streamlit
from playwright.sync_api import expect

from components.server.page_links import APP_ROOT_JS, page_paths


def test_a_link_to_a_page_connects_at_the_apps_root(page, app_url):
    asked: list[str] = []
    page.on("request", lambda request: asked.append(urlsplit(request.url).path))
    open_page(page, app_url, "generation")
    expect(page.get_by_role("heading", name="Generation", exact=True)).to_be_visible()
    stcore = [path for path in asked if "/_stcore/" in path]
    assert "/_stcore/health" in stcore, stcore
    assert not [path for path in stcore if path.startswith("/generation/")], stcore
    assert_no_exception_box(page)


def test_the_apps_root_is_the_path_less_the_pages_own_segment(page):
    # only the browser's JavaScript engine is used: the blank page it opens on will do
    pages = page_paths()
    roots = {
        path: page.evaluate(f"({APP_ROOT_JS})({path!r}, {pages!r})")
        for path in ("/", "/generation", "/assessment/", "/screener", "/screener/generation")
    }
    assert roots == {
        "/": "/",
        "/generation": "/",
        "/assessment/": "/",
        "/screener": "/screener/",  # a proxy's prefix, at the app's root
        "/screener/generation": "/screener/",
    }


def test_an_app_served_under_a_path_connects_there(page, reference_service, tmp_path):
    # served under /screener (`server.baseUrlPath`), as behind a proxy that keeps its prefix:
    # a link to a page asks /screener/_stcore/health, never the page's path nor the root
    app = start_streamlit(
        {"GRIDSERVICE_DB": str(reference_service.db_path)},
        tmp_path / "streamlit.log",
        base_path="screener",
    )
    try:
        asked: list[str] = []
        page.on("request", lambda request: asked.append(urlsplit(request.url).path))
        open_page(page, app.url, "dockets")
        expect(page.get_by_role("heading", name="Dockets", exact=True)).to_be_visible()
        stcore = [path for path in asked if "/_stcore/" in path]
        assert "/screener/_stcore/health" in stcore, stcore
        assert all(path.startswith("/screener/_stcore/") for path in stcore), stcore
        assert_no_exception_box(page)
    finally:
        # leave the page first: it may still be fetching the app's scripts, which would fail
        # as console errors once the app is stopped
        page.goto("about:blank")
        app.stop()
